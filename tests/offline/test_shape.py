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
    assert (shape.create_record, shape.create_id, shape.answer_found) == (None, None, False)
    assert shape.listed_found and shape.read_found and not shape.list_paged
    assert not shape.update_shows  # the update answer shows no record
    assert shape.match_keys == ("name", "grade")  # 3.0 == 3


def test_an_enveloped_or_reported_create_answer_gives_the_id_where_it_is() -> None:
    data = [_obs("POST", "/staff", {"data": {"staff_id": "s-1", **SENT}}, SENT, 201)]
    shape = shape_of(data, "/staff", "/staff/{staff_id}", "staff_id", "staff")
    assert shape is not None and shape.create_shows and shape.answer_found
    assert (shape.create_record, shape.create_id) == (("data",), "staff_id")
    report = [_obs("POST", "/staff", {"created_staff_id": 9, "success": True}, SENT)]
    shape = shape_of(report, "/staff", "/staff/{staff_id}", "staff_id", "staff")
    assert shape is not None and not shape.create_shows and not shape.answer_found
    assert (shape.create_record, shape.create_id) == ((), "created_staff_id")
    assert find_id([{"created_staff_id": 9, "success": True}], SENT, ["id"]) == 9
    assert find_id([{"status": "added"}, {"staff": [{"id": 4, **SENT}]}], SENT, ["id"]) == 4
    assert shape_of([], "/staff", None, None, "staff") is None


def test_the_helpers_find_the_record_wherever_an_implementation_puts_it() -> None:
    from pipeline.offline.tolerant import id_of_record, record_holding, record_in, records_in

    for answer in ({"id": 2, **SENT}, {"member": {"id": 2, **SENT}},
                   {"data": {"staff": {"id": 2, **SENT}}}):
        assert id_of_record(record_holding(answer, SENT)) == 2
    assert record_holding({"status": "added"}, SENT) is None
    assert record_in({"member": {"staff_id": 2}}) == {"staff_id": 2}
    assert id_of_record({"staff_id": 2, "team_id": 1}, "staff") == 2
    assert id_of_record({"staff_id": 2, "team_id": 1}) is None  # which one: not known
    assert records_in([{"id": 1}]) == [{"id": 1}]
    assert records_in({"staff": [{"id": 1}], "total": 1}) == [{"id": 1}]
    assert records_in({"data": {"items": [{"id": 1}]}, "page": 1}) == [{"id": 1}]


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
    cases = {c.name: c for c in generate_cases("staff", _spec(ENVELOPED))}
    life = cases["test_staff_lifecycle_create_read_update_delete"]
    assert ('staff = created_record(session, response, f"{base_url}/staff", payload, '
            '"staff")') in life.code
    assert "stored = record_in(reread.json())" in life.code
    assert "after = updated.json()" not in life.code  # the document shows no update answer
    assert "def created_record(" in life.prelude  # the helpers go with the case
    assert "observed" not in _spec(ENVELOPED).model_dump()  # evidence, never the spec
    blind = {c.name: c for c in generate_cases("staff", _spec([]))}
    plain = blind["test_staff_lifecycle_create_read_update_delete"]
    assert "staff = response.json()" in plain.code and "created_record(" not in plain.code
    # no code is documented for a missing record: after the delete the read does not show it,
    # wherever an answer would put it
    assert 'id_of_record(record_in(gone.json()), "staff") != staff_id' in plain.code


def test_the_documents_own_answer_wins_over_the_observed_one() -> None:
    spec = _spec(ENVELOPED)
    spec.endpoints[0].response_example = {"id": 1, "name": "Ada", "grade": 3}
    life = {c.name: c.code for c in generate_cases("staff", spec)}[
        "test_staff_lifecycle_create_read_update_delete"]
    assert "created_record" not in life and 'staff_id = staff["id"]' in life


def test_the_prompts_sketch_shows_where_things_are_and_no_values_of_the_service() -> None:
    from pipeline.offline.shape import sketch

    lines = sketch(ENVELOPED)
    assert lines[0] == 'POST /staff {"name": "Ada", "grade": 3} -> 201 {"status": "<string>"}'
    assert lines[1] == ('GET /staff -> 200 {"staff": [{"id": "<integer>", "name": "Ada", '
                        '"grade": "<number>", "since": "<string>"}]}')  # 3.0: not as sent
    assert lines[2].startswith('GET /staff/<id> -> 200 {"member": {"id": "<integer>"')


def test_a_record_the_service_already_lists_is_read_when_none_can_be_created() -> None:
    """No body documented for the create (a seeded service): the item read takes a record
    the list shows and checks it answers that record, wherever either answer puts it."""
    item = Param(name="id", location="path", required=True)
    seeded = [_obs("GET", "/posts", {"data": [{"id": 7, "title": "t"}], "page": 1})]
    spec = Spec(observed=seeded, endpoints=[
        Endpoint(method="GET", path="/posts"), Endpoint(method="POST", path="/posts"),
        Endpoint(method="GET", path="/posts/{id}", params=[item])])
    cases = {c.name: c for c in generate_cases("posts", spec)}
    read = cases["test_get_posts_item_documented_success"]
    assert "records = records_in(listed.json())" in read.code
    assert "assert id_of_record(record_in(response.json())) == id" in read.code
    assert "def records_in(" in read.prelude
    spec.observed = []  # no evidence: the guess as before
    blind = {c.name: c for c in generate_cases("posts", spec)}
    assert "records_in" not in blind["test_get_posts_item_documented_success"].code


def test_a_text_field_named_like_the_path_parameter_is_not_the_id() -> None:
    from pipeline.offline.gen_model import build_model

    item = Param(name="question_id", location="path", required=True)
    record = {"id": 4, "question": "Who wrote it?", "answer": "Anne Rice"}
    spec = Spec(endpoints=[
        Endpoint(method="POST", path="/questions", request_example={"question": "Q?"},
                 response_example=record),
        Endpoint(method="DELETE", path="/questions/{question_id}", params=[item])])
    assert build_model(spec).resources[0].id_field == "id"
