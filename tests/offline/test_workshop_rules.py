"""A numbered-list document ("2. List Workshops (Upcoming)" over "- GET /workshops/") with
sign-ups under a record with a capacity, where one refusal code has two reasons ("400 if
already enrolled", "400 if the workshop is full"): the item titles are the summaries, both
reasons are kept, "limit (default: 10)" under "Query Params:" is a parameter, and the generated
suite passes on the service and catches a repeated sign-up let in, a capacity checked one too
late, a full workshop answered 409, past workshops listed as upcoming, and a `Location` header
that names another workshop."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Workshops

    1. Create Workshop
        - POST /workshops/
        - Payload: {"title": "Pottery", "room": "B2", "seats": 12,
                    "starts": "2024-03-01T09:00:00Z"}
        - The `Location` header of the answer names the new workshop.

    2. List Workshops (Upcoming)
        - GET /workshops/
        - Query Params:
            - limit (default: 10)
        - Response: [{"id": 1, "title": "Pottery", "room": "B2", "seats": 12,
                      "starts": "2024-03-01T09:00:00Z"}]

    3. Get Workshop
        - GET /workshops/{workshop_id}

    4. Enrol
        - POST /workshops/{workshop_id}/enrol
        - Payload: {"name": "Ada", "email": "ada@example.com"}
        - Error Scenarios:
            - 400 if already enrolled
            - 400 if the workshop is full
            - 404 if the workshop does not exist
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from urllib.parse import parse_qs
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    WORKSHOPS = {}
    FULL_STATUS = 400
    CHECK_TWICE = True
    LIST_PAST = False
    LOCATED = None  # a fixed record in the Location header
    NOW = "2026-01-01T00:00:00Z"  # ISO strings in one zone compare as times

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            data = self.body()
            if not isinstance(data, dict):
                return self.reply(400, {"detail": "bad body"})
            if self.path == "/workshops/":
                wid = len(WORKSHOPS) + 1
                WORKSHOPS[wid] = {"id": wid, **data, "enrolled": []}
                return self.reply(201, {k: v for k, v in WORKSHOPS[wid].items()
                                        if k != "enrolled"}, f"/workshops/{LOCATED or wid}")
            m = re.fullmatch(r"/workshops/(\\d+)/enrol", self.path)
            if not m or int(m.group(1)) not in WORKSHOPS:
                return self.reply(404, {"detail": "no such workshop"})
            w = WORKSHOPS[int(m.group(1))]
            if CHECK_TWICE and data.get("email") in [e["email"] for e in w["enrolled"]]:
                return self.reply(400, {"detail": "already enrolled"})
            if len(w["enrolled"]) >= w["seats"]:
                return self.reply(FULL_STATUS, {"detail": "full"})
            w["enrolled"].append(data)
            self.reply(201, data)

        def do_GET(self):
            path, _, query = self.path.partition("?")
            if path == "/workshops/":
                limit = int(parse_qs(query).get("limit", ["10"])[0])
                return self.reply(200, [{k: v for k, v in w.items() if k != "enrolled"}
                                        for w in WORKSHOPS.values()
                                        if w["starts"] > NOW or LIST_PAST][:limit])
            m = re.fullmatch(r"/workshops/(\\d+)", self.path)
            if not m or int(m.group(1)) not in WORKSHOPS:
                return self.reply(404, {"detail": "no such workshop"})
            w = WORKSHOPS[int(m.group(1))]
            self.reply(200, {**{k: v for k, v in w.items() if k != "enrolled"},
                             "enrolled": len(w["enrolled"])})

        def do_DELETE(self):
            self.reply(405, {"detail": "not allowed"})

    """) + SERVE_JSON


def test_titles_reasons_and_defaulted_params_are_read() -> None:
    by = {(e.method, e.path): e for e in extract_spec(README).endpoints}
    enrol = by[("POST", "/workshops/{workshop_id}/enrol")]
    assert enrol.status_codes[400] == "if already enrolled; if the workshop is full"
    assert enrol.summary == "Enrol"
    assert by[("POST", "/workshops/")].location_header
    assert "location_header" not in enrol.model_dump()
    listing = by[("GET", "/workshops/")]
    assert listing.summary == "List Workshops (Upcoming)"
    assert [(p.name, p.location, p.constraints) for p in listing.params] == [
        ("limit", "query", {"default": 10})]


def test_the_suite_catches_a_repeat_a_late_capacity_a_409_and_past_ones_listed(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "workshops", README, SERVER,
        {"repeat let in": ("CHECK_TWICE = True", "CHECK_TWICE = False"),
         "one too many": ('len(w["enrolled"]) >= w["seats"]', 'len(w["enrolled"]) > w["seats"]'),
         "full is 409": ("FULL_STATUS = 400", "FULL_STATUS = 409"),
         "past listed": ("LIST_PAST = False", "LIST_PAST = True"),
         "first located": ("LOCATED = None", "LOCATED = 1")})
    assert {n for n, o in outcomes["good"].items() if o != "passed"} == set()
    twice = "test_post_workshop_enrol_twice_returns_400"
    full = "test_post_workshop_enrol_beyond_seats_returns_400"
    assert outcomes["repeat let in"][twice] == "failed"
    assert outcomes["one too many"][full] == "failed"
    assert outcomes["full is 409"][full] == "failed"
    assert outcomes["full is 409"][twice] == "passed"
    upcoming = "test_list_workshops_upcoming_shows_a_future_workshop_not_a_past_one"
    assert outcomes["past listed"][upcoming] == "failed"
    assert outcomes["full is 409"][upcoming] == "passed"
    located = "test_create_workshop_location_header_names_the_new_workshop"
    assert outcomes["first located"][located] == "failed"
    assert outcomes["past listed"][located] == "passed"
