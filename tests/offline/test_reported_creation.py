"""A create whose documented answer reports the creation (`{"success": true,
"created_question_id": 24}`) instead of showing the record; values the document shows stored
in another JSON type than sent; ids of things the document manages under a plural path."""

from __future__ import annotations

from pipeline.offline.gen_model import build_model, free_references
from pipeline.offline.generate import generate_cases
from pipeline.records import Endpoint, Spec

QUESTION = {"id": 2, "question": "Which one is it?", "level": "easy", "rating": 3}
SPEC = Spec(endpoints=[
    Endpoint(method="GET", path="/questions", status_codes={200: "ok"},
             response_example={"success": True, "questions": [QUESTION]}),
    Endpoint(method="POST", path="/questions",
             request_example={"question": "Why is it?", "level": "easy", "rating": "3"},
             response_example={"success": True, "created_question_id": 24}),
    Endpoint(method="PATCH", path="/questions/{question_id}", request_example={"rating": "5"},
             status_codes={200: "ok"}),
    Endpoint(method="DELETE", path="/questions/{question_id}", status_codes={200: "ok"}),
])


def test_the_id_is_read_where_the_answer_reports_it_and_no_record_is_asserted() -> None:
    res = build_model(SPEC).resources[0]
    assert res.created_id_key == "created_question_id"
    cases = {c.name: c.code for c in generate_cases("t", SPEC)}
    create = cases["test_create_question_succeeds_with_record"]
    assert 'question_id = question["created_question_id"]' in create
    assert 'question["question"]' not in create  # the answer shows no record
    assert all('.json()["id"]' not in code for code in cases.values())


def test_a_value_shown_in_another_type_than_sent_is_not_compared() -> None:
    from pipeline.offline.gen_code import Writer

    model = build_model(SPEC)
    res = model.resources[0]
    # "3" sent, 3 shown: converted; the text is compared
    assert Writer(model).echo_fields(res, {"question": "Why?", "rating": "3"}) == ["question"]
    assert Writer(model).echo_fields(res, {"rating": 4}) == ["rating"]


def test_an_id_of_a_thing_under_a_plural_path_is_not_free() -> None:
    paths = {"/questions", "/categories"}
    assert free_references({"category_id": "1", "content_id": "x"}, paths) == ("content_id",)
