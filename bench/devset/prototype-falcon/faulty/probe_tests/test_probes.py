"""Targeted black-box probes, one per faulty variant in ../NN-*.patch (see ../FAULTS.md).

The README lists the endpoints and says the API "replicates the behavior of JSONPlaceholder",
so the resources carry JSONPlaceholder's field names (post: id, title, body, userId; comment:
postId; todo: userId; photo: albumId). Each probe asserts only what the README states and
accepts what it leaves open: any 2xx for a success (no code is named), any 4xx for a rejected
request ("appropriate HTTP status codes"), any error body, extra fields, any list order, and
whatever sample data the service starts with (checks on seeded collections hold vacuously
when they are empty). User ids 7001..7999 are used so that probe posts never meet sample data.
"""
import uuid

import requests

T = 10


def _uid():
    return uuid.uuid4().hex[:8]


def create_post(base, user_id=7000, title=None, body=None):
    data = {"title": title or "probe title " + _uid(),
            "body": body or "probe body " + _uid(),
            "userId": user_id}
    r = requests.post(base + "/posts", json=data, timeout=T)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    post = r.json()
    assert isinstance(post.get("id"), int), post
    return post, data


def get_post(base, pid):
    return requests.get("%s/posts/%d" % (base, pid), timeout=T)


def list_json(url, **params):
    r = requests.get(url, params=params, timeout=T)
    assert r.status_code == 200, (url, r.status_code, r.text)
    items = r.json()
    assert isinstance(items, list), items
    return items


def test_01_posts_filtered_by_user_id(base):
    mine, _ = create_post(base, user_id=7001)
    other, _ = create_post(base, user_id=7002)
    items = list_json(base + "/posts", userId=7001)
    ids = [p["id"] for p in items]
    assert mine["id"] in ids
    assert other["id"] not in ids
    assert all(p["userId"] == 7001 for p in items)


def test_02_patch_keeps_fields_not_sent(base):
    post, data = create_post(base, user_id=7003)
    r = requests.patch("%s/posts/%d" % (base, post["id"]), json={"title": "patched " + _uid()},
                       timeout=T)
    assert 200 <= r.status_code < 300, r.text
    got = get_post(base, post["id"]).json()
    assert got["title"].startswith("patched ")
    assert got["body"] == data["body"]
    assert got["userId"] == 7003


def test_03_put_update_is_persisted(base):
    post, _ = create_post(base, user_id=7004)
    new = {"title": "put title " + _uid(), "body": "put body " + _uid(), "userId": 7005}
    r = requests.put("%s/posts/%d" % (base, post["id"]), json=new, timeout=T)
    assert 200 <= r.status_code < 300, r.text
    got = get_post(base, post["id"])
    assert got.status_code == 200
    g = got.json()
    assert (g["title"], g["body"], g["userId"]) == (new["title"], new["body"], new["userId"])


def test_04_delete_removes_post(base):
    post, _ = create_post(base, user_id=7006)
    r = requests.delete("%s/posts/%d" % (base, post["id"]), timeout=T)
    assert 200 <= r.status_code < 300, r.text
    assert not (200 <= get_post(base, post["id"]).status_code < 300)
    assert post["id"] not in [p["id"] for p in list_json(base + "/posts")]


def test_05_post_comments_belong_to_that_post(base):
    post_ids = {c["postId"] for c in list_json(base + "/comments")}
    post_ids |= {p["id"] for p in list_json(base + "/posts")[:5]}
    for pid in sorted(post_ids):
        r = requests.get("%s/posts/%d/comments" % (base, pid), timeout=T)
        if r.status_code == 404:  # a post that does not exist: nothing to check
            continue
        assert r.status_code == 200, r.text
        assert all(c["postId"] == pid for c in r.json()), (pid, r.json())


def _known_user(base):
    """A user id whose `GET /users/{id}/posts` answers a list.

    The README states no users and leaves open whether a user nobody created exists (an
    implementation may answer 404 for it), so a user of the sample posts is preferred; 7007
    is the fallback when the service starts without sample posts."""
    seen = []
    for p in list_json(base + "/posts"):
        uid = p.get("userId")
        if isinstance(uid, int) and uid not in seen and not 7000 <= uid <= 7999:
            seen.append(uid)
    for uid in seen[:5] + [7007]:
        if requests.get("%s/users/%d/posts" % (base, uid), timeout=T).status_code == 200:
            return uid
    return 7007


def test_06_user_posts_include_new_post(base):
    uid = _known_user(base)
    post, _ = create_post(base, user_id=uid)
    items = list_json("%s/users/%d/posts" % (base, uid))
    assert post["id"] in [p["id"] for p in items]
    assert all(p["userId"] == uid for p in items)


def test_07_user_todos_belong_to_that_user(base):
    for uid in (1, 2, 3, 4):
        items = list_json("%s/users/%d/todos" % (base, uid))
        assert all(t["userId"] == uid for t in items), (uid, items)


def test_08_album_photos_belong_to_that_album(base):
    for aid in (1, 2, 3, 4):
        items = list_json("%s/albums/%d/photos" % (base, aid))
        assert all(p["albumId"] == aid for p in items), (aid, items)


def test_09_create_without_required_fields_rejected(base):
    before = len(list_json(base + "/posts"))
    r = requests.post(base + "/posts", json={}, timeout=T)
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    assert len(list_json(base + "/posts")) == before


def test_10_ids_auto_increment_after_delete(base):
    a, _ = create_post(base, user_id=7008)
    b, b_data = create_post(base, user_id=7008)
    assert b["id"] > a["id"]
    r = requests.delete("%s/posts/%d" % (base, a["id"]), timeout=T)
    assert 200 <= r.status_code < 300
    c, _ = create_post(base, user_id=7008)
    assert c["id"] > b["id"]
    got = get_post(base, b["id"])
    assert got.status_code == 200 and got.json()["title"] == b_data["title"]
