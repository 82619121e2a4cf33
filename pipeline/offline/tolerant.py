"""Helpers a generated test uses where the document shows no answer, so it passes on every
implementation of the document and not only on the one it was checked against.

A README that shows requests and no answers leaves open where a service puts the record it
created (the answer itself, an envelope such as `{"employee": {...}}`, or only the list), how
a list wraps its records, and which key holds an id. The build learns whether the oracle's
answers let a test find its record at all (`shape.py`); the test itself then looks for the
record by what it sent, wherever the answer puts it. These functions are the generated
module's prelude (their source is copied into it, see `PRELUDE`) and the build's own check of
the oracle's answers, so the two cannot disagree. They use only the standard library.
"""

from __future__ import annotations

import inspect
import re


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


def token_in(answer):
    """The token a login answer hands out where the document does not name its field: a
    string under a key naming a token, an access or a key (a refresh token last), else a
    JWT-shaped string; inside a one-object envelope too."""
    if not isinstance(answer, dict):
        return None
    named = [k for k in answer if isinstance(answer[k], str) and answer[k]
             and re.search(r"token|access|^key$|jwt", str(k), re.I)
             and not re.search(r"type|expire", str(k), re.I)]
    named.sort(key=lambda k: "refresh" in str(k).lower())
    if named:
        return answer[named[0]]
    for value in answer.values():
        if isinstance(value, str) and re.fullmatch(r"eyJ[\w-]+\.[\w-]+\.[\w-]+", value):
            return value
    inner = [v for v in answer.values() if isinstance(v, dict)]
    return token_in(inner[0]) if len(inner) == 1 else None


def basic_auth(name, password):
    """HTTP Basic headers for an account the test made (its identifier and password)."""
    import base64

    pair = f"{name}:{password}".encode()
    return {"Authorization": "Basic " + base64.b64encode(pair).decode()}


def link_of(record, noun):
    """The id of the `noun` a record belongs to: `<noun>Id`, `<noun>_id`, or `<noun>` (its
    id, or the object holding it)."""
    if not isinstance(record, dict):
        return None
    for key in (f"{noun}Id", f"{noun}_id", f"{noun}ID", noun):
        value = record.get(key)
        if isinstance(value, dict):
            value = value.get("id")
        if isinstance(value, int | str) and not isinstance(value, bool):
            return value
    return None


def ids_listed(record):
    """The ids a record's lists name (str): of the records they hold (`"owers": [{"id": 22,
    ...}]`) or as plain ids (`[22, 23]`)."""
    out = set()
    for value in record.values() if isinstance(record, dict) else ():
        for item in value if isinstance(value, list) else ():
            found = id_of_record(item) if isinstance(item, dict) else item
            if isinstance(found, int | str) and not isinstance(found, bool):
                out.add(str(found))
    return out


def user_id_in(headers):
    """The signed-in user's id: the one sign-up or sign-in answered (the conftest keeps it on
    the headers), else the one a JSON Web Token in `headers` carries (`sub`, `user_id`,
    `id`, `identity`); None when neither says."""
    import base64
    import json

    if getattr(headers, "user_id", None) is not None:
        return headers.user_id
    for value in (headers or {}).values():
        token = str(value).split()[-1] if str(value).split() else ""
        parts = token.split(".")
        if len(parts) != 3:
            continue
        try:
            claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
        except ValueError:
            continue
        for key in ("sub", "user_id", "userId", "uid", "id", "identity"):
            if isinstance(claims, dict) and isinstance(claims.get(key), int | str):
                return claims[key]
    return None


HELPERS = (id_of_record, record_in, records_in, record_holding, created_record, verb_forms,
           state_of)
PRELUDE = "\n\n".join(inspect.getsource(f) for f in HELPERS)
CALLS = re.compile(r"\b(?:" + "|".join(f.__name__ for f in HELPERS) + r")\(")


def prelude_for(code: str) -> str:
    """The helpers a generated test calls, as source: the record helpers together, the token
    finder after them (a module keeps the longest prelude that holds the others)."""
    parts = [PRELUDE] if CALLS.search(code) or re.search(r"\bids_listed\(", code) else []
    if re.search(r"\btoken_in\(", code):
        parts.append(inspect.getsource(token_in))
    if re.search(r"\blink_of\(", code):
        parts.append(inspect.getsource(link_of))
    if re.search(r"\buser_id_in\(", code):
        parts.append(inspect.getsource(user_id_in))
    if re.search(r"\bids_listed\(", code):
        parts.append(inspect.getsource(ids_listed))
    if re.search(r"\bbasic_auth\(", code):
        parts.append(inspect.getsource(basic_auth))
    return "\n\n".join(parts)
