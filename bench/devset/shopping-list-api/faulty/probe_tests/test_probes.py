"""Probe tests for shopping-list-api: one targeted black-box check per faulty variant.

Only what README.md states is asserted: the endpoint table (paths, methods, "Requires Token")
and the appended Swagger document (request fields, response fields, the 201/202 codes where the
document and the code agree). Bodies are sent as JSON; the token from /auth/login is sent as
"Authorization: Bearer <token>". Every probe registers its own user and uses titles unique to
the run, so the probes do not depend on each other or on ids. Titles are long alphabetic
strings, so they pass any length/format check an implementation may have.
"""
import os
import uuid

import requests

BASE = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9210").rstrip("/")
PWD = "probe-secret-pass"
T = 15


def uniq(prefix):
    return "{} {}".format(prefix, uuid.uuid4().hex[:10].translate(str.maketrans("0123456789", "ghijklmnop")))


def new_user():
    """Registers and logs in a fresh user; returns (auth headers, user id from the login answer)."""
    email = uniq("probe").replace(" ", "") + "@example.com"
    r = requests.post(BASE + "/auth/register", json={
        "username": "Probe User", "email": email,
        "password": PWD, "confirm_password": PWD}, timeout=T)
    assert r.status_code in (200, 201), r.text
    r = requests.post(BASE + "/auth/login", json={"email": email, "password": PWD}, timeout=T)
    assert r.status_code in (200, 201), r.text
    body = r.json()
    assert body.get("token"), r.text
    return {"Authorization": "Bearer " + body["token"]}, body.get("id"), email


def create_list(h, title=None, description=None):
    title = title or uniq("Weekend groceries")
    description = description or uniq("Things for the weekend")
    r = requests.post(BASE + "/shoppinglists", json={"title": title, "description": description},
                      headers=h, timeout=T)
    assert r.status_code == 201, r.text
    return r.json()["id"], title, description


def create_item(h, list_id, title=None, description=None):
    title = title or uniq("Fresh vegetables")
    description = description or uniq("Carrots and cabbages")
    r = requests.post(BASE + "/shoppinglist/{}/items".format(list_id),
                      json={"item_title": title, "item_description": description},
                      headers=h, timeout=T)
    assert r.status_code in (200, 201), r.text
    return r.json()["item_id"], title, description


def list_items_text(h, list_id):
    r = requests.get(BASE + "/shoppinglist/{}/items".format(list_id), headers=h, timeout=T)
    return r.text


def get_item(h, list_id, item_id):
    return requests.get(BASE + "/shoppinglist/{}/item/{}".format(list_id, item_id), headers=h, timeout=T)


def test_01_items_listing_shows_only_that_lists_items():
    # README: "/shoppinglist/<list_id>/items | GET | User list items in a shoppinglist"
    h, _, _ = new_user()
    a, _, _ = create_list(h)
    b, _, _ = create_list(h)
    _, title_a, _ = create_item(h, a)
    _, title_b, _ = create_item(h, b)
    text_a = list_items_text(h, a)
    assert title_a in text_a
    assert title_b not in text_a


def test_02_item_is_created_in_the_list_of_the_url():
    # README: "/shoppinglist/<list_id>/items | POST | User create item in shoppinglist"
    h, _, _ = new_user()
    for _ in range(2):  # two lists: at most one of them can share its id with the user's id
        list_id, _, _ = create_list(h)
        _, title, _ = create_item(h, list_id)
        assert title in list_items_text(h, list_id)


def test_03_list_update_saves_description():
    # README: "/shoppinglist/<list_id> | PUT | User Edit a single shoppinglist" (fields title, description)
    h, _, _ = new_user()
    list_id, _, _ = create_list(h)
    new_title, new_desc = uniq("Birthday party shopping"), uniq("Cake candles and balloons")
    r = requests.put(BASE + "/shoppinglist/{}".format(list_id),
                     json={"title": new_title, "description": new_desc}, headers=h, timeout=T)
    assert r.status_code in (200, 201), r.text
    r = requests.get(BASE + "/shoppinglist/{}".format(list_id), headers=h, timeout=T)
    assert r.status_code == 201, r.text
    assert r.json()["title"] == new_title
    assert r.json()["description"] == new_desc


def test_04_item_update_is_persisted():
    # README: "/shoppinglist/<list_id>/item/<item_id> | PUT | User Edit an item in a shoppinglist"
    h, _, _ = new_user()
    list_id, _, _ = create_list(h)
    item_id, _, _ = create_item(h, list_id)
    new_title, new_desc = uniq("Basic drinks"), uniq("Big bottles of sprite")
    r = requests.put(BASE + "/shoppinglist/{}/item/{}".format(list_id, item_id),
                     json={"item_title": new_title, "item_description": new_desc}, headers=h, timeout=T)
    assert r.status_code in (200, 201), r.text
    r = get_item(h, list_id, item_id)
    assert r.status_code == 201, r.text
    assert r.json()["item_title"] == new_title
    assert r.json()["item_description"] == new_desc


def test_05_deleted_list_is_gone():
    # README: "/shoppinglist/<list_id> | DELETE | User Delete a single shoppinglist"
    h, _, _ = new_user()
    list_id, title, _ = create_list(h)
    r = requests.delete(BASE + "/shoppinglist/{}".format(list_id), headers=h, timeout=T)
    assert r.status_code == 201, r.text
    r = requests.get(BASE + "/shoppinglist/{}".format(list_id), headers=h, timeout=T)
    assert title not in r.text
    r = requests.get(BASE + "/shoppinglists", headers=h, timeout=T)
    assert title not in r.text


def test_06_item_view_is_scoped_to_its_list():
    # README: "/shoppinglist/<list_id>/item/<item_id> | GET | User view an item in a shoppinglist"
    h, _, _ = new_user()
    a, _, _ = create_list(h)
    b, _, _ = create_list(h)
    item_id, title, _ = create_item(h, a)
    assert get_item(h, a, item_id).json()["item_title"] == title
    r = get_item(h, b, item_id)  # the item is not in list b
    assert title not in r.text


def test_07_single_list_is_the_requested_one():
    # README: "/shoppinglist/<list_id> | GET | User view a single shoppinglist"
    h, _, _ = new_user()
    create_list(h)
    second, title, desc = create_list(h)
    r = requests.get(BASE + "/shoppinglist/{}".format(second), headers=h, timeout=T)
    assert r.status_code == 201, r.text
    assert r.json()["id"] == second
    assert r.json()["title"] == title
    assert r.json()["description"] == desc


def test_08_single_list_requires_token():
    # README: "/shoppinglist/<list_id> | GET | User view a single shoppinglist | TRUE" (Requires Token)
    h, _, _ = new_user()
    list_id, title, desc = create_list(h)
    r = requests.get(BASE + "/shoppinglist/{}".format(list_id), timeout=T)  # no Authorization header
    # the README gives no status for a missing token; the list must not be served
    assert title not in r.text and desc not in r.text


def test_09_login_rejects_wrong_password():
    # README: "/auth/login | POST | User Sign in"; Swagger: 202 "Invalid credentials"
    _, _, email = new_user()
    r = requests.post(BASE + "/auth/login", json={"email": email, "password": "not-the-password"}, timeout=T)
    assert r.status_code == 202, r.text
    assert not r.json().get("token")


def test_10_item_update_changes_the_addressed_item():
    # README: "/shoppinglist/<list_id>/item/<item_id> | PUT | User Edit an item in a shoppinglist"
    h, _, _ = new_user()
    list_id, _, _ = create_list(h)
    first_id, first_title, _ = create_item(h, list_id)
    second_id, _, _ = create_item(h, list_id)
    new_title = uniq("Renamed second item")
    r = requests.put(BASE + "/shoppinglist/{}/item/{}".format(list_id, second_id),
                     json={"item_title": new_title, "item_description": uniq("Updated description")},
                     headers=h, timeout=T)
    assert r.status_code in (200, 201), r.text
    assert get_item(h, list_id, first_id).json()["item_title"] == first_title
    assert get_item(h, list_id, second_id).json()["item_title"] == new_title
