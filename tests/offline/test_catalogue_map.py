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
