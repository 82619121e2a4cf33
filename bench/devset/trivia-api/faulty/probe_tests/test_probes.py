"""Targeted black-box probes, one per faulty variant in ../NN-*.patch (see ../FAULTS.md).

Each probe asserts only what README.md states, on data it creates itself (a new category made
through POST /categories, questions through POST /questions), so it also holds on a service
that starts empty. Left open by the README and so accepted here: the success status code
(any 2xx), id values, the order of questions on a page, extra fields, error bodies.
Stated by the README and relied on: the `"success": true` envelope, 10 questions per page,
`current_category_id` of a category listing, case-insensitive search (the example finds
"Tom Hanks" with "hanks"), quiz questions drawn outside `previous_question_ids`, category 0 =
all categories, 404 for a page of questions that does not exist, `categories` as an
id -> name object.
Base URL: SERVICE_BASE_URL, default http://127.0.0.1:9209.
"""
import os
import uuid

import requests

BASE = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9209").rstrip("/")
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>'


def _uid():
    return uuid.uuid4().hex[:10]


def ok(response):
    assert 200 <= response.status_code < 300, (response.status_code, response.text)
    body = response.json()
    assert body.get("success") is True, body
    return body


def make_category(name=None):
    name = name or f"Probe{_uid()}"
    r = requests.post(f"{BASE}/categories", data={"name": name},
                      files={"icon": (f"{name.lower()}.svg", SVG, "image/svg+xml")}, timeout=10)
    return ok(r)["created_category_id"], name


def make_question(category_id, text=None, answer="probe answer", rating=3, difficulty=2):
    text = text or f"Probe question {_uid()}?"
    r = requests.post(f"{BASE}/questions", json={"question": text, "answer": answer,
                                                   "category_id": category_id,
                                                   "rating": rating, "difficulty": difficulty}, timeout=10)
    return ok(r)["created_question_id"]


def search(term):
    r = requests.post(f"{BASE}/questions", json={"search_term": term}, timeout=10)
    return ok(r)["questions"]


def category_page(category_id, page=None):
    params = {} if page is None else {"page": page}
    return requests.get(f"{BASE}/categories/{category_id}/questions", params=params, timeout=10)


def quiz(category_id, previous):
    r = requests.post(f"{BASE}/quizzes", json={"quiz_category_id": category_id,
                                                "previous_question_ids": previous}, timeout=10)
    return ok(r)["question"]


def test_01_pages_of_ten():
    # README GET /questions: "Retrieve a list of paginated questions" /
    # "page (int) [optional]: Each page returns the next 10 results (default: 1)".
    # Pagination is stated for GET /questions only ("GET /categories/<id>/questions: Retrieve
    # all questions belonging to a specific category"), and no order is stated, so the probe
    # walks the pages of GET /questions and checks that they split all questions into tens.
    cid, _ = make_category()
    ids = {make_question(cid) for _ in range(12)}
    first = ok(requests.get(f"{BASE}/questions", params={"page": 1}, timeout=10))
    total = first["total_questions"]
    assert total >= len(ids), first
    seen, page = [], 1
    while page <= total // 10 + 2:
        r = requests.get(f"{BASE}/questions", params={"page": page}, timeout=10)
        if r.status_code == 404:
            break
        questions = ok(r)["questions"]
        if not questions:
            break
        expected = min(10, total - (page - 1) * 10)
        assert len(questions) == expected, (page, total, [q["id"] for q in questions])
        seen.extend(q["id"] for q in questions)
        page += 1
    assert len(seen) == len(set(seen)) == total, (total, seen)
    assert ids <= set(seen)
    default = ok(requests.get(f"{BASE}/questions", timeout=10))["questions"]
    assert {q["id"] for q in default} == {q["id"] for q in first["questions"]}


def test_02_category_listing_names_its_category():
    # README GET /categories/<category_id>/questions example: "current_category_id": 5 for /categories/5/questions
    cid, _ = make_category()
    qid = make_question(cid)
    body = ok(category_page(cid))
    assert [q["id"] for q in body["questions"]] == [qid]
    assert body["current_category_id"] == cid


def test_03_search_is_case_insensitive():
    # README Search Questions: search_term "hanks" finds "What movie earned Tom Hanks ..."
    cid, _ = make_category()
    token = f"Zq{_uid()}Mixed"
    qid = make_question(cid, text=f"Which probe mentions {token} here?")
    found = search(token.lower())
    assert [q["id"] for q in found] == [qid], found


def test_04_create_stores_rating_and_difficulty():
    # README New Question parameters: "rating (int): The rating of the question",
    # "difficulty (int): The difficulty of the question"
    cid, _ = make_category()
    token = f"Rt{_uid()}"
    qid = make_question(cid, text=f"Rating probe {token}?", rating=2, difficulty=5)
    found = search(token)
    assert len(found) == 1 and found[0]["id"] == qid, found
    assert found[0]["rating"] == 2, found[0]
    assert found[0]["difficulty"] == 5, found[0]
    assert found[0]["category_id"] == cid, found[0]


def test_05_rating_update_persists():
    # README PATCH /questions/<question_id>: "Update a question's rating" (old_rating / new_rating)
    cid, _ = make_category()
    token = f"Pt{_uid()}"
    qid = make_question(cid, text=f"Patch probe {token}?", rating=3)
    r = requests.patch(f"{BASE}/questions/{qid}", json={"rating": 5}, timeout=10)
    body = ok(r)
    assert body["old_rating"] == 3 and body["new_rating"] == 5, body
    found = search(token)
    assert len(found) == 1 and found[0]["rating"] == 5, found


def test_06_delete_removes_question():
    # README DELETE /questions/<question_id>: "Delete a question"
    cid, _ = make_category()
    token = f"Dl{_uid()}"
    keep = make_question(cid, text=f"Keep probe {token}?")
    gone = make_question(cid, text=f"Delete probe {token}?")
    body = ok(requests.delete(f"{BASE}/questions/{gone}", timeout=10))
    assert body["deleted_question_id"] == gone, body
    assert [q["id"] for q in search(token)] == [keep]
    assert [q["id"] for q in ok(category_page(cid))["questions"]] == [keep]


def test_07_quiz_skips_previous_questions():
    # README POST /quizzes: "previous_question_ids: A list of ints representing the ids of previous
    # questions"; "returns a single question representing a random question in the given category"
    cid, _ = make_category()
    ids = [make_question(cid) for _ in range(5)]
    previous, expected = ids[:4], ids[4]
    for _ in range(6):
        question = quiz(cid, previous)
        assert question is not None and question["id"] == expected, question


def test_08_quiz_category_zero_means_all():
    # README POST /quizzes: "quiz_category_id (int): ... (0 represents all categories)"
    cid, _ = make_category()
    make_question(cid)
    question = quiz(0, [])
    assert question, question
    assert {"id", "question", "answer"} <= set(question), question


def test_09_missing_page_is_404():
    # README errors: "404: Not Found ... (i.e. Attempting to view a page of questions that don't exist)"
    cid, _ = make_category()
    make_question(cid)
    r = requests.get(f"{BASE}/questions", params={"page": 99999}, timeout=10)
    assert r.status_code == 404, (r.status_code, r.text)


def test_10_categories_is_id_to_name_object():
    # README GET /categories example: "categories": {"1": "Science", "2": "Art", ...}
    cid, name = make_category()
    body = ok(requests.get(f"{BASE}/categories", timeout=10))
    categories = body["categories"]
    assert isinstance(categories, dict), categories
    assert categories.get(str(cid)) == name, categories
