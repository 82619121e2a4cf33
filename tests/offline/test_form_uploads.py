"""A record the document creates with a multipart form and only ever lists (`POST /badges`
with `-F name=... -F image=@badge.svg`, `GET /badges` as a map of ids to names, no
`/badges/{id}`): the suite sends the form with a file of the type the example names (a
service that checks the part takes it), finds the new record in the map under the id the
create answered, and sends a form without the name to be refused as the document's error
section says. A service that keeps nothing, or files the record under another name, fails."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

README = textwrap.dedent("""\
    # Badges

    ## Errors

    #### 400: Bad Request

    Returned when the request is malformed (i.e. required info is missing).

    ## Endpoints

    #### GET /badges

    ```bash
    curl http://127.0.0.1:8000/badges
    ```

    Example Response:

    ```json
    {"success": true, "badges": {"1": "Gold", "2": "Silver"}}
    ```

    #### POST /badges

    ```bash
    curl -X POST -F "name=Bronze" -F "image=@art/bronze.svg" http://127.0.0.1:8000/badges
    ```

    Parameters:

    - name (str): The name of the badge
    - image: An svg file, the badge's picture

    Example Response:

    ```json
    {"success": true, "created_badge_id": 3}
    ```
    """)

SERVER = textwrap.dedent("""\
    import json, os
    from email.parser import BytesParser
    from email.policy import HTTP
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    BADGES = {1: "Gold", 2: "Silver"}
    KEEPS = True
    SAME_NAME = True

    def parts(headers, raw):
        message = BytesParser(policy=HTTP).parsebytes(
            b"Content-Type: " + headers.get("Content-Type", "").encode() + b"\\r\\n\\r\\n" + raw)
        if not message.is_multipart():
            return {}
        return {p.get_param("name", header="content-disposition"): p for p in message.iter_parts()}

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path != "/badges":
                return self.reply(404, {"success": False})
            return self.reply(200, {"success": True,
                                    "badges": {str(k): v for k, v in BADGES.items()}})

        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            got = parts(self.headers, raw)
            image, name = got.get("image"), got.get("name")
            if self.path != "/badges" or name is None or image is None \\
                    or image.get_content_type() != "image/svg+xml" \\
                    or not image.get_payload(decode=True).startswith(b"<svg"):
                return self.reply(400, {"success": False})
            new = max(BADGES) + 1
            if KEEPS:
                BADGES[new] = name.get_content() if SAME_NAME else "Badge"
            return self.reply(200, {"success": True, "created_badge_id": new})
    """) + SERVE_JSON


def test_a_form_upload_is_sent_with_its_file_and_the_record_is_listed(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "badges", README, SERVER,
        {"kept nowhere": ("KEEPS = True", "KEEPS = False"),
         "other name": ("SAME_NAME = True", "SAME_NAME = False")})
    listed = "test_created_badge_is_in_the_badges_map_under_its_id"
    made = "test_create_badge_succeeds_with_record"
    refused = "test_create_badge_with_empty_body_returns_400"
    for name in (listed, made, refused):
        assert outcomes["good"].get(name) == "passed", (name, outcomes["good"])
    for variant in ("kept nowhere", "other name"):
        assert outcomes[variant][listed] == "failed", (variant, outcomes[variant])


STAFF = textwrap.dedent("""\
    # Staff

    ## POST /staff

    ```bash
    curl -X POST -d "name=Ada&grade=3" http://localhost:8000/staff
    ```

    Response `201`: `{"id": 1, "name": "Ada", "grade": "3"}`

    ## GET /staff/{id}

    Response `200`: `{"id": 1, "name": "Ada", "grade": "3"}`
    """)

STAFF_SERVER = textwrap.dedent("""\
    import json, os
    from urllib.parse import parse_qsl
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    STAFF = {}
    FORMS_ONLY = True

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            found = STAFF.get(self.path.rsplit("/", 1)[-1])
            return self.reply(200, found) if found else self.reply(404, {"error": "none"})

        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
            form = "x-www-form-urlencoded" in self.headers.get("Content-Type", "")
            if FORMS_ONLY and not form:
                return self.reply(415, {"error": "send a form"})
            sent = dict(parse_qsl(raw)) if form else json.loads(raw)
            new = {"id": len(STAFF) + 1, "name": sent.get("name"), "grade": sent.get("grade")}
            STAFF[str(new["id"])] = new
            return self.reply(201, new)
    """) + SERVE_JSON


def test_a_record_the_document_creates_with_a_form_is_created_with_one(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(tmp_path, task_factory, "staff", STAFF, STAFF_SERVER, {})
    made = [n for n in outcomes["good"] if n.startswith("test_create_staff")]
    assert made and all(outcomes["good"][n] == "passed" for n in made), outcomes["good"]
