"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def id_of_record(record, noun=""):
    """The id a record goes by: `id`, `<noun>_id`, else its one key named like an id."""
    if not isinstance(record, dict):
        return None
    for key in ("id", f"{noun}_id", f"{noun}Id", "_id"):
        if key in record and isinstance(record[key], int | str):
            return record[key]
    keys = [k for k in record if re.search(r"(?:^|_)id$|[a-z]Id$", str(k))
            and isinstance(record[k], int | str)]
    if len(keys) == 1:
        return record[keys[0]]
    # a hyperlinked record (`"url": ".../projects/11/"`, HAL's `_links.self.href`): the id
    # is the last segment of its link under the noun's collection
    links = record.get("_links")
    for link in (record.get("url"), record.get("href"), record.get("self"),
                 links.get("self") if isinstance(links, dict) else None):
        link = link.get("href") if isinstance(link, dict) else link
        found = re.search(rf"/{re.escape(noun)}[a-z]*/([^/?#]+)/?(?:[?#].*)?$", link, re.I) \
            if isinstance(link, str) and noun else None
        if found:
            return int(found.group(1)) if found.group(1).isdigit() else found.group(1)
    return None


def record_in(answer):
    """The record of an item answer: the answer, or the one object its envelope holds."""
    if isinstance(answer, dict) and id_of_record(answer) is None:
        inner = [v for v in answer.values() if isinstance(v, dict)]
        if len(inner) == 1:
            return inner[0]
    return answer


def records_in(answer):
    """The records of a list answer: the answer, or the one list of objects inside it."""
    todo = [answer]
    for _ in range(3):
        lists = [v for v in todo if isinstance(v, list)]
        if lists:
            return lists[0] if len(lists) == 1 else []
        todo = [v for d in todo if isinstance(d, dict) for v in d.values()]
    return []


def record_holding(answer, sent, noun=""):
    """The object in an answer that holds every value sent and an id (None: none does)."""
    todo = [answer]
    for _ in range(3):
        for value in todo:
            if isinstance(value, dict) and id_of_record(value, noun) is not None and all(
                    value.get(k) == v for k, v in sent.items()):
                return value
        todo = [v for d in todo if isinstance(d, dict) for v in d.values()]
    return None


def created_record(session, response, list_url, sent, noun=""):
    """The record a create made: from its answer when that shows it, else from the list."""
    try:
        record = record_holding(response.json(), sent, noun)
    except ValueError:
        record = None
    if record is None and list_url is not None:
        listed = session.get(list_url)
        assert 200 <= listed.status_code < 300, listed.text
        record = next((r for r in records_in(listed.json()) if isinstance(r, dict)
                       and all(r.get(k) == v for k, v in sent.items())), None)
    assert record is not None, f"the created record ({sent}) is in neither answer nor list"
    return record


def verb_forms(verb):
    """What a record calls the state an action `verb` sets: `complete` -> `completed`."""
    stem = verb.lower().replace("-", "_")
    forms = {stem, stem + "d", stem + "ed", stem + stem[-1:] + "ed"}  # pin -> pinned
    if stem.endswith("y"):
        forms.add(stem[:-1] + "ied")
    return forms


def state_of(record, verb):
    """Whether `record` shows the state the action `verb` sets: a boolean field named for it
    (`completed`, `is_completed`), else a status or state naming it (`"cancelled"`)."""
    forms = verb_forms(verb)
    for key, value in (record or {}).items():
        name = str(key).lower()
        name = name[3:] if name.startswith("is_") else name
        if name in forms and isinstance(value, bool):
            return value
    for key in ("status", "state"):
        if isinstance((record or {}).get(key), str):
            return record[key].lower() in forms
    return None


def test_delete_movies_then_read_and_delete_again_return_404(base_url, session, unique, auth_headers):
    created = []
    try:
        rec_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec_created = session.post(f"{base_url}/api/v1/movies/", json=rec_payload, headers=auth_headers)
        assert 200 <= rec_created.status_code < 300, rec_created.text
        rec_id = rec_created.json()["id"]
        created.append(rec_id)
        removed = session.delete(f"{base_url}/api/v1/movies/{rec_id}/", headers=auth_headers)
        assert 200 <= removed.status_code < 300, removed.text
        read = session.get(f"{base_url}/api/v1/movies/{rec_id}/", headers=auth_headers)
        assert read.status_code == 404, read.text
        again = session.delete(f"{base_url}/api/v1/movies/{rec_id}/", headers=auth_headers)
        assert again.status_code == 404, again.text
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)


def test_deleted_movy_leaves_the_movies_list(base_url, session, unique, auth_headers):
    created = []
    try:
        gone_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        gone_created = session.post(f"{base_url}/api/v1/movies/", json=gone_payload, headers=auth_headers)
        assert 200 <= gone_created.status_code < 300, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        kept_created = session.post(f"{base_url}/api/v1/movies/", json=kept_payload, headers=auth_headers)
        assert 200 <= kept_created.status_code < 300, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        before = session.get(f"{base_url}/api/v1/movies/", params={"page_size": 100}, headers=auth_headers)
        assert 200 <= before.status_code < 300, before.text
        before_body = before.json()
        assert gone_id in [record["id"] for record in records_in(before_body)] and kept_id in [record["id"] for record in records_in(before_body)]
        removed = session.delete(f"{base_url}/api/v1/movies/{gone_id}/", headers=auth_headers)
        assert 200 <= removed.status_code < 300, removed.text
        after = session.get(f"{base_url}/api/v1/movies/", params={"page_size": 100}, headers=auth_headers)
        assert 200 <= after.status_code < 300, after.text
        after_body = after.json()
        assert gone_id not in [record["id"] for record in records_in(after_body)]
        assert kept_id in [record["id"] for record in records_in(after_body)]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)


def test_movy_ids_are_not_reused_after_a_delete(base_url, session, unique, auth_headers):
    created = []
    try:
        gone_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        gone_created = session.post(f"{base_url}/api/v1/movies/", json=gone_payload, headers=auth_headers)
        assert 200 <= gone_created.status_code < 300, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        kept_created = session.post(f"{base_url}/api/v1/movies/", json=kept_payload, headers=auth_headers)
        assert 200 <= kept_created.status_code < 300, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        removed = session.delete(f"{base_url}/api/v1/movies/{gone_id}/", headers=auth_headers)
        assert 200 <= removed.status_code < 300, removed.text
        third_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        third_created = session.post(f"{base_url}/api/v1/movies/", json=third_payload, headers=auth_headers)
        assert 200 <= third_created.status_code < 300, third_created.text
        third_id = third_created.json()["id"]
        created.append(third_id)
        assert third_id != kept_id
        kept_read = session.get(f"{base_url}/api/v1/movies/{kept_id}/", headers=auth_headers)
        assert 200 <= kept_read.status_code < 300, kept_read.text
        kept_body = record_in(kept_read.json())
        assert kept_body["title"] == kept_payload["title"]
        assert kept_body["genre"] == kept_payload["genre"]
        assert kept_body["year"] == kept_payload["year"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)


def test_movy_lifecycle_create_read_update_delete(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        fetched = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= fetched.status_code < 300, fetched.text
        assert id_of_record(record_in(fetched.json()), "movy") == movy_id
        changes = {"title": unique("AntMan and The Wasp"), "genre": "Action", "year": 2018}
        updated = session.put(f"{base_url}/api/v1/movies/{movy_id}/", json=changes, headers=auth_headers)
        assert 200 <= updated.status_code < 300, updated.text
        reread = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= reread.status_code < 300, reread.text
        stored = record_in(reread.json())
        assert stored["title"] == changes["title"]
        assert stored["genre"] == changes["genre"]
        assert stored["year"] == changes["year"]
        deleted = session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= deleted.status_code < 300, deleted.text
        gone = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert gone.status_code >= 400 or id_of_record(record_in(gone.json()), "movy") != movy_id, gone.text
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)


def test_register_login_and_access_protected_endpoint(base_url, session, unique):
    credentials = {
        "email": unique("example@email.com"),
        "username": unique("PERSON123"),
        "password": "PASS@123",
        "password2": "PASS@123",
        "first_name": unique("first"),
        "last_name": unique("last"),
    }
    registered = session.post(f"{base_url}/api/v1/auth/register/", json=credentials)
    assert 200 <= registered.status_code < 300, registered.text
    assert credentials["password"] not in registered.text, registered.text
    login = session.post(f"{base_url}/api/v1/auth/token/", json={"username": credentials["username"], "password": credentials["password"]})
    assert 200 <= login.status_code < 300, login.text
    token = login.json()["access"]
    assert isinstance(token, str) and token
    headers = {"Authorization": f"Bearer {token}"}
    me = session.get(f"{base_url}/api/v1/movies/", headers=headers)
    assert 200 <= me.status_code < 300, me.text


def test_two_movys_read_back_each_as_itself(base_url, session, unique, auth_headers):
    created = []
    try:
        first_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        first_created = session.post(f"{base_url}/api/v1/movies/", json=first_payload, headers=auth_headers)
        assert 200 <= first_created.status_code < 300, first_created.text
        first_id = first_created.json()["id"]
        created.append(first_id)
        second_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        second_created = session.post(f"{base_url}/api/v1/movies/", json=second_payload, headers=auth_headers)
        assert 200 <= second_created.status_code < 300, second_created.text
        second_id = second_created.json()["id"]
        created.append(second_id)
        first_read = session.get(f"{base_url}/api/v1/movies/{first_id}/", headers=auth_headers)
        assert 200 <= first_read.status_code < 300, first_read.text
        first_read_body = record_in(first_read.json())
        assert id_of_record(first_read_body, "movy") == first_id
        assert first_read_body["title"] == first_payload["title"]
        assert first_read_body["genre"] == first_payload["genre"]
        assert first_read_body["year"] == first_payload["year"]
        second_read = session.get(f"{base_url}/api/v1/movies/{second_id}/", headers=auth_headers)
        assert 200 <= second_read.status_code < 300, second_read.text
        second_read_body = record_in(second_read.json())
        assert id_of_record(second_read_body, "movy") == second_id
        assert second_read_body["title"] == second_payload["title"]
        assert second_read_body["genre"] == second_payload["genre"]
        assert second_read_body["year"] == second_payload["year"]
        changes = {"title": unique("AntMan and The Wasp"), "genre": "Action", "year": 2018}
        updated = session.put(f"{base_url}/api/v1/movies/{second_id}/", json=changes, headers=auth_headers)
        assert 200 <= updated.status_code < 300, updated.text
        first_again = session.get(f"{base_url}/api/v1/movies/{first_id}/", headers=auth_headers)
        assert 200 <= first_again.status_code < 300, first_again.text
        first_again_body = record_in(first_again.json())
        assert id_of_record(first_again_body, "movy") == first_id
        second_again = session.get(f"{base_url}/api/v1/movies/{second_id}/", headers=auth_headers)
        assert 200 <= second_again.status_code < 300, second_again.text
        second_again_body = record_in(second_again.json())
        assert id_of_record(second_again_body, "movy") == second_id
        assert first_again_body["title"] == first_payload["title"]
        assert first_again_body["genre"] == first_payload["genre"]
        assert first_again_body["year"] == first_payload["year"]
        assert second_again_body["title"] == changes["title"]
        assert second_again_body["genre"] == changes["genre"]
        assert second_again_body["year"] == changes["year"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)
