"""Targeted black-box probes, one per faulty variant in ../NN-*.patch (see ../FAULTS.md).

README.md documents five calls with curl: create an employee (POST /employees with
first_name, last_name, email, position, salary), get all employees (GET /employees), get one
by id (GET /employees/<id>), update an employee's details (PUT /employees/<id> with all five
fields) and delete one (DELETE /employees/<id>). It shows no response bodies and no status codes.

So the probes assume only what those calls imply and accept anything the README leaves open:
  * success is any 2xx; "not there any more" after a delete is any 4xx;
  * response shapes are not fixed: an employee record is any JSON object, anywhere in the
    body, that carries the posted `email` (records are found by a unique email, never by
    position in a list, so no order is assumed);
  * the id is read from the record's `id` (or `employee_id` / `_id`) key and only used to
    build /employees/<id>; no id format or numbering is assumed;
  * salaries are compared as numbers (60000 == 60000.0);
  * every probe creates its own employees (unique e-mail addresses), so the probes hold on a
    service that starts empty and do not depend on each other.
Base URL: SERVICE_BASE_URL, default http://127.0.0.1:9213.
"""
import uuid

ID_KEYS = ("id", "employee_id", "_id")
FIELDS = ("first_name", "last_name", "email", "position", "salary")


def uid():
    return uuid.uuid4().hex[:10]


def ok(response):
    assert 200 <= response.status_code < 300, (response.status_code, response.text)
    return response


def records(value):
    """Every JSON object in `value` (recursively) that has an `email` key."""
    if isinstance(value, dict):
        if "email" in value:
            yield value
        for v in value.values():
            yield from records(v)
    elif isinstance(value, list):
        for v in value:
            yield from records(v)


def new_employee(**overrides):
    tag = uid()
    body = {"first_name": f"First{tag}", "last_name": f"Last{tag}",
            "email": f"probe.{tag}@example.com", "position": f"Position {tag}",
            "salary": 50000}
    body.update(overrides)
    return body


def listing(base_url, session):
    r = ok(session.get(f"{base_url}/employees", timeout=10))
    return list(records(r.json()))


def find(base_url, session, email):
    found = [rec for rec in listing(base_url, session) if rec.get("email") == email]
    assert len(found) <= 1, found
    return found[0] if found else None


def ident(record):
    for key in ID_KEYS:
        if record.get(key) is not None:
            return record[key]
    raise AssertionError(f"no id in {record}")


def create(base_url, session, **overrides):
    """POST an employee; return (posted body, id read from the listing)."""
    body = new_employee(**overrides)
    ok(session.post(f"{base_url}/employees", json=body, timeout=10))
    rec = find(base_url, session, body["email"])
    assert rec is not None, f"created employee {body['email']} is not in GET /employees"
    return body, ident(rec)


def fetch(base_url, session, emp_id):
    """GET /employees/<id>: the employee record in the answer (the one object with an email)."""
    r = ok(session.get(f"{base_url}/employees/{emp_id}", timeout=10))
    found = list(records(r.json()))
    assert len(found) == 1, r.text
    return found[0]


def same(record, body):
    for field in FIELDS:
        if field == "salary":
            assert float(record[field]) == float(body[field]), (field, record, body)
        else:
            assert record[field] == body[field], (field, record, body)


def test_01_create_keeps_position(base_url, session):
    # README "Create Employee": "To add a new employee" with "position": "Developer".
    body, emp_id = create(base_url, session, position=f"Quality Engineer {uid()}")
    rec = fetch(base_url, session, emp_id)
    assert rec["position"] == body["position"], rec
    same(rec, body)


def test_02_create_keeps_first_and_last_name(base_url, session):
    # README "Create Employee": "first_name": "John", "last_name": "Doe".
    body, emp_id = create(base_url, session)
    rec = fetch(base_url, session, emp_id)
    assert (rec["first_name"], rec["last_name"]) == (body["first_name"], body["last_name"]), rec


def test_03_get_all_lists_every_employee(base_url, session):
    # README "Get All Employees": "To retrieve all employees".
    emails = set()
    for _ in range(12):
        body = new_employee()
        ok(session.post(f"{base_url}/employees", json=body, timeout=10))
        emails.add(body["email"])
    listed = {rec.get("email") for rec in listing(base_url, session)}
    assert emails <= listed, sorted(emails - listed)


def test_04_get_by_id_after_an_earlier_delete(base_url, session):
    # README "Get Employee by ID": "To retrieve a specific employee by ID" - also once an
    # employee created before it has been deleted ("Delete Employee").
    first, first_id = create(base_url, session)
    second, second_id = create(base_url, session)
    ok(session.delete(f"{base_url}/employees/{first_id}", timeout=10))
    same(fetch(base_url, session, second_id), second)


def test_05_update_changes_only_that_employee(base_url, session):
    # README "Update Employee": "To update an existing employee's details" (PUT /employees/1).
    target, target_id = create(base_url, session)
    other, other_id = create(base_url, session)
    changed = new_employee(salary=81000)
    ok(session.put(f"{base_url}/employees/{target_id}", json=changed, timeout=10))
    same(fetch(base_url, session, target_id), changed)
    same(fetch(base_url, session, other_id), other)


def test_06_update_saves_salary(base_url, session):
    # README "Update Employee": the body carries "salary": 80000 (create had 60000).
    body, emp_id = create(base_url, session, salary=60000)
    changed = dict(body, salary=80000, position="Senior Developer")
    ok(session.put(f"{base_url}/employees/{emp_id}", json=changed, timeout=10))
    rec = fetch(base_url, session, emp_id)
    assert float(rec["salary"]) == 80000.0, rec
    same(rec, changed)


def test_07_delete_removes_employee(base_url, session):
    # README "Delete Employee": "To delete an employee".
    body, emp_id = create(base_url, session)
    ok(session.delete(f"{base_url}/employees/{emp_id}", timeout=10))
    r = session.get(f"{base_url}/employees/{emp_id}", timeout=10)
    assert 400 <= r.status_code < 500, (r.status_code, r.text)


def test_08_delete_removes_only_that_employee(base_url, session):
    # README "Delete Employee": "To delete an employee" (one employee: DELETE /employees/1).
    doomed, doomed_id = create(base_url, session)
    kept, kept_id = create(base_url, session)
    ok(session.delete(f"{base_url}/employees/{doomed_id}", timeout=10))
    same(fetch(base_url, session, kept_id), kept)
    assert find(base_url, session, kept["email"]) is not None


def test_09_get_by_id_returns_that_employee(base_url, session):
    # README "Get Employee by ID": "To retrieve a specific employee by ID".
    a, a_id = create(base_url, session)
    b, b_id = create(base_url, session)
    same(fetch(base_url, session, b_id), b)
    same(fetch(base_url, session, a_id), a)


def test_10_deleted_employee_not_listed(base_url, session):
    # README "Delete Employee" + "Get All Employees": a deleted employee is no longer among
    # "all employees".
    body, emp_id = create(base_url, session)
    ok(session.delete(f"{base_url}/employees/{emp_id}", timeout=10))
    assert find(base_url, session, body["email"]) is None
