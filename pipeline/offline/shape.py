"""Where a service puts what, learned from its answers to the document's own examples.

A README often shows requests and no answers. The build sends those example requests to the
running oracle first (`stages/observe.py`) and this module reads the answers: where the
created record sits (top level, `{"employee": {...}}`, `{"data": {...}}`), which key holds its
id, whether the create answer has the record at all, where a list keeps its records. Only
*where* comes from here; *what* a test asserts still comes from the document and the test's
own inputs. Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pipeline.offline.tolerant import id_of_record, record_holding, record_in, records_in
from pipeline.records import Observation

Path = tuple[str, ...]
_DEPTH = 2  # an envelope inside an envelope ({"data": {"items": [...]}}), no deeper


@dataclass(frozen=True)
class Shape:
    """One collection's observed answers, as far as a test needs them."""

    create_record: Path | None = None  # the created record in the create answer
    create_id: str | None = None  # its id key there (None: the create answer names no id)
    create_shows: bool = True  # the create answer shows the record's fields, not only its id
    match_keys: tuple[str, ...] = ()  # sent fields a stored record shows unchanged
    answer_found: bool = False  # `created_record` finds it in the create answer
    read_found: bool = False  # `record_in` finds it in the item answer
    listed_found: bool = False  # `records_in` of the list answer holds it
    list_paged: bool = False  # the list answer carries paging keys: a record may be elsewhere
    update_shows: bool = True  # the update answer shows the record (or was not observed)
    update_keys: tuple[str, ...] = ()  # sent update fields its answer's record shows unchanged
    record_types: tuple[tuple[str, str], ...] = ()  # the stored record's keys and JSON types
    create_bare: bool = False  # the create answers the new id alone (`35`, `"yay"`)


def at(body: Any, path: Path) -> Any:
    for key in path:
        if not isinstance(body, dict) or key not in body:
            return None
        body = body[key]
    return body


def holds(record: Any, sent: dict[str, Any]) -> list[str]:
    """The sent scalar fields `record` shows with the value sent."""
    if not isinstance(record, dict):
        return []
    return [k for k, v in sent.items() if isinstance(v, str | int | float | bool)
            and k in record and record[k] == v]


def _dicts(body: Any, path: Path = (), depth: int = 0) -> list[tuple[Path, Any]]:
    out = [(path, body)]
    if isinstance(body, dict) and depth < _DEPTH:
        for key, value in body.items():
            if isinstance(value, dict | list):
                out += _dicts(value, (*path, str(key)), depth + 1)
    return out


def _scalars(sent: dict[str, Any]) -> list[str]:
    return [k for k, v in sent.items() if isinstance(v, str | int | float | bool)]


def record_path(body: Any, sent: dict[str, Any]) -> Path | None:
    """Where the record holding most of what was sent sits (at least half of its fields)."""
    scalars = _scalars(sent)
    best: tuple[int, Path] | None = None
    for path, value in _dicts(body):
        if not isinstance(value, dict):
            continue
        n = len(holds(value, sent))
        if n and 2 * n >= len(scalars) and (best is None or n > best[0]):
            best = (n, path)
    return best[1] if best else None


_PAGING = re.compile(r"(?:^|[_-])(?:page|pages|pagination|total|count|next|prev|previous|"
                     r"offset|limit|cursor)|[a-z](?:Page|Count|Size|Total)")


def _paged(answer: Any) -> bool:
    """Does a list answer carry paging keys (at its top or in its envelope)?"""
    return any(isinstance(value, dict) and any(_PAGING.search(str(k)) for k in value)
               for _, value in _dicts(answer))


def id_key(record: Any, names: list[str]) -> str | None:
    if not isinstance(record, dict):
        return None
    return next((n for n in names if n in record and isinstance(record[n], int | str)
                 and not isinstance(record[n], bool)), None)


def id_names(param: str | None, noun: str) -> list[str]:
    """Keys a record's id goes by: the path parameter's name, `id`, `<noun>_id`, `_id`."""
    names = [param] if param else []
    return [*names, "id", f"{noun}_id", f"{noun}Id", "_id", "uuid"]


_ID_KEY = re.compile(r"(?:^|_)id$|[a-z]Id$")


def only_id(answer: Any, noun: str) -> str | None:
    """The one id-like key of an answer that reports a creation (`created_question_id`)
    rather than showing the record, when it names the noun or is the only one."""
    if not isinstance(answer, dict):
        return None
    keys = [k for k, v in answer.items() if _ID_KEY.search(str(k))
            and isinstance(v, int | str) and not isinstance(v, bool)]
    named = [k for k in keys if noun.lower() in str(k).lower()]
    return (named or keys)[0] if len(named or keys) == 1 else None


def find_id(answers: list[Any], sent: dict[str, Any], names: list[str]) -> Any:
    """The id of the record that holds `sent`, from a create or a list answer."""
    for body in answers:
        path = record_path(body, sent)
        key = id_key(at(body, path), names) if path is not None else None
        if key is not None:
            return at(body, path)[key]  # type: ignore[index]
        records = records_in(body)
        if path is None and not records and (only := only_id(body, "")):
            return body[only]
        for record in records:  # most of what was sent, not one shared reference
            if 2 * len(holds(record, sent)) >= max(len(_scalars(sent)), 1) \
                    and (key := id_key(record, names)) is not None:
                return record[key]
    return None


def shape_of(observed: list[Observation], collection: str, item: str | None,
             param: str | None, noun: str) -> Shape | None:
    """What one collection's answers let a test do, or None when nothing of it was observed.
    Where a test looks is `tolerant.py`'s; this says whether looking there finds the record."""
    mine = [o for o in observed if o.path in (collection, item) and 200 <= o.status < 300]
    create = next((o for o in mine if o.method == "POST" and o.path == collection
                   and isinstance(o.body, dict)), None)
    if create is None:
        return None
    sent: dict[str, Any] = create.body
    names = id_names(param, noun)
    create_record = record_path(create.answer, sent)
    create_id = id_key(at(create.answer, create_record), names) if create_record is not None \
        else None
    if create_record is None:  # `{"id": 7}`, `{"created_question_id": 7, "success": true}`
        create_id = id_key(create.answer, names) or only_id(create.answer, noun)
        create_record = () if create_id else None
    # the last list read: where a body was made from a listed record, the one after the create
    listing = next((o for o in reversed(mine) if o.method == "GET" and o.path == collection),
                   None)
    listed = [r for r in records_in(listing.answer) if isinstance(r, dict)
              and 2 * len(holds(r, sent)) >= max(len(_scalars(sent)), 1)
              and id_of_record(r, noun) is not None] if listing is not None else []
    read = next((o for o in mine if o.method == "GET" and o.path == item), None)
    stored = record_in(read.answer) if read is not None else None
    shown = record_holding(create.answer, {}, noun)
    record = listed[0] if listed else stored if holds(stored, sent) else shown
    keys = tuple(holds(record, sent))
    subset = {k: sent[k] for k in keys}
    update = next((o for o in mine if o.method in ("PUT", "PATCH") and o.path == item), None)
    return Shape(create_record=create_record, create_id=create_id,
                 create_bare=bare_id(create.answer),
                 create_shows=record_path(create.answer, sent) is not None,
                 match_keys=keys,
                 answer_found=bool(keys) and record_holding(create.answer, subset, noun)
                 is not None,
                 read_found=bool(keys) and holds(stored, subset) == list(keys)
                 and id_of_record(stored, noun) is not None,
                 listed_found=bool(listed) and bool(keys),
                 list_paged=listing is not None and _paged(listing.answer),
                 update_keys=_update_keys(update),
                 record_types=tuple((str(k), _type_name(v)) for k, v in record.items())
                 if isinstance(record, dict) else (),
                 update_shows=update is None or not isinstance(update.body, dict)
                 or not _scalars(update.body) or record_path(update.answer, update.body)
                 is not None)


def bare_id(answer: Any) -> bool:
    """Is the answer a bare id (a number or a short word), not a record or a message?"""
    if isinstance(answer, bool) or not isinstance(answer, int | str):
        return False
    return isinstance(answer, int) or (re.fullmatch(r"[\w.-]{1,64}", answer) is not None
                                       and not _STATUS_WORD.fullmatch(answer))


_STATUS_WORD = re.compile(r"ok|success|created|updated|deleted|done|true|false|null|none", re.I)


def _type_name(value: Any) -> str:
    for kind, name in ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
                       (list, "array"), (dict, "object")):
        if isinstance(value, kind):
            return name
    return "null"


def _update_keys(update: Observation | None) -> tuple[str, ...]:
    if update is None or not isinstance(update.body, dict):
        return ()
    path = record_path(update.answer, update.body)
    return tuple(holds(at(update.answer, path), update.body)) if path is not None else ()


def skeleton(answer: Any, sent: Any) -> Any:
    """An answer with each value the request did not send replaced by its type (`<integer>`):
    where things are, with no value a test could copy from one implementation, and the same
    text on every run (no ids, no timestamps)."""
    sent_values = {json.dumps(v, sort_keys=True) for v in (sent or {}).values()} \
        if isinstance(sent, dict) else set()
    if isinstance(answer, dict):
        return {k: skeleton(v, sent) for k, v in answer.items()}
    if isinstance(answer, list):
        return [skeleton(answer[0], sent)] if answer else []
    if json.dumps(answer, sort_keys=True) in sent_values:
        return answer
    kind = {bool: "boolean", int: "integer", float: "number", str: "string"}.get(type(answer))
    return f"<{kind}>" if kind else None


def sketch(observed: list[Observation]) -> list[str]:
    """One line per observation for a model's prompt: request, status, answer's skeleton."""
    out, so_far = [], {}
    for o in observed:
        so_far.update(o.body if isinstance(o.body, dict) else {})  # a read shows what was sent
        sent = f" {json.dumps(o.body, ensure_ascii=False)}" if o.body is not None else ""
        answer = json.dumps(skeleton(o.answer, so_far), ensure_ascii=False)
        out.append(f"{o.method} {re.sub(r'/[0-9]+(?=/|$)', '/<id>', o.sent_path)}{sent} -> "
                   f"{o.status} {answer}")
    return out
