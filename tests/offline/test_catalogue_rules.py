"""A README whose rules stand in a feature list and a parameter table with a "Default" column:
search "by title, notes, or link (case-insensitive)", "duplicate link detection", `limit`
default 4 "capped at 12", and no list answer shown (the oracle's answer tells where the
records are). The suite catches a search that skips a named field, a case-sensitive search,
a wrong default page size, a missing cap and a repeated link taken in."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Bookmarks

    ## Features

    - **Search** — find bookmarks by title, notes, or link (case-insensitive)
    - **Validation** — duplicate link detection
    - **Paging** — `skip` and `limit`

    ## Endpoints

    | Method | Endpoint | Description |
    |--------|----------|-------------|
    | `GET` | `/bookmarks` | List bookmarks (search + paging) |
    | `POST` | `/bookmarks` | Save a bookmark |
    | `GET` | `/bookmarks/{id}` | One bookmark |
    | `DELETE` | `/bookmarks/{id}` | Remove a bookmark |

    ### Query parameters (GET `/bookmarks`)

    | Param | Type | Default | Description |
    |-------|------|---------|-------------|
    | `q` | string | — | Find by title, notes, or link |
    | `skip` | int | 0 | Records to skip |
    | `limit` | int | 4 | Max records returned (capped at 12) |

    ### Save a bookmark

    ```bash
    curl -X POST http://localhost:8000/bookmarks \\
      -H "Content-Type: application/json" \\
      -d '{"title": "River maps", "notes": "Old survey sheets", "link": "https://maps.example.org"}'
    ```

    ```json
    {"id": 1, "title": "River maps", "notes": "Old survey sheets", "link": "https://maps.example.org"}
    ```
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlsplit

    MARKS = {}
    FIELDS = ("title", "notes", "link")
    FOLD = True
    DEFAULT_LIMIT = 4
    CAP = 12
    UNIQUE_LINK = True

    class H(BaseHTTPRequestHandler):
        def route(self, method):
            url = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            if url.path == "/bookmarks" and method == "POST":
                body = self.body() or {}
                if UNIQUE_LINK and any(m["link"] == body.get("link") for m in MARKS.values()):
                    return self.reply(400, {"detail": "link already saved"})
                new = max(MARKS, default=0) + 1
                MARKS[new] = {"id": new, **{k: body.get(k) for k in ("title", "notes", "link")}}
                return self.reply(201, MARKS[new])
            if url.path == "/bookmarks":
                rows = list(MARKS.values())
                if "q" in query:
                    fold = (lambda t: t.lower()) if FOLD else (lambda t: t)
                    rows = [r for r in rows if any(fold(query["q"]) in fold(r[k] or "")
                                                   for k in FIELDS)]
                limit = int(query.get("limit", DEFAULT_LIMIT))
                limit = min(limit, CAP) if CAP else limit
                skip = int(query.get("skip", 0))
                return self.reply(200, {"items": rows[skip:skip + limit], "count": len(rows)})
            m = re.fullmatch(r"/bookmarks/(\\d+)", url.path)
            found = MARKS.get(int(m.group(1))) if m else None
            if found is None:
                return self.reply(404, {"detail": "not found"})
            if method == "DELETE":
                del MARKS[found["id"]]
                return self.reply(204, {})
            return self.reply(200, found)

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")

        def do_DELETE(self):
            self.route("DELETE")
    """) + SERVE_JSON


def test_rules_from_the_feature_list_and_the_default_column() -> None:
    spec = extract_spec(README)
    listing = next(e for e in spec.endpoints if (e.method, e.path) == ("GET", "/bookmarks"))
    params = {p.name: p for p in listing.params}
    assert params["limit"].constraints == {"default": 4}
    assert params["skip"].constraints == {"default": 0}
    assert params["q"].constraints == {}  # a dash is no default
    assert params["q"].description.endswith("(case-insensitive)")
    create = next(e for e in spec.endpoints if (e.method, e.path) == ("POST", "/bookmarks"))
    unique = [p.name for p in create.params if p.constraints.get("x-unique")]
    assert unique == ["link"]


def test_the_suite_catches_each_stated_rule(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "bookmarks", README, SERVER,
        {"notes not searched": ('FIELDS = ("title", "notes", "link")',
                                'FIELDS = ("title", "link")'),
         "case-sensitive": ("FOLD = True", "FOLD = False"),
         "default of ten": ("DEFAULT_LIMIT = 4", "DEFAULT_LIMIT = 10"),
         "no cap": ("CAP = 12", "CAP = 0"),
         "repeated link": ("UNIQUE_LINK = True", "UNIQUE_LINK = False")})
    checks = {"notes not searched": "test_search_bookmarks_by_q_finds_only_matching_bookmark",
              "case-sensitive": "test_search_bookmarks_by_q_finds_only_matching_bookmark",
              "default of ten": "test_list_bookmarks_default_limit_is_4",
              "no cap": "test_list_bookmarks_limit_above_12_holds_at_most_12",
              "repeated link": "test_create_bookmark_twice_is_refused"}
    good = outcomes["good"]
    assert all(good.get(t) == "passed" for t in checks.values()), sorted(good.items())
    for variant, test in checks.items():
        assert outcomes[variant][test] == "failed", (variant, test)
    assert outcomes["repeated link"]["test_list_bookmarks_default_limit_is_4"] == "passed"
