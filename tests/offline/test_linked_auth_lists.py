"""A document that leaves accounts to the auth library it links (django-rest-auth), writes
some paths with a trailing slash and some without, answers a create with a bare text under
"HTTP 200 OK", sends records inside a record (`tracks` of a playlist), says an update adds
tracks, and has a list of the signed-in user's own playlists. The suite signs up and in the
library's way, finds each playlist it made in the list, and catches a create answered 201, a
create or an update that loses tracks, an update that edits a track it is sent again, an own
list that shows every user's playlists, and a play (`{"playlist": playlist_pk, "track":
track_pk}`: placeholders for the playlist and one of its tracks) that counts nothing or
answers without its documented envelope."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Playlists

    ## Authentication

    Accounts come from django-rest-auth, see
    http://django-rest-auth.readthedocs.io/en/latest/api_endpoints.html

    # List Playlists

     * URL: /api/playlists/
     * HTTP Method: GET

    ## Example Response

        [{"id": 1, "title": "Road trip",
          "tracks": [{"track_id": 3, "name": "Intro", "plays": 0}]}]

    # Get A Playlist

     * URL: /api/playlists/<pk>/
     * HTTP Method: GET

    ## Example Response

        {"title": "Road trip", "tracks": [{"track_id": 3, "name": "Intro", "plays": 0}]}

    # My Playlists

     * URL: /api/playlists/mine
     * HTTP Method: GET

    ## Example Response

        [{"title": "Road trip", "tracks": [{"track_id": 3, "name": "Intro", "plays": 0}]}]

    # Add A Playlist

     * URL: /api/playlists/
     * HTTP Method: POST

    ## Example Request

        {"title": "Road trip", "tracks": [{"name": "Intro"}, {"name": "Outro"}]}

    ## Example Response

        HTTP 200 OK
        "Playlist created"

    # Update A Playlist

    New tracks are added to the ones the playlist has.

     * URL: /api/playlists/<pk>/
     * HTTP Method: PUT

    ## Example Request

        {"title": "Road trip", "tracks": [{"name": "Encore"}]}

    ## Example Response

        HTTP 200 OK
        {"title": "Road trip", "tracks": [{"track_id": 3, "name": "Intro", "plays": 0},
          {"track_id": 4, "name": "Outro", "plays": 0},
          {"track_id": 5, "name": "Encore", "plays": 0}]}

    # Play A Track

     * URL: /api/playlists/<pk>/play
     * HTTP Method: POST

    ## Example Request

        {"playlist": playlist_pk, "track": track_pk}

    ## Example Response

        {"played": {"playlist": playlist_pk, "track": track_pk}}

    # Delete A Playlist

     * URL: /api/playlists/<pk>/
     * HTTP Method: DELETE
    """)

SERVER = textwrap.dedent("""\
    import json, os, re, uuid
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    USERS, KEYS, LISTS, NEXT = {}, {}, {}, {"list": 0, "track": 0}
    CREATE_STATUS = 200
    KEEP_TRACKS = True
    APPEND = True
    ONLY_MINE = True
    COUNT_PLAYS = True
    EDIT_IN_PLACE = False
    WRAPPED = True

    class H(BaseHTTPRequestHandler):
        def user(self):
            auth = self.headers.get("Authorization", "")
            return KEYS.get(auth[6:]) if auth.startswith("Token ") else None

        def tracks(self, sent):
            out = []
            for t in sent or []:
                NEXT["track"] += 1
                out.append({"track_id": NEXT["track"], "name": t.get("name"), "plays": 0})
            return out

        def route(self, method):
            path, body = self.path, self.body() if method in ("POST", "PUT") else None
            if path == "/rest-auth/registration/" and method == "POST":
                body = body or {}
                if not body.get("username") or body.get("password1") != body.get("password2"):
                    return self.reply(400, {"password2": ["mismatch"]})
                USERS[body["username"]] = body["password1"]
                return self.reply(204, None)
            if path == "/rest-auth/login/" and method == "POST":
                body = body or {}
                if USERS.get(body.get("username")) != body.get("password"):
                    return self.reply(400, {"non_field_errors": ["bad credentials"]})
                key = uuid.uuid4().hex
                KEYS[key] = body["username"]
                return self.reply(200, {"key": key})
            who = self.user()
            if path == "/api/playlists/" and method == "GET":
                return self.reply(200, [self.shown(p) for p in LISTS.values()][::-1])
            if path == "/api/playlists/mine/" and method == "GET":
                if who is None:
                    return self.reply(401, {"detail": "not signed in"})
                return self.reply(200, [self.shown(p) for p in LISTS.values()
                                        if p["owner"] == who or not ONLY_MINE])
            if path == "/api/playlists/" and method == "POST":
                if who is None:
                    return self.reply(401, {"detail": "not signed in"})
                if not isinstance(body, dict) or not body.get("title"):
                    return self.reply(400, {"title": ["required"]})
                NEXT["list"] += 1
                LISTS[NEXT["list"]] = {"id": NEXT["list"], "title": body["title"], "owner": who,
                                       "tracks": self.tracks(body.get("tracks"))
                                       if KEEP_TRACKS else []}
                return self.reply(CREATE_STATUS, "Playlist created")
            m = re.fullmatch(r"/api/playlists/(\\d+)/play/", path)
            if m and method == "POST" and int(m.group(1)) in LISTS:
                if who is None:
                    return self.reply(401, {"detail": "not signed in"})
                tracks = LISTS[int(m.group(1))]["tracks"]
                track = next((t for t in tracks if t["track_id"] == (body or {}).get("track")),
                             None)
                if track is None:
                    return self.reply(400, {"track": ["no such track"]})
                track["plays"] += 1 if COUNT_PLAYS else 0
                said = {"playlist": int(m.group(1)), "track": track["track_id"]}
                return self.reply(200, {"played": said} if WRAPPED else said)
            m = re.fullmatch(r"/api/playlists/(\\d+)/", path)
            if not m:
                return self.page(404)
            found = LISTS.get(int(m.group(1)))
            if found is None:
                return self.reply(404, {"detail": "Not found."})
            if method == "GET":
                return self.reply(200, self.shown(found))
            if who is None:
                return self.reply(401, {"detail": "not signed in"})
            if method == "PUT":
                if not isinstance(body, dict) or not body.get("title"):
                    return self.reply(400, {"title": ["required"]})
                found["title"] = body["title"]
                sent = body.get("tracks") or []
                mine = {t["track_id"]: t for t in found["tracks"]}
                if EDIT_IN_PLACE:
                    for t in sent:
                        if t.get("track_id") in mine:
                            mine[t["track_id"]]["name"] = t.get("name")
                    sent = [t for t in sent if t.get("track_id") not in mine]
                added = self.tracks(sent)
                found["tracks"] = found["tracks"] + added if APPEND else added
                return self.reply(200, self.shown(found))
            if method == "DELETE":
                del LISTS[found["id"]]
                return self.reply(204, None)
            return self.page(405)

        def shown(self, p):
            return {k: v for k, v in p.items() if k != "owner"}

        def page(self, status):
            data = b"<html><body>no such page</body></html>"
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")

        def do_PUT(self):
            self.route("PUT")

        def do_DELETE(self):
            self.route("DELETE")
    """) + SERVE_JSON


def test_the_linked_library_gives_the_accounts() -> None:
    spec = extract_spec(README)
    assert spec.auth is not None
    assert (spec.auth.scheme, spec.auth.login_path) == ("token", "/rest-auth/login/")
    linked = {(e.method, e.path): e.linked for e in spec.endpoints if e.linked}
    assert linked == {("POST", "/rest-auth/registration/"): "django-rest-auth",
                      ("POST", "/rest-auth/login/"): "django-rest-auth"}
    create = next(e for e in spec.endpoints if (e.method, e.path) == ("POST", "/api/playlists/"))
    assert create.status_codes == {200: "OK"} and create.response_example is None
    assert extract_spec(README.replace("## Authentication", "## Links")
                        .replace("Accounts come from", "The docs of")).auth is None


def test_signed_up_the_linked_way_the_suite_catches_lost_tracks_and_a_shared_own_list(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "playlists", README, SERVER,
        {"answers 201": ("CREATE_STATUS = 200", "CREATE_STATUS = 201"),
         "create drops tracks": ("KEEP_TRACKS = True", "KEEP_TRACKS = False"),
         "update replaces tracks": ("APPEND = True", "APPEND = False"),
         "own list shows all": ("ONLY_MINE = True", "ONLY_MINE = False"),
         "plays not counted": ("COUNT_PLAYS = True", "COUNT_PLAYS = False"),
         "answer unwrapped": ("WRAPPED = True", "WRAPPED = False"),
         "track edited in place": ("EDIT_IN_PLACE = False", "EDIT_IN_PLACE = True")})
    good = outcomes["good"]
    rules = {"answers 201": "test_create_playlist_returns_200_with_record",
             "create drops tracks": "test_get_playlist_returns_created_playlist",
             "update replaces tracks": "test_put_playlist_applies_changes",
             "own list shows all": "test_playlists_mine_holds_only_the_users_own",
             "plays not counted": "test_playlists_play_counts_for_the_chosen_track",
             "answer unwrapped": "test_playlists_play_counts_for_the_chosen_track",
             "track edited in place": "test_update_playlist_does_not_edit_its_tracks_in_place"}
    for variant, name in rules.items():
        assert good.get(name) == "passed", (name, good)
        assert outcomes[variant][name] == "failed", (variant, outcomes[variant])
