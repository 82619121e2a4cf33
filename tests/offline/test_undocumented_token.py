"""A README that shows how to create an account and ask for a token but not the token's
answer (`POST /api/token/` with the account's name and password, "Authorization: Bearer
Token"), whose create answer links to the record instead of giving its id (`"url":
".../plots/1/"`) while the detail view shows the id and other fields, with records nested
under records and every path ending in a slash: the account is the create that takes the
login's keys, the suite finds the token wherever the service puts it (`tolerant.token_in`)
and the id in the link, nested records have their parent, and the suite passes on the
service and catches a login that takes any password, a planting stored under another plot
and a read that answers the first plot whatever the id."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.offline.gen_model import build_model
from pipeline.offline.tolerant import token_in
from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Plots

    ### Creating an account

    - **URL:** `http://localhost:8000/api/gardeners/`
    - **Method:** POST
    - **Body:**
      ```json
      {"username": "fern", "password": "s3cret-pass", "age": 30}
      ```

    ### Obtaining a token

    - **URL:** `http://localhost:8000/api/token/`
    - **Method:** POST
    - **Body:**
      ```json
      {"username": "fern", "password": "s3cret-pass"}
      ```

    ### Creating a plot

    - **URL:** `http://localhost:8000/api/plots/`
    - **Method:** POST
    - **Authorization:** Bearer Token
    - **Example Body:**
      ```json
      {"name": "North bed", "soil": "loam"}
      ```

    You will receive a response similar to this:
      ```json
      {"url": "http://localhost:8000/api/plots/1/", "name": "North bed", "soil": "loam"}
      ```

    ### A plot

    - **URL:** `http://localhost:8000/api/plots/1/`
    - **Method:** GET
    - **Authorization:** Bearer Token
    - **Example Response:**
      ```json
      {"id": 1, "name": "North bed", "soil": "loam", "plantings": 0}
      ```

    ### Planting in a plot

    - **URL:** `http://localhost:8000/api/plots/1/plantings/`
    - **Method:** POST
    - **Authorization:** Bearer Token
    - **Example Body:**
      ```json
      {"crop": "Leek", "rows": 3}
      ```

    ### The plot's plantings

    - **URL:** `http://localhost:8000/api/plots/1/plantings/`
    - **Method:** GET
    - **Authorization:** Bearer Token

    ### A planting

    - **URL:** `http://localhost:8000/api/plots/1/plantings/2/`
    - **Method:** GET
    - **Authorization:** Bearer Token
    """)

SERVER = textwrap.dedent("""\
    import json, os, re, uuid
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    USERS, TOKENS, PLOTS, PLANTINGS = {}, {}, {}, {}
    CHECK_PASSWORD = True
    PLANT_UNDER = None  # a fixed plot every planting is stored under
    READ_FIRST = False  # a plot's read answers the first plot whatever the id

    class H(BaseHTTPRequestHandler):
        def who(self):
            auth = self.headers.get("Authorization", "")
            return TOKENS.get(auth[7:]) if auth.startswith("Bearer ") else None

        def do_POST(self):
            data = self.body()
            if not isinstance(data, dict):
                return self.reply(400, {"detail": "bad body"})
            if self.path == "/api/gardeners/":
                if data.get("username") in USERS or not data.get("password"):
                    return self.reply(400, {"detail": "taken"})
                USERS[data["username"]] = data["password"]
                return self.reply(201, {"username": data["username"]})
            if self.path == "/api/token/":
                known = USERS.get(data.get("username"))
                if known is None or (CHECK_PASSWORD and known != data.get("password")):
                    return self.reply(401, {"detail": "no"})
                token = "eyJ" + uuid.uuid4().hex + "." + uuid.uuid4().hex + ".sig"
                TOKENS[token] = data["username"]
                return self.reply(200, {"refresh": "r" + token, "access": token})
            if self.who() is None:
                return self.reply(401, {"detail": "not authenticated"})
            if self.path == "/api/plots/":
                pid = len(PLOTS) + 1
                PLOTS[pid] = {"id": pid, **data}
                host = self.headers.get("Host")
                return self.reply(201, {"url": f"http://{host}/api/plots/{pid}/", **data})
            m = re.fullmatch(r"/api/plots/(\\d+)/plantings/", self.path)
            if m and int(m.group(1)) in PLOTS:
                qid = len(PLANTINGS) + 1
                PLANTINGS[qid] = {"id": qid, "plot": PLANT_UNDER or int(m.group(1)), **data}
                return self.reply(201, PLANTINGS[qid])
            self.reply(404, {"detail": "not found"})

        def do_GET(self):
            if self.who() is None:
                return self.reply(401, {"detail": "not authenticated"})
            m = re.fullmatch(r"/api/plots/(\\d+)/(?:plantings/(?:(\\d+)/)?)?", self.path)
            if not m or int(m.group(1)) not in PLOTS:
                return self.reply(404, {"detail": "not found"})
            pid = int(m.group(1))
            if "plantings" not in self.path:
                pid = min(PLOTS) if READ_FIRST else pid
                count = len([p for p in PLANTINGS.values() if p["plot"] == pid])
                return self.reply(200, {**PLOTS[pid], "plantings": count})
            mine = [p for p in PLANTINGS.values() if p["plot"] == pid]
            if m.group(2) is None:
                return self.reply(200, mine)
            found = [p for p in mine if p["id"] == int(m.group(2))]
            self.reply(200 if found else 404, found[0] if found else {"detail": "not found"})

        def do_DELETE(self):
            self.reply(405, {"detail": "not allowed"})

    """) + SERVE_JSON


def test_the_account_is_the_create_with_the_logins_keys_and_nested_records_have_parents(
) -> None:
    model = build_model(extract_spec(README))
    assert model.register is not None and model.register.path == "/api/gardeners/"
    planting = next(r for r in model.resources if r.noun == "planting")
    assert planting.parent is not None and planting.parent.noun == "plot"
    assert planting.creatable
    plot = next(r for r in model.resources if r.noun == "plot")
    assert plot.links_itself and not planting.links_itself
    assert all(e.auth_required for e in model.spec.endpoints if "plots" in e.path)


def test_the_token_is_found_wherever_an_implementation_puts_it() -> None:
    assert token_in({"refresh": "r1", "access": "a1"}) == "a1"
    assert token_in({"token_type": "bearer", "access_token": "t"}) == "t"
    assert token_in({"data": {"key": "k"}}) == "k"
    assert token_in({"jwt_here": 3, "x": "eyJa.b.c"}) == "eyJa.b.c"
    assert token_in({"message": "hello"}) is None


def test_the_suite_signs_in_and_catches_any_password_and_a_misfiled_planting(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "plots", README, SERVER,
        {"any password": ("CHECK_PASSWORD = True", "CHECK_PASSWORD = False"),
         "misfiled": ("PLANT_UNDER = None", "PLANT_UNDER = 1"),
         "first plot": ("READ_FIRST = False", "READ_FIRST = True")})
    good = outcomes["good"]
    assert {n for n, o in good.items() if o != "passed"} == set()
    assert "test_get_planting_returns_created_planting" in good
    assert "test_get_plot_returns_created_plot" in good
    assert outcomes["any password"]["test_login_with_a_wrong_password_is_refused"] == "failed"
    assert outcomes["misfiled"]["test_get_planting_returns_created_planting"] == "failed"
    assert outcomes["first plot"]["test_two_plots_read_back_each_as_itself"] == "failed"
    assert outcomes["misfiled"]["test_two_plots_read_back_each_as_itself"] == "passed"


def test_a_record_that_links_to_itself_gives_its_id_under_its_own_collection_only() -> None:
    from pipeline.offline.tolerant import id_of_record

    assert id_of_record({"url": "http://h/api/plots/11/", "name": "a"}, "plot") == 11
    assert id_of_record({"_links": {"self": {"href": "/orders/ab-1"}}}, "order") == "ab-1"
    assert id_of_record({"url": "https://example.com/a/very/long/path"}, "link") is None
    assert id_of_record({"url": "http://h/api/plots/11/"}) is None  # no noun: no guess
