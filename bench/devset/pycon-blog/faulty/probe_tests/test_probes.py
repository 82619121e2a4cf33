"""Targeted black-box probes, one per faulty variant in ../NN-*.patch (see ../FAULTS.md).

What the README states (docs/aiohttp_server.rst, "Full example for REST API"): a post has
id (int), title, text, owner ("Post creator") and editor ("Last editor"); GET /api lists posts,
POST /api adds one from title, text, owner; GET /api/{post} returns the post's json;
DELETE /api/{post} deletes it; PATCH /api/{post} edits it from title, text, editor.

It states no status code, no response envelope and which fields a list item carries, so the
probes accept any 2xx for a success and any non-2xx for a missing post, a post either bare or
wrapped in an object under "data", an id as int or as its decimal string, and list items with
any subset of fields besides the id. Request bodies are sent as JSON.
"""
import uuid

import requests

T = 10


def _uid():
    return uuid.uuid4().hex[:8]


def unwrap(body):
    """The post / list itself, whether sent bare or inside an envelope's "data"."""
    if isinstance(body, dict) and "data" in body and "title" not in body:
        return body["data"]
    return body


def same_id(a, b):
    return str(a) == str(b)


def create(base, title=None, text=None, owner=None):
    req = {"title": title or "title " + _uid(), "text": text or "text " + _uid(),
           "owner": owner or "owner-" + _uid()}
    r = requests.post(base + "/api", json=req, timeout=T)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    post = unwrap(r.json())
    assert "id" in post, post
    return post["id"], req


def get(base, pid):
    return requests.get("%s/api/%s" % (base, pid), timeout=T)


def get_post(base, pid):
    r = get(base, pid)
    assert r.status_code == 200, (r.status_code, r.text)
    return unwrap(r.json())


def list_ids(base):
    r = requests.get(base + "/api", timeout=T)
    assert r.status_code == 200, r.text
    items = unwrap(r.json())
    assert isinstance(items, list), items
    return [str(p["id"]) for p in items]


def patch(base, pid, body):
    r = requests.patch("%s/api/%s" % (base, pid), json=body, timeout=T)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    return r


def test_01_list_shows_every_post(base):
    ids = [create(base)[0] for _ in range(12)]
    listed = list_ids(base)
    for pid in ids:
        assert str(pid) in listed


def test_02_text_is_stored(base):
    pid, req = create(base, title="the title " + _uid(), text="the body " + _uid())
    post = get_post(base, pid)
    assert post["text"] == req["text"]
    assert post["title"] == req["title"]


def test_03_owner_is_stored(base):
    pid, req = create(base, owner="alice-" + _uid())
    assert get_post(base, pid)["owner"] == req["owner"]


def test_04_get_returns_whole_post(base):
    pid, req = create(base)
    post = get_post(base, pid)
    assert same_id(post["id"], pid)
    for key in ("title", "text", "owner"):
        assert post[key] == req[key], key
    assert "editor" in post


def test_05_delete_removes_post_from_list(base):
    pid, _ = create(base)
    r = requests.delete("%s/api/%s" % (base, pid), timeout=T)
    assert 200 <= r.status_code < 300, r.text
    assert str(pid) not in list_ids(base)


def test_06_patch_sets_editor(base):
    pid, _ = create(base, owner="bob-" + _uid())
    editor = "carol-" + _uid()
    patch(base, pid, {"text": "edited " + _uid(), "editor": editor})
    assert get_post(base, pid)["editor"] == editor


def test_07_patch_keeps_owner(base):
    pid, req = create(base, owner="dave-" + _uid())
    patch(base, pid, {"title": "retitled " + _uid(), "editor": "erin-" + _uid()})
    assert get_post(base, pid)["owner"] == req["owner"]


def test_08_patch_sets_title(base):
    pid, _ = create(base)
    title = "new title " + _uid()
    patch(base, pid, {"title": title, "editor": "frank-" + _uid()})
    assert get_post(base, pid)["title"] == title


def test_09_patch_keeps_fields_not_sent(base):
    pid, req = create(base)
    text = "only the text " + _uid()
    patch(base, pid, {"text": text})
    post = get_post(base, pid)
    assert post["text"] == text
    assert post["title"] == req["title"]


def test_10_deleted_post_cannot_be_fetched(base):
    pid, _ = create(base)
    get_post(base, pid)
    r = requests.delete("%s/api/%s" % (base, pid), timeout=T)
    assert 200 <= r.status_code < 300, r.text
    r = get(base, pid)
    assert not (200 <= r.status_code < 300), (r.status_code, r.text)
