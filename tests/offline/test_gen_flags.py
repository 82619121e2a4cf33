"""A verb action on a record (`/tasks/{id}/archive`) is tested as setting that verb's state
when the record shows one; the state is looked up tolerantly at run time."""

from __future__ import annotations

import pytest

from pipeline.offline.generate import generate_cases
from pipeline.offline.tolerant import state_of
from pipeline.records import Endpoint, Spec


@pytest.mark.parametrize("record,verb,state", [
    ({"id": 1, "completed": True}, "complete", True),
    ({"id": 1, "is_archived": False}, "archive", False),
    ({"id": 1, "pinned": True}, "pin", True),
    ({"id": 1, "status": "cancelled"}, "cancel", True),
    ({"id": 1, "status": "canceled"}, "cancel", True),
    ({"id": 1, "status": "pending"}, "cancel", False),
    ({"id": 1, "title": "x"}, "archive", None),  # nothing names the state
    (None, "archive", None),
])
def test_state_of_finds_the_verbs_state_under_the_names_services_use(record, verb, state):
    assert state_of(record, verb) is state


def _spec(verb: str, record: dict) -> Spec:
    return Spec(endpoints=[
        Endpoint(method="POST", path="/tasks", request_example={"title": "Write"},
                 response_example=record, status_codes={201: "created"}),
        Endpoint(method="GET", path="/tasks/{id}", response_example=record,
                 status_codes={200: "ok", 404: "unknown"}),
        Endpoint(method="POST", path=f"/tasks/{{id}}/{verb}", status_codes={200: "ok"})])


def test_a_verb_whose_state_the_record_shows_gets_the_case() -> None:
    names = {c.name: c for c in generate_cases("t", _spec("archive", {
        "id": 1, "title": "Write", "archived": False}))}
    case = names["test_archive_sets_task_state_and_only_its_own"]
    assert 'assert state_of(target_after, "archive") is True' in case.code
    assert "def state_of(" in case.prelude and "def verb_forms(" in case.prelude
    assert case.endpoints == ["POST /tasks", "POST /tasks/{id}/archive"]


@pytest.mark.parametrize("verb,record", [
    ("archive", {"id": 1, "title": "Write"}),  # the record shows no state of the verb
    ("toggle", {"id": 1, "title": "Write", "toggled": False}),  # a toggle flips, never sets
])
def test_no_case_without_a_state_the_verb_sets(verb: str, record: dict) -> None:
    assert not any("_sets_task_state" in c.name
                   for c in generate_cases("t", _spec(verb, record)))
