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


def test_create_movy_succeeds_with_record(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        assert movy["title"] == payload["title"]
        assert movy["genre"] == payload["genre"]
        assert movy["year"] == payload["year"]
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)


def test_get_movy_returns_created_movy(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        fetched = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= fetched.status_code < 300, fetched.text
        body = record_in(fetched.json())
        assert id_of_record(body, "movy") == movy_id
        assert body["title"] == payload["title"]
        assert body["genre"] == payload["genre"]
        assert body["year"] == payload["year"]
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)


def test_list_movies_filtered_by_genre_returns_only_matching_movy(base_url, session, unique, auth_headers):
    created = []
    try:
        wanted = unique("Action")
        other = unique("Action")
        match_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        match_payload["genre"] = wanted
        match_created = session.post(f"{base_url}/api/v1/movies/", json=match_payload, headers=auth_headers)
        assert 200 <= match_created.status_code < 300, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        other_payload["genre"] = other
        other_created = session.post(f"{base_url}/api/v1/movies/", json=other_payload, headers=auth_headers)
        assert 200 <= other_created.status_code < 300, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        listed = session.get(f"{base_url}/api/v1/movies/", params={"genre": wanted}, headers=auth_headers)
        assert 200 <= listed.status_code < 300, listed.text
        assert [record["id"] for record in [v for v in (listed.json().values() if isinstance(listed.json(), dict) else [listed.json()]) if isinstance(v, list)][0]] == [match_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)


def test_list_movies_filtered_by_title_returns_only_matching_movy(base_url, session, unique, auth_headers):
    created = []
    try:
        wanted = unique("Ant Man and The Wasp")
        other = unique("Ant Man and The Wasp")
        match_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        match_payload["title"] = wanted
        match_created = session.post(f"{base_url}/api/v1/movies/", json=match_payload, headers=auth_headers)
        assert 200 <= match_created.status_code < 300, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        other_payload["title"] = other
        other_created = session.post(f"{base_url}/api/v1/movies/", json=other_payload, headers=auth_headers)
        assert 200 <= other_created.status_code < 300, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        listed = session.get(f"{base_url}/api/v1/movies/", params={"title": wanted}, headers=auth_headers)
        assert 200 <= listed.status_code < 300, listed.text
        assert [record["id"] for record in [v for v in (listed.json().values() if isinstance(listed.json(), dict) else [listed.json()]) if isinstance(v, list)][0]] == [match_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)


def test_patch_movy_applies_changes(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        changes = {"title": unique("AntMan and The Wasp")}
        updated = session.patch(f"{base_url}/api/v1/movies/{movy_id}/", json=changes, headers=auth_headers)
        assert 200 <= updated.status_code < 300, updated.text
        reread = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= reread.status_code < 300, reread.text
        stored = record_in(reread.json())
        assert stored["title"] == changes["title"]
        assert stored["genre"] == payload["genre"]
        assert stored["year"] == payload["year"]
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)


def test_put_movy_applies_changes(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        changes = {"title": unique("AntMan and The Wasp"), "genre": "Action", "year": 2018}
        updated = session.put(f"{base_url}/api/v1/movies/{movy_id}/", json=changes, headers=auth_headers)
        assert 200 <= updated.status_code < 300, updated.text
        reread = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= reread.status_code < 300, reread.text
        stored = record_in(reread.json())
        assert stored["title"] == changes["title"]
        assert stored["genre"] == changes["genre"]
        assert stored["year"] == changes["year"]
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
