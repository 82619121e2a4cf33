"""Where a service puts what, read from its answers to the document's own examples
(`offline/shape.py`), and the generated code that follows it."""

from __future__ import annotations

from pipeline.offline.generate import generate_cases
from pipeline.offline.shape import find_id, shape_of
from pipeline.records import Endpoint, Observation, Param, Spec

SENT = {"name": "Ada", "grade": 3}


def _obs(method: str, path: str, answer: object, body: object = None,
         status: int = 200) -> Observation:
    return Observation(method=method, path=path, sent_path=path.replace("{staff_id}", "1"),
                       body=body, status=status, answer=answer)


ENVELOPED = [
    _obs("POST", "/staff", {"status": "added"}, SENT, 201),
    _obs("GET", "/staff", {"staff": [{"id": 1, "name": "Ada", "grade": 3.0, "since": "x"}]}),
    _obs("GET", "/staff/{staff_id}", {"member": {"id": 1, "name": "Ada", "grade": 3}}),
    _obs("PUT", "/staff/{staff_id}", {"status": "updated"}, {"name": "Bea", "grade": 4}),
]


def test_a_create_answer_without_the_record_sends_the_test_to_the_list() -> None:
    shape = shape_of(ENVELOPED, "/staff", "/staff/{staff_id}", "staff_id", "staff")
    assert shape is not None
    assert (shape.create_record, shape.create_id) == (None, None)
    assert shape.list_records == ("staff",) and shape.item_record == ("member",)
    assert shape.update_record is None  # the update answer shows no record
    assert shape.record_id == "id" and shape.match_keys == ("name", "grade")


def test_an_enveloped_or_reported_create_answer_gives_the_id_where_it_is() -> None:
    data = [_obs("POST", "/staff", {"data": {"staff_id": "s-1", **SENT}}, SENT, 201)]
    shape = shape_of(data, "/staff", "/staff/{staff_id}", "staff_id", "staff")
    assert shape is not None and shape.create_shows
    assert (shape.create_record, shape.create_id) == (("data",), "staff_id")
    report = [_obs("POST", "/staff", {"created_staff_id": 9, "success": True}, SENT)]
    shape = shape_of(report, "/staff", "/staff/{staff_id}", "staff_id", "staff")
    assert shape is not None and not shape.create_shows
    assert (shape.create_record, shape.create_id) == ((), "created_staff_id")
    assert find_id([{"created_staff_id": 9, "success": True}], SENT, ["id"]) == 9
    assert find_id([{"status": "added"}, {"staff": [{"id": 4, **SENT}]}], SENT, ["id"]) == 4
    assert shape_of([], "/staff", None, None, "staff") is None


def _spec(observed: list[Observation]) -> Spec:
    item = Param(name="staff_id", location="path", required=True)
    return Spec(observed=observed, endpoints=[
        Endpoint(method="POST", path="/staff", request_example=SENT),
        Endpoint(method="GET", path="/staff"),
        Endpoint(method="GET", path="/staff/{staff_id}", params=[item]),
        Endpoint(method="PUT", path="/staff/{staff_id}", params=[item],
                 request_example={"name": "Bea", "grade": 4}),
        Endpoint(method="DELETE", path="/staff/{staff_id}", params=[item])])


def test_generated_code_finds_the_record_where_it_was_observed() -> None:
    code = {c.name: c.code for c in generate_cases("staff", _spec(ENVELOPED))}
    life = code["test_staff_lifecycle_create_read_update_delete"]
    assert 'staff_listed = session.get(f"{base_url}/staff")' in life
    assert 'in staff_listed.json()["staff"] if r["name"] == payload["name"]' in life
    assert 'stored = reread.json()["member"]' in life
    assert "after = updated.json()" not in life  # the update answer holds no record
    assert "observed" not in _spec(ENVELOPED).model_dump()  # evidence, never the spec
    blind = {c.name: c.code for c in generate_cases("staff", _spec([]))}
    assert 'staff = response.json()' in blind["test_staff_lifecycle_create_read_update_delete"]


def test_the_documents_own_answer_wins_over_the_observed_one() -> None:
    spec = _spec(ENVELOPED)
    spec.endpoints[0].response_example = {"id": 1, "name": "Ada", "grade": 3}
    life = {c.name: c.code for c in generate_cases("staff", spec)}[
        "test_staff_lifecycle_create_read_update_delete"]
    assert "staff_listed" not in life and 'staff_id = staff["id"]' in life
