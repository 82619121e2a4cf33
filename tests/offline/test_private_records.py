"""Records a flag makes private, with a list switch that adds them ("If `yes` will list
hidden snippets as well. Requires authentication"): the suite catches a default list that
shows private records, a switch that does nothing, a switch open to anyone, and a private
record any caller can read."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

README = textwrap.dedent("""\
    # Snippets

    Writes and reads of one snippet need HTTP Basic authentication with the configured
    account:

    | Setting | Default |
    |---|---|
    | USERNAME | 'admin' |
    | PASSWORD | 'admin' |

    ## GET /snippets

    Lists the snippets, 3 per page.

    | Key | Type | Description |
    |---|---|---|
    | page | Integer | Page to show. Defaults to 1 |
    | hidden | String | If `yes` will list hidden snippets as well. Requires authentication |

    Response `200`: `{"snippets": [{"id": 1, "code": "print(1)", "hidden": false}]}`

    ## POST /snippets

    Requires authentication. Request: `{"code": "print(1)", "hidden": false}`.
    Response `201`: `{"id": 1, "code": "print(1)", "hidden": false}`.

    ## GET /snippets/{id}

    Requires authentication. Response `200`: `{"id": 1, "code": "print(1)", "hidden": false}`.

    ## DELETE /snippets/{id}

    Requires authentication. Response `200`: `{"deleted": true}`.
    """)

SERVER = textwrap.dedent("""\
    import base64, json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlsplit

    SNIPPETS = {}
    DEFAULT_PUBLIC = True
    SWITCH = "yes"
    SWITCH_NEEDS_AUTH = True
    READ_NEEDS_AUTH = True

    class H(BaseHTTPRequestHandler):
        def signed(self):
            auth = self.headers.get("Authorization", "")
            return auth == "Basic " + base64.b64encode(b"admin:admin").decode()

        def do_GET(self):
            url = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            if url.path == "/snippets":
                everything = query.get("hidden") == SWITCH
                if everything and SWITCH_NEEDS_AUTH and not self.signed():
                    return self.reply(401, {"error": "sign in"})
                rows = [s for s in SNIPPETS.values()
                        if everything or not s["hidden"] or not DEFAULT_PUBLIC]
                page = int(query.get("page", 1))
                return self.reply(200, {"snippets": rows[(page - 1) * 3:page * 3]})
            m = re.fullmatch(r"/snippets/(\\d+)", url.path)
            found = SNIPPETS.get(int(m.group(1))) if m else None
            if found is None:
                return self.reply(404, {"error": "no such snippet"})
            if found["hidden"] and READ_NEEDS_AUTH and not self.signed():
                return self.reply(401, {"error": "sign in"})
            return self.reply(200, found)

        def do_POST(self):
            body = self.body()
            if not self.signed():
                return self.reply(401, {"error": "sign in"})
            if self.path != "/snippets" or not isinstance(body, dict) or not body.get("code"):
                return self.reply(400, {"error": "code required"})
            new = max([0, *SNIPPETS]) + 1
            SNIPPETS[new] = {"id": new, "code": body["code"], "hidden": bool(body.get("hidden"))}
            return self.reply(201, SNIPPETS[new])

        def do_DELETE(self):
            m = re.fullmatch(r"/snippets/(\\d+)", self.path)
            if not self.signed():
                return self.reply(401, {"error": "sign in"})
            if not m or SNIPPETS.pop(int(m.group(1)), None) is None:
                return self.reply(404, {"error": "no such snippet"})
            return self.reply(200, {"deleted": True})
    """) + SERVE_JSON


def test_private_records_are_listed_and_read_only_as_documented(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "snippets", README, SERVER,
        {"hidden listed": ("DEFAULT_PUBLIC = True", "DEFAULT_PUBLIC = False"),
         "switch ignored": ('SWITCH = "yes"', 'SWITCH = "true"'),
         "switch open": ("SWITCH_NEEDS_AUTH = True", "SWITCH_NEEDS_AUTH = False"),
         "read open": ("READ_NEEDS_AUTH = True", "READ_NEEDS_AUTH = False")})
    good = outcomes["good"]
    rules = {"hidden listed": "test_private_snippet_listed_only_when_asked_for",
             "switch ignored": "test_private_snippet_listed_only_when_asked_for",
             "switch open": "test_private_snippets_listed_only_to_a_signed_in_user",
             "read open": "test_private_snippet_read_only_by_a_signed_in_user"}
    for variant, name in rules.items():
        assert good.get(name) == "passed", (name, good)
        assert outcomes[variant][name] == "failed", (variant, outcomes[variant])
