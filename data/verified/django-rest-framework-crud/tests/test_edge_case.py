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


def test_get_movy_unknown_id_is_a_client_error(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        known = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= known.status_code < 300, known.text
        assert id_of_record(record_in(known.json()), "movy") == movy_id
        unknown_movie_id = 999999999
        response = session.get(f"{base_url}/api/v1/movies/{unknown_movie_id}/", allow_redirects=False, headers=auth_headers)
        assert 400 <= response.status_code < 500, response.text
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)


def test_list_movies_page_size_and_page_split_the_list(base_url, session, unique, auth_headers):
    created = []
    try:
        rec0_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec0_created = session.post(f"{base_url}/api/v1/movies/", json=rec0_payload, headers=auth_headers)
        assert 200 <= rec0_created.status_code < 300, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec1_created = session.post(f"{base_url}/api/v1/movies/", json=rec1_payload, headers=auth_headers)
        assert 200 <= rec1_created.status_code < 300, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        first = session.get(f"{base_url}/api/v1/movies/", params={"page_size": 1, "page": 1}, headers=auth_headers)
        assert 200 <= first.status_code < 300, first.text
        first_body = first.json()
        second = session.get(f"{base_url}/api/v1/movies/", params={"page_size": 1, "page": 2}, headers=auth_headers)
        assert 200 <= second.status_code < 300, second.text
        second_body = second.json()
        unpaged = session.get(f"{base_url}/api/v1/movies/", params={"page_size": 1}, headers=auth_headers)
        assert 200 <= unpaged.status_code < 300, unpaged.text
        unpaged_body = unpaged.json()
        assert len(records_in(first_body)) == 1 and len(records_in(second_body)) == 1
        assert [record["id"] for record in records_in(first_body)] != [record["id"] for record in records_in(second_body)]
        assert [record["id"] for record in records_in(unpaged_body)] == [record["id"] for record in records_in(first_body)]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)


def test_list_movies_pages_split_created_movys(base_url, session, unique, auth_headers):
    created = []
    try:
        marker = unique("Ant Man and The Wasp")
        rec0_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec0_payload["title"] = marker
        rec0_created = session.post(f"{base_url}/api/v1/movies/", json=rec0_payload, headers=auth_headers)
        assert 200 <= rec0_created.status_code < 300, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec1_payload["title"] = marker
        rec1_created = session.post(f"{base_url}/api/v1/movies/", json=rec1_payload, headers=auth_headers)
        assert 200 <= rec1_created.status_code < 300, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        rec2_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec2_payload["title"] = marker
        rec2_created = session.post(f"{base_url}/api/v1/movies/", json=rec2_payload, headers=auth_headers)
        assert 200 <= rec2_created.status_code < 300, rec2_created.text
        rec2_id = rec2_created.json()["id"]
        created.append(rec2_id)
        page_one = session.get(f"{base_url}/api/v1/movies/", params={"title": marker, "page": 1, "page_size": 2}, headers=auth_headers)
        assert 200 <= page_one.status_code < 300, page_one.text
        page_two = session.get(f"{base_url}/api/v1/movies/", params={"title": marker, "page": 2, "page_size": 2}, headers=auth_headers)
        assert 200 <= page_two.status_code < 300, page_two.text
        first_ids = [record["id"] for record in [v for v in (page_one.json().values() if isinstance(page_one.json(), dict) else [page_one.json()]) if isinstance(v, list)][0]]
        second_ids = [record["id"] for record in [v for v in (page_two.json().values() if isinstance(page_two.json(), dict) else [page_two.json()]) if isinstance(v, list)][0]]
        assert len(first_ids) == 2 and len(second_ids) == 1
        assert sorted(first_ids + second_ids) == sorted([rec0_id, rec1_id, rec2_id])
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)
