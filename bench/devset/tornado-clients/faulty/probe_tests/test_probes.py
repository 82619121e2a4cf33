"""Targeted black-box probes, one per faulty variant in ../NN-*.patch (see ../FAULTS.md).

The README gives an endpoint table (GET/POST /api/v1/client, GET/PUT/DELETE
/api/v1/client/([0-9]*)) and the Client model {"oid", "name", "email", "birth_date": "date"}.
The probes assert only that: the client sends a full Client (its own numeric `oid`, as the
path pattern requires), reads Clients back, and finds them by `oid`. Left open and accepted:
every status code (none is documented; success = any 2xx), extra fields (e.g. `status`), error
bodies, the order of the list, and what the collection holds besides the probe's own clients
(the state is shared, so each probe uses fresh random oids).
"""
import random

import requests

TIMEOUT = 15


def ok(r):
    return 200 <= r.status_code < 300


def new_oid():
    return str(random.randint(10**8, 10**9 - 1))


def client_body(oid=None, name="Ana Souza", email="ana@example.com", birth_date="1990-05-01"):
    return {"oid": oid or new_oid(), "name": name, "email": email, "birth_date": birth_date}


def url(base_url, oid=None):
    u = f"{base_url}/api/v1/client"
    return u if oid is None else f"{u}/{oid}"


def create(base_url, **kw):
    body = client_body(**kw)
    r = requests.post(url(base_url), json=body, timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    return body


def get_one(base_url, oid):
    r = requests.get(url(base_url, oid), timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    data = r.json()
    assert isinstance(data, dict), data
    return data


def list_all(base_url):
    r = requests.get(url(base_url), timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    data = r.json()
    assert isinstance(data, list), data
    return data


def oids(clients):
    return {c.get("oid") for c in clients}


def test_01_created_client_is_stored(base_url):
    # README: POST /api/v1/client -> Client; GET /api/v1/client/([0-9]*) -> Client
    body = create(base_url, name="Stored Client")
    got = get_one(base_url, body["oid"])
    assert got.get("oid") == body["oid"] and got.get("name") == "Stored Client", got
    assert body["oid"] in oids(list_all(base_url))


def test_02_get_by_oid_returns_that_client(base_url):
    # README: GET /api/v1/client/([0-9]*) -> Ref Client (the client with that id)
    a = create(base_url, name="First Of Two")
    b = create(base_url, name="Second Of Two")
    got = get_one(base_url, b["oid"])
    assert got.get("oid") == b["oid"], got
    assert got.get("name") == "Second Of Two", got
    got = get_one(base_url, a["oid"])
    assert got.get("name") == "First Of Two", got


def test_03_client_has_email(base_url):
    # README model: Client {"oid", "name", "email", "birth_date"}
    body = create(base_url, email="mail-check@example.com")
    got = get_one(base_url, body["oid"])
    assert got.get("email") == "mail-check@example.com", got


def test_04_birth_date_is_a_date(base_url):
    # README model: "birth_date": "date"
    body = create(base_url, birth_date="1987-11-23")
    got = get_one(base_url, body["oid"])
    assert got.get("birth_date") == "1987-11-23", got


def test_05_put_updates_stored_client(base_url):
    # README: PUT /api/v1/client/([0-9]*) with a Client body
    body = create(base_url, name="Before Put")
    upd = client_body(oid=body["oid"], name="After Put", email=body["email"], birth_date=body["birth_date"])
    r = requests.put(url(base_url, body["oid"]), json=upd, timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    got = get_one(base_url, body["oid"])
    assert got.get("name") == "After Put", got


def test_06_put_updates_email(base_url):
    # README: PUT /api/v1/client/([0-9]*) with a Client body (email is a Client field)
    body = create(base_url, email="old@example.com")
    upd = client_body(oid=body["oid"], name=body["name"], email="new@example.com", birth_date=body["birth_date"])
    r = requests.put(url(base_url, body["oid"]), json=upd, timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    got = get_one(base_url, body["oid"])
    assert got.get("email") == "new@example.com", got


def test_07_delete_removes_client(base_url):
    # README: DELETE /api/v1/client/([0-9]*)
    body = create(base_url, name="To Delete")
    r = requests.delete(url(base_url, body["oid"]), timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    assert body["oid"] not in oids(list_all(base_url))
    r = requests.get(url(base_url, body["oid"]), timeout=TIMEOUT)
    assert not ok(r), (r.status_code, r.text)


def test_08_delete_keeps_other_clients(base_url):
    # README: DELETE /api/v1/client/([0-9]*) deletes that one client
    gone = create(base_url, name="Deleted One")
    kept = create(base_url, name="Kept One")
    r = requests.delete(url(base_url, gone["oid"]), timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    assert kept["oid"] in oids(list_all(base_url))
    assert get_one(base_url, kept["oid"]).get("name") == "Kept One"


def test_09_list_returns_every_client(base_url):
    # README: GET /api/v1/client -> Array Client (no paging documented)
    made = [create(base_url, name=f"Bulk {i}")["oid"] for i in range(12)]
    listed = oids(list_all(base_url))
    missing = [o for o in made if o not in listed]
    assert not missing, missing


def test_10_client_field_is_oid(base_url):
    # README model: Client {"oid": "string", ...}
    body = create(base_url)
    r = requests.get(url(base_url), timeout=TIMEOUT)
    assert ok(r)
    assert body["oid"] in oids(r.json()), r.text[:300]
    assert get_one(base_url, body["oid"]).get("oid") == body["oid"]
