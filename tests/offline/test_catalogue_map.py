"""A catalogue answered as a map of ids to names (`"genres": {"1": "Rock", "2": "Jazz"}`)
whose keys address another endpoint (`GET /genres/{genre_id}/albums`): a key from the
answer opens that endpoint, which names it back where its documented answer does. The
suite catches the catalogue answered as a list of records and the id not named back."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

README = textwrap.dedent("""\
    # Records shop

    ## GET /genres

    Response `200`: `{"genres": {"1": "Rock", "2": "Jazz"}}`

    ## GET /genres/{genre_id}/albums

    Response `200`: `{"current_genre_id": 1, "albums": [{"id": 3, "title": "Blue"}]}`
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    GENRES = {7: "Rock", 8: "Jazz"}
    AS_MAP = True
    NAMED_BACK = True

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/genres":
                shown = ({str(k): v for k, v in GENRES.items()} if AS_MAP
                         else [{"id": k, "name": v} for k, v in GENRES.items()])
                return self.reply(200, {"genres": shown})
            m = re.fullmatch(r"/genres/(\\d+)/albums", self.path)
            if not m or int(m.group(1)) not in GENRES:
                return self.reply(404, {"error": "no such genre"})
            return self.reply(200, {"current_genre_id": int(m.group(1)) if NAMED_BACK else None,
                                    "albums": []})
    """) + SERVE_JSON


def test_catalogue_keys_open_what_they_name(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "shop", README, SERVER,
        {"list": ("AS_MAP = True", "AS_MAP = False"),
         "not named back": ("NAMED_BACK = True", "NAMED_BACK = False")})
    name = "test_genres_genres_keys_open_their_genres_albums"
    assert outcomes["good"].get(name) == "passed", outcomes["good"]
    for variant in ("list", "not named back"):
        assert outcomes[variant][name] == "failed", (variant, outcomes[variant])


SNIPPETS = textwrap.dedent("""\
    # Snippets

    ## GET /

    Response `200`: `{"version": "1.0", "language": {"py": "Python", "rb": "Ruby", "txt": "Text"}}`

    ## POST /snippets

    Request: `{"code": "print(1)", "language": "txt"}`.
    Response `201`: `{"id": 1, "code": "print(1)", "language": "txt"}`

    ## GET /snippets/{id}

    Response `200`: `{"id": 1, "code": "print(1)", "language": "txt"}`
    """)

SNIPPET_SERVER = textwrap.dedent("""\
    import json, os
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    LANGUAGES = {"py": "Python", "rb": "Ruby", "txt": "Text"}
    SNIPPETS = {}
    KEEPS_LANGUAGE = True

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/":
                return self.reply(200, {"version": "1.0", "language": LANGUAGES})
            found = SNIPPETS.get(int(self.path.rsplit("/", 1)[-1] or 0)) \\
                if self.path.startswith("/snippets/") and self.path[10:].isdigit() else None
            if found is None:
                return self.reply(404, {"error": "nothing here"})
            return self.reply(200, found)

        def do_POST(self):
            body = self.body()
            if self.path != "/snippets" or not isinstance(body, dict):
                return self.reply(400, {"error": "bad request"})
            sent = body.get("language")
            new = {"id": len(SNIPPETS) + 1, "code": body.get("code"),
                   "language": sent if KEEPS_LANGUAGE and sent in LANGUAGES else "txt"}
            SNIPPETS[new["id"]] = new
            return self.reply(201, new)
    """) + SERVE_JSON


def test_a_key_of_an_answered_map_is_a_value_the_create_stores(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "snippets", SNIPPETS, SNIPPET_SERVER,
        {"default only": ("KEEPS_LANGUAGE = True", "KEEPS_LANGUAGE = False")})
    name = "test_snippet_language_takes_a_key_of_the_root_language"
    assert outcomes["good"].get(name) == "passed", outcomes["good"]
    assert outcomes["default only"][name] == "failed", outcomes["default only"]
