"""Probe tests for ownpaste: one targeted black-box check per faulty variant (test_NN <-> patch NN).

Only what README.md (README.rst + docs/api.rst + docs/setup.rst) states is asserted:
- JSON is asked for with `Accept: application/json`; every JSON answer carries `status`
  (`ok` or `fail`);
- credentials are the documented defaults (USERNAME 'ownpaste', PASSWORD hash of 'test'),
  sent with HTTP Digest authentication;
- no status code is asserted (the document names none); a refusal is "not ok": an HTTP error
  status or `status == "fail"`, and the protected data absent.
"""
import os
import time
import uuid

import requests
from requests.auth import HTTPDigestAuth

BASE = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9212").rstrip("/")
JSON = {"Accept": "application/json"}
AUTH = ("ownpaste", "test")


def auth():
    return HTTPDigestAuth(*AUTH)


def create(file_content=None, **fields):
    body = {"file_content": file_content if file_content is not None else "probe " + uuid.uuid4().hex}
    body.update(fields)
    r = requests.post(BASE + "/paste/", json=body, headers=JSON, auth=auth(), timeout=10)
    assert r.status_code < 400, r.text
    data = r.json()
    assert data["status"] == "ok", data
    return data


def listing(params=None, with_auth=False):
    r = requests.get(BASE + "/paste/", params=params or {}, headers=JSON,
                     auth=auth() if with_auth else None, timeout=10)
    return r


def all_listed_items(params=None, with_auth=False):
    """paste objects over every page of the listing."""
    items, page = [], 1
    while True:
        p = dict(params or {}, page=page)
        r = listing(p, with_auth)
        assert r.status_code < 400, r.text
        data = r.json()
        assert data["status"] == "ok"
        items.extend(data["pastes"])
        if page >= data["pages"] or not data["pastes"]:
            return items
        page += 1


def all_listed_ids(params=None, with_auth=False):
    """paste_ids over every page of the listing."""
    return [item["paste_id"] for item in all_listed_items(params, with_auth)]


def refused(r):
    if r.status_code >= 400:
        return True
    try:
        return r.json().get("status") == "fail"
    except ValueError:
        return False


def test_01_page_two_is_the_next_page():
    per_page = listing().json()["per_page"]
    for _ in range(per_page + 1):
        create()
    p1 = listing({"page": 1}).json()
    p2 = listing({"page": 2}).json()
    assert p1["page"] == 1 and p2["page"] == 2
    ids1 = {i["paste_id"] for i in p1["pastes"]}
    ids2 = {i["paste_id"] for i in p2["pastes"]}
    assert len(ids1) == per_page
    assert ids2, "page 2 is empty although total > per_page"
    assert not ids1 & ids2, "page 2 repeats pastes of page 1"


def test_02_private_paste_not_in_default_listing():
    private = create(private=True)
    public = create()
    ids = all_listed_ids()
    assert public["paste_id"] in ids
    assert private["paste_id"] not in ids


def test_03_private_listing_requires_authentication():
    private = create(private=True)
    r = listing({"private": 1})
    if refused(r):
        return
    ids = [i["paste_id"] for i in r.json().get("pastes", [])]
    assert private["paste_id"] not in ids, "private pastes listed without authentication"


def test_04_private_listing_with_auth_includes_private():
    private = create(private=True)
    public = create()
    ids = all_listed_ids({"private": 1}, with_auth=True)
    assert private["paste_id"] in ids
    assert public["paste_id"] in ids


def test_05_private_defaults_to_false():
    created = create()
    assert created["private"] is False
    assert created["private_id"] is None
    assert created["paste_id"] in all_listed_ids()


def test_06_preview_is_first_five_lines():
    lines = ["line %d %s" % (i, uuid.uuid4().hex[:6]) for i in range(1, 9)]
    created = create("\n".join(lines) + "\n")
    assert created["file_content_preview"].splitlines() == lines[:5]
    # The README states no listing order, so the paste is looked up on every page, not page 1.
    listed = [i for i in all_listed_items() if i["paste_id"] == created["paste_id"]]
    assert listed and listed[0]["file_content_preview"].splitlines() == lines[:5]


def test_07_patch_private_false_makes_paste_public():
    created = create(private=True)
    assert created["private"] is True and created["private_id"]
    r = requests.patch(BASE + "/paste/%d/" % created["paste_id"], json={"private": False},
                       headers=JSON, auth=auth(), timeout=10)
    assert r.status_code < 400, r.text
    data = r.json()
    assert data["status"] == "ok"
    assert data["private"] is False
    assert data["private_id"] is None
    assert created["paste_id"] in all_listed_ids()


def test_08_delete_removes_paste():
    created = create()
    pid = created["paste_id"]
    r = requests.delete(BASE + "/paste/%d/" % pid, headers=JSON, auth=auth(), timeout=10)
    assert r.json()["status"] == "ok"
    after = requests.get(BASE + "/paste/%d/" % pid, headers=JSON, auth=auth(), timeout=10)
    assert refused(after)
    assert pid not in all_listed_ids()


def test_09_pub_timestamp_is_unix_seconds():
    before = time.time()
    created = create()
    ts = created["pub_timestamp"]
    assert isinstance(ts, int)
    assert abs(ts - before) < 24 * 3600, ts  # Unix time in seconds, not ms
    got = requests.get(BASE + "/paste/%d/" % created["paste_id"], headers=JSON, timeout=10).json()
    assert abs(got["pub_timestamp"] - before) < 24 * 3600


def test_10_private_paste_numeric_id_needs_auth_private_id_does_not():
    content = "secret " + uuid.uuid4().hex
    created = create(content, private=True)
    by_num = requests.get(BASE + "/paste/%d/" % created["paste_id"], headers=JSON, timeout=10)
    assert refused(by_num)
    assert content not in by_num.text
    by_private_id = requests.get(BASE + "/paste/%s/" % created["private_id"], headers=JSON, timeout=10)
    assert by_private_id.status_code < 400
    data = by_private_id.json()
    assert data["status"] == "ok"
    assert data["file_content"] == content
    with_auth = requests.get(BASE + "/paste/%d/" % created["paste_id"], headers=JSON, auth=auth(), timeout=10)
    assert with_auth.json()["file_content"] == content
