"""A read of an id no record has, where the document gives no failure code at all: the
suite asks for a client error of any kind (and reads a record it made, as the control).
It catches a service that answers an empty success or crashes, and passes one that answers
404 (or 400)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_members_by_name import README, SERVER
from variant_suite import outcomes_on_variants

MISSING = 'return self.reply(404, {"error": "no such team"})'


def test_an_unknown_id_is_a_client_error_when_no_code_is_documented(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    assert "404" not in README and "400" not in README
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "teams", README, SERVER,
        {"empty success": (MISSING, "return self.reply(200, {})"),
         "crash": (MISSING, "raise KeyError(self.path)"),
         "bad request": (MISSING, 'return self.reply(400, {"error": "no such team"})')})
    name = "test_get_team_unknown_id_is_a_client_error"
    assert outcomes["good"].get(name) == "passed", outcomes["good"]
    assert outcomes["bad request"][name] == "passed"
    for variant in ("empty success", "crash"):
        assert outcomes[variant][name] == "failed", (variant, outcomes[variant])
