"""The Area Chair app in headless Chromium: log in, open the queue, open a case with the
keyboard, accept with `a`, see the queue shrink; a second chair's session on the same case
cannot overwrite that decision. The app runs as `repogenesis chair serve` on 127.0.0.1."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.execution import free_port
from pipeline.store import Store
from pipeline.web.auth import new_user
from tests.chair.conftest import TASK

pytestmark = pytest.mark.slow
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"chair serve exited: {proc.stderr.read()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)  # polling the port, not waiting a fixed time
    raise RuntimeError("chair serve did not open its port")


@pytest.fixture
def server(chair_data):
    data, store = chair_data
    tokens = {name: new_user(store, name) for name in ("alice", "bob")}
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "chair", "serve", "--data", str(data), "--port",
         str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}", tokens, data, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)


def login(page, base: str, name: str, token: str) -> None:
    page.goto(f"{base}/")
    assert page.url.endswith("/login")  # no session: only the login page answers
    page.fill("input[name=name]", name)
    page.fill("input[name=token]", token)
    page.click("button:has-text('Log in')")
    page.wait_for_url(f"{base}/")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (dev.sh installs it)")
def test_a_chair_decides_by_keyboard_and_a_second_session_cannot_overwrite(server) -> None:
    from playwright.sync_api import sync_playwright

    base, tokens, data, proc = server
    case_a = f"{TASK}::test_a"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            alice = browser.new_context().new_page()
            login(alice, base, "alice", tokens["alice"])
            assert alice.inner_text("#n-waiting") == "2"
            href_a = "/case/" + case_a.replace("::", "%3A%3A")
            assert alice.locator("#queue tbody tr.sel").get_attribute("data-href") == href_a
            alice.keyboard.press("Enter")  # the first row, the most urgent case
            alice.wait_for_url("**/case/**")
            assert alice.locator("#code").inner_text().count("window.pwned") == 1
            assert alice.evaluate("window.pwned") is None  # shown, never run

            bob = browser.new_context().new_page()
            login(bob, base, "bob", tokens["bob"])
            bob.goto(alice.url)
            assert "claimed by alice" in bob.inner_text("#claimed")

            passage = alice.locator('#passages .passage[data-about="GET /ping"]')
            assert 'Returns `{"pong": true}` with status `200`' in passage.inner_text()
            assert "in the passage of GET /ping" in alice.inner_text(
                '#passages tr.literal[data-about="200"]')

            alice.keyboard.press("a")
            alice.wait_for_url(f"{base}/?done=*")
            assert alice.inner_text("#n-waiting") == "1"
            assert alice.locator(f'#queue tr[data-href="{href_a}"]').count() == 0

            # the other case asserts a header the README never names, and fails on the
            # independent implementation: both are in front of the chair, beside the oracle
            alice.keyboard.press("Enter")
            alice.wait_for_url("**/case/**test_b")
            unstated = alice.locator("#passages tr.literal.unstated")
            assert sorted(unstated.evaluate_all("rows => rows.map(r => r.dataset.about)")) == [
                "'X-Served-By'", "'ping-1'"]
            assert "not in the README" in unstated.first.inner_text()
            assert alice.inner_text('#alternatives tr[data-impl="oracle"]') == "oracle\tpassed"
            assert "failed" in alice.inner_text('#alternatives tr[data-impl="a"]')
            assert "assert None == 'ping-1'" in alice.inner_text("#alternatives details")
            alice.goto(f"{base}/")

            bob.keyboard.press("a")  # his page still shows the case as undecided
            bob.wait_for_selector("#message")
            assert "already decided" in bob.inner_text("#message")
        finally:
            browser.close()
    proc.send_signal(signal.SIGKILL)  # killed right after the decision: nothing is lost
    proc.wait(timeout=10)
    with Store.open(data / ".repogenesis" / "state.db") as store:
        decisions = store.ac_decisions(case_a)
    assert [(d.decision, d.chair) for d in decisions] == [("accept", "alice")]
    assert decisions[0].opened_at is not None  # time per decision is measurable
    assert '"chair": "alice"' in (data / "decisions.jsonl").read_text()
