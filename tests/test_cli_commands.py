"""`spec` and `difficulty` through the CLI, as a user runs them."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True,
                          text=True, cwd=ROOT)


def test_spec_json_lists_exactly_the_documented_endpoints() -> None:
    proc = run("spec", "data/raw/file-vault/README.md", "--json")
    assert proc.returncode == 0, proc.stderr
    endpoints = json.loads(proc.stdout)
    assert {(e["method"], e["path"]) for e in endpoints} == {
        ("GET", "/api/v1/health"), ("POST", "/api/v1/files"), ("GET", "/api/v1/files"),
        ("GET", "/api/v1/files/{file_id}"), ("GET", "/api/v1/files/{file_id}/content"),
        ("DELETE", "/api/v1/files/{file_id}"), ("POST", "/api/v1/files/batch-delete"),
        ("GET", "/api/v1/storage-usage"),
    }


def test_spec_on_a_missing_file_is_one_line() -> None:
    proc = run("spec", "no/such/README.md", "--json")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "no/such/README.md" in proc.stderr


def test_difficulty_json_shape_and_arithmetic() -> None:
    proc = run("difficulty", "data/raw/inventory-java", "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    keys = {"loc", "cyclomatic_complexity", "files", "endpoints", "functions_classes"}
    assert set(d["metrics"]) == keys and set(d["points"]) == keys
    assert abs(sum(d["points"].values()) - d["score"]) < 1e-9
    assert d["level"] in ("Easy", "Medium", "Hard")
    assert d["metrics"]["files"] == len(list((ROOT / "data/raw/inventory-java/oracle")
                                             .rglob("*.java")))
    assert d["metrics"]["endpoints"] == 9
    assert d["metrics"]["loc"] > 500  # the hand-written JSON parser makes it the biggest oracle


def test_difficulty_of_a_bad_folder_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "task.toml").write_text("id = 1\n")
    proc = run("difficulty", str(tmp_path), "--json")
    assert proc.returncode == 1
    assert proc.stdout == "" and proc.stderr.count("\n") == 1
