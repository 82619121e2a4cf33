"""Targeted black-box probes, one per faulty variant in ../NN-*.patch (see ../FAULTS.md).

Each probe asserts only what README.md states, on students and classes it creates itself with
unique names, so it also holds on a service that starts empty or that already holds other data.
Resource URLs are discovered as the README describes (the root URL's version catalog, the
`*_url` fields of resources, the `meta` URLs of collections); a created item's URL is found by
filtering its collection on its unique name (`filter=name,eq,...`), since the README does not
say what a POST answers. Left open by the README and so accepted here: the success status
codes (any 2xx; 4xx for a rejected request), the order of a collection unless `sort` is given,
the form of the URLs, whether `per_page` is honoured (the README: "The server is not obligated
to honor the `per_page` size requested by the client"), error bodies, extra fields.
Stated by the README and relied on: the `{"versions": {"v1": {...}}}` catalog, collections as
`{<collection name>: [...], "meta": {...}}` with `page`, `pages`, `total`, `per_page`,
`next_url`; items as URLs unless `expand=1`; the `filter` operators and `;` concatenation;
`sort=field,desc`; `name` required on POST/PUT; PUT edits; a student's `registrations_url`
lists that student's registrations; 401 with a `Location` header naming the token URL.
Base URL: SERVICE_BASE_URL, default http://127.0.0.1:9214.
"""
import math
import os
import uuid
from urllib.parse import urljoin

import requests

# same defaults as conftest.py (not imported from it: the project's pytest configuration uses
# --import-mode=importlib, which does not put this folder on sys.path)
USERNAME = os.environ.get("SERVICE_USERNAME", "dave")
PASSWORD = os.environ.get("SERVICE_PASSWORD", "cat")


def find_token(body):
    """The README only says the answer 'will include a token': the `token` key, else the only
    string value."""
    if isinstance(body, dict):
        if isinstance(body.get("token"), str):
            return body["token"]
        strings = [v for v in body.values() if isinstance(v, str) and v]
        if len(strings) == 1:
            return strings[0]
    return None


def uid():
    return uuid.uuid4().hex[:10]


def ok(response):
    assert 200 <= response.status_code < 300, (response.request.method, response.url,
                                               response.status_code, response.text)
    return response


def listing(session, url, **params):
    """GET a collection URL; returns (items, meta)."""
    r = ok(session.get(url, params=params, timeout=10))
    body = r.json()
    lists = [v for k, v in body.items() if k != "meta" and isinstance(v, list)]
    assert len(lists) == 1, body
    assert isinstance(body.get("meta"), dict), body
    return lists[0], body["meta"]


def find_by_name(session, collection_url, name):
    items, meta = listing(session, collection_url, filter=f"name,eq,{name}")
    assert len(items) == 1, (name, items, meta)
    return urljoin(collection_url, items[0]) if isinstance(items[0], str) else items[0]


def create(session, collection_url, name):
    ok(session.post(collection_url, json={"name": name}, timeout=10))
    return find_by_name(session, collection_url, name)


def get(session, url):
    return ok(session.get(url, timeout=10)).json()


def test_01_meta_total_counts_whole_collection(session, catalog):
    # README Pagination: "The `page`, `pages`, `total` and `per_page` provide the current page,
    # total number of pages, total number of items and items per page values respectively."
    tag = uid()
    names = [f"tot{tag}{c}" for c in "abc"]
    for n in names:
        create(session, catalog["students_url"], n)
    items, meta = listing(session, catalog["students_url"],
                          filter="name,in," + ",".join(names), per_page=2)
    assert meta["total"] == 3, meta
    assert len(items) == min(3, meta["per_page"]), (items, meta)


def test_02_meta_pages_is_number_of_pages(session, catalog):
    # README Pagination: "`pages` ... total number of pages" (example: total 37, per_page 10, pages 4)
    tag = uid()
    names = [f"pg{tag}{c}" for c in "abc"]
    for n in names:
        create(session, catalog["students_url"], n)
    items, meta = listing(session, catalog["students_url"],
                          filter="name,in," + ",".join(names), per_page=2)
    assert meta["total"] == 3, meta
    assert meta["pages"] == math.ceil(meta["total"] / meta["per_page"]), meta
    assert meta["page"] == 1, meta


def test_03_next_url_keeps_the_filter(session, catalog):
    # README Pagination: "When filtering, sorting and embedding options are used, these URLs
    # contain the same options that were given for the current request."
    tag = uid()
    for c in "xyz":  # decoys outside the filter, created first
        create(session, catalog["students_url"], f"nx{tag}{c}")
    names = [f"nf{tag}{c}" for c in "abc"]
    urls = {create(session, catalog["students_url"], n) for n in names}
    items, meta = listing(session, catalog["students_url"],
                          filter="name,in," + ",".join(names), per_page=2)
    if meta["per_page"] >= 3:  # the server did not honour per_page=2: nothing to follow
        assert {urljoin(catalog["students_url"], u) for u in items} == urls
        return
    assert meta["next_url"], meta
    seen = [urljoin(catalog["students_url"], u) for u in items]
    next_url = urljoin(catalog["students_url"], meta["next_url"])
    more, meta2 = listing(session, next_url)
    seen += [urljoin(next_url, u) for u in more]
    assert set(seen) == urls and len(seen) == 3, (seen, urls, meta2)


def test_04_concatenated_filters_all_apply(session, catalog):
    # README Filtering: "To build more complex queries multiple filters can be concatenated with
    # a `;` separator." / "Search by range (all names that begin with "a"): `filter=name,ge,a;name,lt,b`"
    tag = uid()
    a = create(session, catalog["students_url"], f"rg{tag}a")
    b = create(session, catalog["students_url"], f"rg{tag}b")
    create(session, catalog["students_url"], f"rg{tag}c")
    items, meta = listing(session, catalog["students_url"],
                          filter=f"name,ge,rg{tag}a;name,lt,rg{tag}c")
    assert meta["total"] == 2, meta
    assert {urljoin(catalog["students_url"], u) for u in items} == {a, b}, items


def test_05_post_without_name_is_rejected(session, catalog):
    # README Student Resource: "The `POST` and `PUT` requests only require the `name` field in
    # the request body." -- a POST without `name` is not a valid student.
    before = listing(session, catalog["students_url"])[1]["total"]
    r = session.post(catalog["students_url"], json={}, timeout=10)
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    r = session.post(catalog["students_url"], json={"nickname": f"nn{uid()}"}, timeout=10)
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    after = listing(session, catalog["students_url"])[1]["total"]
    assert after == before, (before, after)


def test_06_sort_descending(session, catalog):
    # README Sorting: "The sort order can be `asc` or `desc`." / "Sort by name in descending
    # order: `sort=name,desc`"
    tag = uid()
    names = [f"so{tag}{c}" for c in "bca"]
    url = {n: create(session, catalog["students_url"], n) for n in names}
    flt = "name,in," + ",".join(names)
    items, _ = listing(session, catalog["students_url"], filter=flt, sort="name,desc")
    got = [urljoin(catalog["students_url"], u) for u in items]
    assert got == [url[n] for n in sorted(names, reverse=True)], got
    items, _ = listing(session, catalog["students_url"], filter=flt, sort="name,asc")
    got = [urljoin(catalog["students_url"], u) for u in items]
    assert got == [url[n] for n in sorted(names)], got


def test_07_expand_returns_full_resources(session, catalog):
    # README Resource Expansion: "By default ... only their URLs are returned" / "To request the
    # resources in expanded form add `expand=1` to the query string"
    name = f"ex{uid()}"
    url = create(session, catalog["students_url"], name)
    items, _ = listing(session, catalog["students_url"], filter=f"name,eq,{name}", expand=1)
    assert len(items) == 1 and isinstance(items[0], dict), items
    assert items[0]["name"] == name, items
    assert urljoin(catalog["students_url"], items[0]["self_url"]) == url, items
    plain, _ = listing(session, catalog["students_url"], filter=f"name,eq,{name}")
    assert [urljoin(catalog["students_url"], u) for u in plain] == [url], plain


def test_08_put_edits_the_student(session, catalog):
    # README Student Resource: "supports `GET`, `POST`, `PUT` and `DELETE` methods to retrieve,
    # create, edit and delete respectively"
    tag = uid()
    url = create(session, catalog["students_url"], f"pu{tag}")
    ok(session.put(url, json={"name": f"pu{tag}new"}, timeout=10))
    assert get(session, url)["name"] == f"pu{tag}new"
    assert find_by_name(session, catalog["students_url"], f"pu{tag}new") == url


def test_09_student_registrations_are_that_students(session, catalog):
    # README Student Resource: "A `GET` request to the URL given in the `registrations_url` field
    # returns the collection of class registrations for the student."
    tag = uid()
    s1 = create(session, catalog["students_url"], f"rs{tag}1")
    s2 = create(session, catalog["students_url"], f"rs{tag}2")
    c = create(session, catalog["classes_url"], f"rc{tag}")
    ok(session.post(catalog["registrations_url"], json={"student_url": s1, "class_url": c},
                    timeout=10))
    regs1_url = urljoin(s1, get(session, s1)["registrations_url"])
    regs2_url = urljoin(s2, get(session, s2)["registrations_url"])
    regs2, meta2 = listing(session, regs2_url)
    assert regs2 == [] and meta2["total"] == 0, (regs2, meta2)
    regs1, meta1 = listing(session, regs1_url)
    assert len(regs1) == 1 and meta1["total"] == 1, (regs1, meta1)
    reg = get(session, urljoin(regs1_url, regs1[0]))
    assert urljoin(s1, reg["student_url"]) == s1, reg
    assert urljoin(c, reg["class_url"]) == c, reg


def test_10_unauthenticated_gets_401_with_token_location(base_url):
    # README Authentication: "When the client sends a request to the API without authenticating,
    # a response with status code 401 is returned. The `Location` header in this response is set
    # to the token request URL. To obtain a token, the client must send a `POST` request to this
    # URL with valid username and password in a HTTP basic authentication header. The response
    # to this request will include a token"
    r = requests.get(base_url + "/", timeout=10)
    if r.status_code == 200:  # the README leaves open whether the root catalog needs auth
        collection = next(iter(r.json()["versions"]["v1"].values()))
        r = requests.get(urljoin(base_url + "/", collection), timeout=10)
    assert r.status_code == 401, (r.status_code, r.text)
    location = r.headers.get("Location")
    assert location, dict(r.headers)
    t = requests.post(urljoin(base_url + "/", location), auth=(USERNAME, PASSWORD), timeout=10)
    assert 200 <= t.status_code < 300, (t.status_code, t.text)
    assert find_token(t.json()), t.text
