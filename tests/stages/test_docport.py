"""The port a README states (stages.docport) and check's warning when task.toml differs."""

from pathlib import Path

from pipeline.stages.check import check_task
from pipeline.stages.docport import port_mentions, stated_port

ROOT = Path(__file__).resolve().parents[2]


def test_the_ways_readmes_state_a_port() -> None:
    assert stated_port("- HTTP on `0.0.0.0`, port `8108` (or `$PORT`).") == 8108
    assert stated_port("| Port | `8104`, or the value of `PORT` |") == 8104
    assert stated_port("| 端口 | `8105`（可通过环境变量 `PORT` 覆盖） |") == 8105
    assert stated_port("The service listens on `0.0.0.0:8107`; set `PORT`.") == 8107
    assert stated_port("uvicorn app.main:app --host 0.0.0.0 --port 8082 --reload") == 8082
    assert stated_port("- **Listening Port**: 8082") == 8082
    assert stated_port("curl 'http://localhost:8101/api/books?page=1'") == 8101


def test_no_port_and_the_most_mentioned_one() -> None:
    assert stated_port("# Notes\n\n### GET /notes/{id}\n\nPage 2 of 3000 notes.") is None
    assert stated_port("port 80 is privileged") is None  # below 1024: not a service port
    text = "Runs on port 8080.\n\nExamples: localhost:8000/a, localhost:8000/b"
    assert port_mentions(text) == [8080, 8000, 8000]
    assert stated_port(text) == 8000
    assert stated_port("port 9001, or port 9002") == 9001  # a tie: the first


def test_every_bundled_readme_agrees_with_its_task_toml() -> None:
    for task_dir in sorted((ROOT / "data" / "raw").iterdir()):
        if task_dir.is_dir():
            result = check_task(task_dir, run_oracle=False)
            assert not [f for f in result.findings if "states port" in f.message], task_dir


def test_check_warns_when_the_ports_disagree(tmp_path: Path, task_factory) -> None:
    README = task_factory.README
    task_dir = task_factory(tmp_path, "pinger", 8311,
                            readme=README.replace("# Ping service\n",
                                                  "# Ping service\n\nListens on port 8312.\n"))
    result = check_task(task_dir, run_oracle=False)
    warned = [f.line() for f in result.findings if "states port" in f.message]
    assert warned and "8312" in warned[0] and "8311" in warned[0]
    assert result.ok  # a warning, not an error
