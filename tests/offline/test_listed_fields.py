"""A definition-list document that names each body only by its fields ("Arguments: `heading`,
`body`, `writer`"), with no example, no types and no status codes, over a service that wraps
every answer in `{"ok": true, "data": ...}` and names the record `{note}` in its paths: the
listed fields become the request body (plain text values), the id is found where the oracle
put it, and the suite catches a lost update, a lost delete, and a nested list that ignores
its parent."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.offline.gen_model import build_model
from pipeline.offline.payloads import payload_of
from pipeline.records import Endpoint, Param
from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Field notes

    A note has a heading, a body and the name of its writer; tags label a note.

    `GET /api`
      List notes.

    `POST /api`
      Add a note. Arguments: `heading`, `body`, `writer`.

    `GET /api/{note}`
      Fetch a note.

    `PATCH /api/{note}`
      Edit a note. Arguments: `heading`, `body`.

    `DELETE /api/{note}`
      Delete a note.

    `GET /api/{note}/tags`
      The note's tags.

    `POST /api/{note}/tags`
      Tag the note. Arguments: `label`.

    `GET /api/{note}/tags/{tag_id}`
      One tag of the note.
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    NOTES, TAGS = {}, {}
    SAVE_EDIT = True
    FORGET = True
    SCOPED = True

    class H(BaseHTTPRequestHandler):
        def ok(self, data, status=200):
            self.reply(status, {"ok": True, "data": data})

        def do_POST(self):
            data = self.body()
            if not isinstance(data, dict):
                return self.reply(400, {"ok": False})
            if self.path == "/api":
                if not all(isinstance(data.get(k), str) for k in ("heading", "body", "writer")):
                    return self.reply(400, {"ok": False})
                nid = max(NOTES, default=0) + 1
                NOTES[nid] = {"id": nid, **{k: data[k] for k in ("heading", "body", "writer")}}
                return self.ok(NOTES[nid])
            m = re.fullmatch(r"/api/(\\d+)/tags", self.path)
            if not m or int(m.group(1)) not in NOTES or not isinstance(data.get("label"), str):
                return self.reply(404, {"ok": False})
            tid = max(TAGS, default=0) + 1
            TAGS[tid] = {"id": tid, "note": int(m.group(1)), "label": data["label"]}
            self.ok(TAGS[tid])

        def do_GET(self):
            if self.path == "/api":
                return self.ok(list(NOTES.values()))
            m = re.fullmatch(r"/api/(\\d+)(/tags)?(?:/(\\d+))?", self.path)
            if not m or int(m.group(1)) not in NOTES:
                return self.reply(404, {"ok": False})
            nid = int(m.group(1))
            if not m.group(2):
                return self.ok(NOTES[nid])
            mine = [t for t in TAGS.values() if t["note"] == nid or not SCOPED]
            if m.group(3) is None:
                return self.ok(mine)
            found = [t for t in mine if t["id"] == int(m.group(3))]
            return self.ok(found[0]) if found else self.reply(404, {"ok": False})

        def do_PATCH(self):
            m = re.fullmatch(r"/api/(\\d+)", self.path)
            data = self.body()
            if not m or int(m.group(1)) not in NOTES or not isinstance(data, dict):
                return self.reply(404, {"ok": False})
            note = dict(NOTES[int(m.group(1))])
            note.update({k: data[k] for k in ("heading", "body") if k in data})
            if SAVE_EDIT:
                NOTES[note["id"]] = note
            self.ok(note)

        def do_DELETE(self):
            m = re.fullmatch(r"/api/(\\d+)", self.path)
            if not m or int(m.group(1)) not in NOTES:
                return self.reply(404, {"ok": False})
            if FORGET:
                del NOTES[int(m.group(1))]
            self.ok({"id": int(m.group(1))})

    """) + SERVE_JSON


def test_listed_arguments_are_the_body_and_the_record_is_named_by_its_param() -> None:
    spec = extract_spec(README)
    by = {(e.method, e.path): e for e in spec.endpoints}
    add = by[("POST", "/api")]
    assert [(p.name, p.location) for p in add.params] == [
        ("heading", "body"), ("body", "body"), ("writer", "body")]
    assert payload_of(add) == {"heading": "Sample heading", "body": "Sample body",
                               "writer": "Sample writer"}
    assert [r.noun for r in build_model(spec).resources] == ["note", "tag"]


def test_listed_fields_make_a_body_only_where_text_is_safe() -> None:
    def post(*params: Param) -> Endpoint:
        return Endpoint(method="POST", path="/things", params=list(params))

    assert payload_of(post(Param(name="title", location="body"),
                           Param(name="expires_in_days", location="body"))) is None
    assert payload_of(post(Param(name="file", location="body", required=True))) is None
    assert payload_of(post(Param(name="code", location="body", type="string",
                                 constraints={"maxLength": 4}))) == {"code": "Samp"}
    assert payload_of(post(Param(name="kind", location="body",
                                 constraints={"enum": ["a", "b"]}))) == {"kind": "a"}
    # a field the document marks optional is not sent when none is marked required
    assert payload_of(post(Param(name="note", location="body", required=False))) is None


def test_the_suite_catches_lost_edits_lost_deletes_and_an_unscoped_nested_list(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "field-notes", README, SERVER,
        {"edit lost": ("SAVE_EDIT = True", "SAVE_EDIT = False"),
         "delete lost": ("FORGET = True", "FORGET = False"),
         "tags unscoped": ("SCOPED = True", "SCOPED = False")})
    assert outcomes["good"] and set(outcomes["good"].values()) == {"passed"}
    for variant in ("edit lost", "delete lost"):
        assert "failed" in outcomes[variant].values(), variant
    scoped = "test_tags_listed_under_their_own_note"
    assert outcomes["tags unscoped"][scoped] == "failed"
    assert outcomes["edit lost"][scoped] == "passed"
