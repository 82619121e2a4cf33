"""A delete the document says takes records with it ("Deleting your account also deletes all
your teams"): the suite's user makes a team, a second user added to it by name reads it,
the first user deletes their account, and the team is gone for the second user too. A
delete that leaves the user's teams in place fails."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from test_members_by_name import README, SERVER
from variant_suite import outcomes_on_variants

from pipeline.spec import extract_spec

CASCADE_README = README.replace(
    "Sign up. Request: `{\"login\": \"kim\", \"password\": \"s3cret-pw\"}`. Answers `201`.",
    "Sign up. Request: `{\"login\": \"kim\", \"password\": \"s3cret-pw\"}`.\n"
    "Response `201`: `{\"id\": 3, \"login\": \"kim\"}`.") + textwrap.dedent("""
    ## DELETE /users/{user_id}

    Deleting your account also deletes all your teams.
    """)

CASCADE_SERVER = SERVER.replace(
    '            USERS[body["login"]] = body.get("password")\n'
    '            return self.reply(201, {"login": body["login"]})',
    '            USERS[body["login"]] = body.get("password")\n'
    '            IDS[body["login"]] = len(IDS) + 1\n'
    '            return self.reply(201, {"id": IDS[body["login"]], "login": body["login"]})',
).replace(
    '            return self.reply(401, {"error": "sign in first"})\n',
    '            return self.reply(401, {"error": "sign in first"})\n'
    '        d = re.fullmatch(r"/users/(\\d+)", self.path)\n'
    '        if d and method == "DELETE":\n'
    '            if IDS.get(who) != int(d.group(1)):\n'
    '                return self.reply(403, {"error": "not you"})\n'
    '            for tid in [k for k, t in TEAMS.items() if t["members"][0] == who]:\n'
    '                if CASCADES:\n'
    '                    del TEAMS[tid]\n'
    '            USERS.pop(who)\n'
    '            return self.reply(204, None)\n',
).replace("USERS, TOKENS, TEAMS = {}, {}, {}", "USERS, TOKENS, TEAMS, IDS = {}, {}, {}, {}\n"
          "CASCADES = True")


def test_the_sentence_names_what_the_delete_takes_with_it() -> None:
    (gone,) = [e for e in extract_spec(CASCADE_README).endpoints if e.method == "DELETE"
               and e.path == "/users/{user_id}"]
    assert gone.cascades == ["team"]
    assert all(not e.cascades for e in extract_spec(README).endpoints)


def test_a_deleted_account_takes_its_records_with_it(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    assert "IDS.get(who)" in CASCADE_SERVER and "CASCADES = True" in CASCADE_SERVER
    outcomes = outcomes_on_variants(tmp_path, task_factory, "teams", CASCADE_README,
                                    CASCADE_SERVER,
                                    {"kept": ("CASCADES = True", "CASCADES = False")})
    name = "test_deleted_account_takes_its_team_with_it"
    assert outcomes["good"].get(name) == "passed", outcomes["good"]
    assert outcomes["kept"][name] == "failed", outcomes["kept"]
