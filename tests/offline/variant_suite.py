"""Generate a suite offline for a small service (README + stdlib server text) the way a build
does (the oracle observed first), and run it on the service and on faulty copies of it (one
text replacement each): test name -> outcome, per variant."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pipeline.spec import load_spec
from pipeline.tasks import load_task

Outcomes = dict[str, dict[str, str]]

# The end of a stdlib test service (`class H(BaseHTTPRequestHandler)` above it): the request's
# JSON body (None when it does not parse), a JSON reply with an optional Location header, no
# request log, served on $PORT of the loopback.
SERVE_JSON = '''
    def body(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            return json.loads(raw)
        except ValueError:
            return None

    def reply(self, status, body, location=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        if location:
            self.send_header("Location", location)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass

ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), H).serve_forever()
'''


def outcomes_on_variants(tmp_path: Path, task_factory: Callable[..., Path], name: str,
                         readme: str, server: str,
                         faults: dict[str, tuple[str, str]]) -> Outcomes:
    from pipeline.execution import free_port, run_pytest, start_service
    from pipeline.offline.generate import generate_cases
    from pipeline.stages.observe import observe_task
    from pipeline.suites import conftest_source, module_source

    good = load_task(task_factory(tmp_path, name, 8000, readme=readme, server=server))
    spec = load_spec(good.readme)
    spec.observed = observe_task(good, spec, 30.0, None)
    tests = tmp_path / "suite"
    tests.mkdir()
    (tests / "conftest.py").write_text(conftest_source(spec, 8000))
    (tests / "test_it.py").write_text(module_source(generate_cases(name, spec)))
    tasks = {"good": good}
    for variant, (old, new) in faults.items():
        assert server.count(old) == 1, variant
        tasks[variant] = load_task(task_factory(tmp_path / variant.replace(" ", "-"), name,
                                                8000, readme=readme,
                                                server=server.replace(old, new)))
    out: Outcomes = {}
    for variant, task in tasks.items():
        with start_service(task.oracle_dir, free_port(), None) as service:
            run = run_pytest(tests, service.base_url, 120)
        out[variant] = {t.nodeid.split("::")[-1]: t.outcome for t in run.tests}
    return out
