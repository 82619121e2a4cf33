"""The Area Chair app over HTTP (in-process client): nothing answers without a session,
forged or missing CSRF tokens are refused, untrusted code is escaped, decisions are exact."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from pipeline.web.app import create_app
from pipeline.web.auth import new_user
from tests.chair.conftest import TASK, XSS

A = f"{TASK}::test_a"
A_URL = "/case/ping%3A%3Atest_a"


def login_csrf(client: TestClient) -> str:
    page = client.get("/login")
    return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)


def page_csrf(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


@pytest.fixture
def web(chair_data):
    data, store = chair_data
    token = new_user(store, "alice")
    app = create_app(data)
    with TestClient(app, follow_redirects=False) as client:
        yield client, token, data, store
    app.state.store.close()


def logged_in(client: TestClient, token: str, name: str = "alice") -> TestClient:
    r = client.post("/login", data={"name": name, "token": token, "csrf": login_csrf(client)})
    assert r.status_code == 303 and r.headers["location"] == "/"
    return client


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/"), ("GET", A_URL), ("GET", "/docs"), ("GET", "/openapi.json"),
    ("GET", "/nothing/here"), ("POST", f"{A_URL}/decide"), ("POST", "/logout"),
])
def test_nothing_but_login_answers_without_a_session(web, method, path) -> None:
    client, *_ = web
    r = client.request(method, path, data={"verdict": "accept"})
    assert (r.status_code, r.headers.get("location")) in ((303, "/login"), (401, None))
    assert "ping::" not in r.text


def test_login_needs_the_right_token_and_its_csrf(web) -> None:
    client, token, _, _ = web
    r = client.post("/login", data={"name": "alice", "token": token})
    assert r.status_code == 403
    r = client.post("/login", data={"name": "alice", "token": token, "csrf": "forged"})
    assert r.status_code == 403
    r = client.post("/login", data={"name": "alice", "token": "wrong",
                                    "csrf": login_csrf(client)})
    assert r.status_code == 303 and "error" in r.headers["location"]
    r = client.post("/login", data={"name": "alice", "token": token,
                                    "csrf": login_csrf(client)})
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    assert client.get("/").status_code == 200


def test_a_forged_session_cookie_is_no_session(web) -> None:
    client, *_ = web
    client.cookies.set("rg_session", "eyJ1IjoiYWxpY2UiLCJjIjoieCJ9.forged.sig")
    assert client.get("/").status_code == 303


def test_decide_refuses_missing_or_forged_csrf(web) -> None:
    client, token, _, store = web
    logged_in(client, token)
    html = client.get(A_URL).text
    form = {"verdict": "reject", "note": "x", "version": re.search(
        r'name="version" value="([^"]+)"', html).group(1), "last": "0"}
    assert client.post(f"{A_URL}/decide", data=form).status_code == 403
    assert client.post(f"{A_URL}/decide", data=form | {"csrf": "forged"}).status_code == 403
    assert store.ac_decisions() == []
    r = client.post(f"{A_URL}/decide", data=form | {"csrf": page_csrf(html)})
    assert r.status_code == 303, r.text
    assert [d.decision for d in store.ac_decisions()] == ["reject"]


def test_untrusted_code_is_escaped_under_a_nonce_csp(web) -> None:
    client, token, *_ = web
    logged_in(client, token)
    r = client.get(A_URL)
    assert r.status_code == 200
    assert "<script>window.pwned" not in r.text and XSS not in r.text
    assert "&lt;/" in r.text and "window.pwned" in r.text  # shown, escaped
    csp = r.headers["content-security-policy"]
    nonce = re.search(r"'nonce-([^']+)'", csp).group(1)
    assert "default-src 'none'" in csp
    assert all(f'nonce="{nonce}"' in tag for tag in re.findall(r"<script[^>]*>", r.text))
    assert r.headers["x-frame-options"] == "DENY"


def test_a_web_decision_is_committed_published_and_an_outdated_page_refused(web) -> None:
    client, token, data, store = web
    logged_in(client, token)
    html = client.get(A_URL).text
    assert "3, 8, 9" in html and "offline:execution" in html and "kills 3 of 5" in html
    assert "GET /ping" in html  # the README excerpt and the requests sent
    base = {"csrf": page_csrf(html), "last": "0",
            "version": re.search(r'name="version" value="([^"]+)"', html).group(1)}
    r = client.post(f"{A_URL}/decide", data=base | {"verdict": "accept", "c": "3", "v": "2",
                                                     "r": "2", "l": "2"})
    assert r.status_code == 303 and r.headers["location"].startswith("/?done=")
    task = json.loads((data / "verified" / TASK / "task.json").read_text())
    assert A in [c["id"] for c in task["test_cases"]]
    again = client.post(f"{A_URL}/decide", data=base | {"verdict": "reject", "note": "no"})
    assert again.status_code == 409 and "already decided" in again.text
    assert [d.decision for d in store.ac_decisions()] == ["accept"]
    bad = client.post(f"{A_URL}/decide", data=base | {"verdict": "accept", "c": "9", "v": "2",
                                                       "r": "2", "l": "2", "last": "1"})
    assert bad.status_code == 409 and "outside the rubric" in bad.text
    queue = client.get("/").text
    assert A not in queue and f"{TASK}::test_b" in queue


def test_logout_ends_the_session(web) -> None:
    client, token, *_ = web
    logged_in(client, token)
    csrf = page_csrf(client.get("/").text)
    r = client.post("/logout", data={"csrf": csrf})
    assert r.status_code == 303 and r.headers["location"] == "/login"
    assert client.get("/").status_code == 303


def test_a_new_token_ends_the_old_sessions(web) -> None:
    client, token, _, store = web
    logged_in(client, token)
    assert client.get("/").status_code == 200
    new_user(store, "alice")  # re-keyed: the old token and its sessions stop working
    assert client.get("/").status_code == 303
    r = client.post("/login", data={"name": "alice", "token": token,
                                    "csrf": login_csrf(client)})
    assert "error" in r.headers["location"]


def test_the_case_page_shows_the_refiners_answer_escaped(web) -> None:
    from pipeline.records import Answer

    client, token, _, store = web
    case = store.latest_cases(TASK)[0]
    store.save_case(case.model_copy(update={
        "round": 1, "origin": "refined", "code": case.code + "    assert response.ok\n",
        "rebuttal": [Answer(reviewer="offline:spec", changed="asserted the body",
                            disagree="the <b>status</b> check is documented")]}))
    logged_in(client, token)
    page = client.get(f"/case/{case.case_id.replace('::', '%3A%3A')}").text
    section = page.split('id="rebuttal"', 1)[1].split("</div>\n</div>", 1)[0]
    assert "to offline:spec" in section and "asserted the body" in section
    assert "the &lt;b&gt;status&lt;/b&gt; check is documented" in section
