"""A README in numbered prose: a list of workshops with an optional `?tz=Europe/Paris`
parameter (times stored in UTC, shown in the zone asked for), and participants who enrol
through `POST /workshops/{id}/enrol` and are listed in pages (`limit (default: 5)`,
`offset`). The suite enrols one participant more than a page holds and walks the pages, and
lists a workshop in two zones; it catches a wrong default page size, an ignored offset, an
ignored zone and an offset dropped instead of converted."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Workshops

    Times are stored in UTC and shown in the zone the caller asks for.

    ## API

    1. Create a workshop
        - POST /workshops
        - Payload: {
                        "title": "Pottery basics",
                        "starts_at": "2031-03-02T09:30:00+01:00",
                        "seats": 30
                    }

    2. List workshops
        - GET /workshops
        - Optional Query Param: ?tz=Europe/Paris

    3. Get a workshop
        - GET /workshops/{workshop_id}

    4. Enrol in a workshop
        - POST /workshops/{workshop_id}/enrol
        - Payload: {
                        "name": "Ada",
                        "email": "ada@example.org"
                    }

    5. List participants
        - GET /workshops/{workshop_id}/participants
        - Query Params:
            - limit (default: 5)
            - offset (default: 0)
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from datetime import datetime, timezone
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlsplit
    from zoneinfo import ZoneInfo

    SHOPS, PEOPLE = {}, {}
    DEFAULT_LIMIT = 5
    USE_OFFSET = True
    USE_ZONE = True
    CONVERT = True

    class H(BaseHTTPRequestHandler):
        def route(self, method):
            url = urlsplit(self.path)
            path, query = url.path, {k: v[0] for k, v in parse_qs(url.query).items()}
            if path == "/workshops" and method == "POST":
                body = self.body() or {}
                start = datetime.fromisoformat(body["starts_at"])
                start = start.astimezone(timezone.utc) if CONVERT else \\
                    start.replace(tzinfo=timezone.utc)
                new = len(SHOPS) + 1
                SHOPS[new] = {"id": new, "title": body["title"], "starts_at": start,
                              "seats": body["seats"]}
                PEOPLE[new] = []
                return self.reply(201, dict(SHOPS[new], starts_at=start.isoformat()))
            if path == "/workshops":
                zone = ZoneInfo(query.get("tz", "UTC") if USE_ZONE else "Asia/Tokyo")
                return self.reply(200, [dict(s, starts_at=s["starts_at"].astimezone(zone)
                                             .isoformat()) for s in SHOPS.values()])
            m = re.fullmatch(r"/workshops/(\\d+)", path)
            if m:
                shop = SHOPS.get(int(m.group(1)))
                return self.reply(200, dict(shop, starts_at=shop["starts_at"].isoformat())) \\
                    if shop else self.reply(404, {"detail": "no such workshop"})
            m = re.fullmatch(r"/workshops/(\\d+)/(enrol|participants)", path)
            if not m or int(m.group(1)) not in SHOPS:
                return self.reply(404, {"detail": "no such workshop"})
            people = PEOPLE[int(m.group(1))]
            if m.group(2) == "enrol" and method == "POST":
                body = self.body() or {}
                if any(p["email"] == body.get("email") for p in people):
                    return self.reply(400, {"detail": "already enrolled"})
                people.append({"id": len(people) + 1, "name": body.get("name"),
                               "email": body.get("email")})
                return self.reply(200, people[-1])
            limit = int(query.get("limit", DEFAULT_LIMIT))
            offset = int(query.get("offset", 0)) if USE_OFFSET else 0
            return self.reply(200, people[offset:offset + limit])

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")
    """) + SERVE_JSON


def test_a_query_string_after_a_parameter_label_is_read_as_parameters() -> None:
    listing = next(e for e in extract_spec(README).endpoints
                   if (e.method, e.path) == ("GET", "/workshops"))
    (tz,) = listing.params
    assert (tz.name, tz.location, tz.required) == ("tz", "query", False)
    assert tz.constraints == {"examples": ["Europe/Paris"]}


def test_pages_of_entries_and_times_in_a_zone(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "workshops", README, SERVER,
        {"default page of ten": ("DEFAULT_LIMIT = 5", "DEFAULT_LIMIT = 10"),
         "offset ignored": ("USE_OFFSET = True", "USE_OFFSET = False"),
         "zone ignored": ("USE_ZONE = True", "USE_ZONE = False"),
         "offset dropped": ("CONVERT = True", "CONVERT = False")})
    pages = "test_workshops_participants_pages_by_offset_hold_every_entry_once"
    zones = "test_list_workshops_shows_times_in_the_tz_asked"
    good = outcomes["good"]
    assert good.get(pages) == "passed" and good.get(zones) == "passed", good
    for variant in ("default page of ten", "offset ignored"):
        assert outcomes[variant][pages] == "failed", variant
        assert outcomes[variant][zones] == "passed", variant  # each rule has its own test
    for variant in ("zone ignored", "offset dropped"):
        assert outcomes[variant][zones] == "failed", variant
        assert outcomes[variant][pages] == "passed", variant
