"""Port of sanic-postgres/keploy/test-set-0/tests/test-1.yaml .. test-11.yaml (upstream commit
a8453d385e3c82db06883d98d3493472eac5d88d of keploy/samples-python).

Each Keploy test case is one recorded request with the recorded response; Keploy checks the
status code and the JSON body (fields listed under `assertions.noise` are ignored: only
`body.employee.date_hired` in test-8) and the Content-Type header. Each test below sends the
same method, path and body and makes the same checks. One test per recorded case, same order
(test-1 .. test-11).

The recording was made against a PostgreSQL table that already held rows: at the time of the
recording employee 2 was Dhruv slashexx (Developer, 60000), while ids 1, 3, 5 and 8 did not
exist, and the four employees POSTed in test-1..test-4 received other ids (GET /employees/3
still answers 404 after them). Keploy replays that state from mocks.yaml. The `recorded_state`
fixture rebuilds it through the API on a freshly started service: it creates eight employees
(ids 1..8, id 2 = Dhruv slashexx) and deletes all but id 2, so that later POSTs get new ids.
"""
import pytest

JSON_HEADERS = {"Content-Type": "application/json"}

DHRUV = {"first_name": "Dhruv", "last_name": "slashexx", "email": "slashexx@example.com",
         "position": "Developer", "salary": 60000}


@pytest.fixture(scope="module", autouse=True)
def recorded_state(base_url, session):
    for n in range(1, 9):
        body = DHRUV if n == 2 else {"first_name": f"Setup{n}", "last_name": "Row",
                                     "email": f"setup{n}@example.com", "position": "Temp",
                                     "salary": 1000}
        r = session.post(f"{base_url}/employees", json=body, timeout=10)
        assert r.status_code == 201, (n, r.status_code, r.text)
    for n in (1, 3, 4, 5, 6, 7, 8):
        r = session.delete(f"{base_url}/employees/{n}", timeout=10)
        assert r.status_code == 200, (n, r.status_code, r.text)
    r = session.get(f"{base_url}/employees/2", timeout=10)
    assert r.status_code == 200, r.text


def check(response, status_code, body, noise=()):
    assert response.status_code == status_code, (response.status_code, response.text)
    assert response.headers.get("Content-Type", "").startswith("application/json"), response.headers
    actual = response.json()
    for path in noise:  # e.g. "employee.date_hired"
        *parents, leaf = path.split(".")
        a, b = actual, body
        for p in parents:
            a, b = a[p], b[p]
        a.pop(leaf, None)
        b.pop(leaf, None)
    assert actual == body, (actual, body)


def test_01_post_employee_bob(base_url, session):
    r = session.post(f"{base_url}/employees", headers=JSON_HEADERS,
                     data='{\n    "first_name": "Bob",\n    "last_name": "Johnson",\n    "email": "bob.johnson@example.com",\n    "position": "Project Manager",\n    "salary": 75000\n}',
                     timeout=10)
    check(r, 201, {"status": "Employee added"})


def test_02_post_employee_charlie(base_url, session):
    r = session.post(f"{base_url}/employees", headers=JSON_HEADERS,
                     data='{\n    "first_name": "Charlie",\n    "last_name": "Brown",\n    "email": "charlie.brown@example.com",\n    "position": "Data Analyst",\n    "salary": 55000\n}',
                     timeout=10)
    check(r, 201, {"status": "Employee added"})


def test_03_post_employee_diana(base_url, session):
    r = session.post(f"{base_url}/employees", headers=JSON_HEADERS,
                     data='{\n    "first_name": "Diana",\n    "last_name": "Prince",\n    "email": "diana.prince@example.com",\n    "position": "UX Designer",\n    "salary": 70000\n}',
                     timeout=10)
    check(r, 201, {"status": "Employee added"})


def test_04_post_employee_ethan(base_url, session):
    r = session.post(f"{base_url}/employees", headers=JSON_HEADERS,
                     data='{\n    "first_name": "Ethan",\n    "last_name": "Hunt",\n    "email": "ethan.hunt@example.com",\n    "position": "Network Administrator",\n    "salary": 60000\n}',
                     timeout=10)
    check(r, 201, {"status": "Employee added"})


def test_05_put_missing_employee_1(base_url, session):
    r = session.put(f"{base_url}/employees/1", headers=JSON_HEADERS,
                    data='{\n    "first_name": "Frank",\n    "last_name": "Castle",\n    "email": "frank.castle@example.com",\n    "position": "Security Specialist",\n    "salary": 80000\n}',
                    timeout=10)
    check(r, 404, {"status": "Employee not found"})


def test_06_get_missing_employee_1(base_url, session):
    check(session.get(f"{base_url}/employees/1", timeout=10), 404, {"status": "Employee not found"})


def test_07_get_missing_employee_3(base_url, session):
    check(session.get(f"{base_url}/employees/3", timeout=10), 404, {"status": "Employee not found"})


def test_08_get_employee_2(base_url, session):
    check(session.get(f"{base_url}/employees/2", timeout=10), 200,
          {"employee": {"id": 2, "first_name": "Dhruv", "last_name": "slashexx",
                        "email": "slashexx@example.com", "position": "Developer",
                        "salary": 60000.0, "date_hired": "2024-11-01"}},
          noise=("employee.date_hired",))


def test_09_delete_missing_employee_5(base_url, session):
    check(session.delete(f"{base_url}/employees/5", timeout=10), 404, {"status": "Employee not found"})


def test_10_delete_missing_employee_8(base_url, session):
    check(session.delete(f"{base_url}/employees/8", timeout=10), 404, {"status": "Employee not found"})


def test_11_delete_employee_2(base_url, session):
    check(session.delete(f"{base_url}/employees/2", timeout=10), 200, {"status": "Employee deleted"})
