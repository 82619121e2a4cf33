import os
import subprocess
from pathlib import Path

import pytest

from pipeline.stages.collect import collect, detect_license
from pipeline.tasks import TaskError, load_task

MIT = "MIT License\n\nCopyright (c) 2024 Someone\n\nPermission is hereby granted, free of charge"
APACHE = "      Apache License\n       Version 2.0, January 2004"


def make_service(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "README.md").write_text("# Notes\n\n### GET /notes\n\nList notes.\n")
    (root / "LICENSE").write_text(MIT)
    (root / "app.py").write_text("from flask import Flask\napp = Flask(__name__)\n")
    (root / "requirements.txt").write_text("flask\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_notes.py").write_text("def test_a():\n    assert 1\n")
    (root / "test_top.py").write_text("def test_b():\n    assert 1\n")
    return root


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


def test_collect_local_folder(tmp_path: Path) -> None:
    src = make_service(tmp_path / "src")
    task_dir = collect(str(src), "notes", tmp_path / "raw", domain="notes")
    task = load_task(task_dir)
    assert task.config.framework == "flask"
    assert task.config.source == "local"  # a local folder is not a GitHub repository
    assert task.config.upstream is not None and task.config.upstream.license == "MIT"
    assert (task.oracle_dir / "app.py").is_file()
    assert (task.oracle_dir / "requirements.txt").is_file()
    assert sorted(p.name for p in task.tests_dir.iterdir()) == ["test_notes.py", "test_top.py"]
    assert not (task.oracle_dir / "tests").exists()
    assert task.readme.read_text().startswith("# Notes")
    assert os.access(task.start_script, os.X_OK)


def test_collect_git_url_at_a_commit(tmp_path: Path) -> None:
    src = make_service(tmp_path / "repo")
    git(src, "init", "-q")
    git(src, "add", "-A")
    git(src, "commit", "-qm", "first")
    first = git(src, "rev-parse", "HEAD")
    (src / "LICENSE").write_text(APACHE)
    (src / "extra.py").write_text("x = 1\n")
    git(src, "commit", "-qam", "second")
    git(src, "add", "-A")
    git(src, "commit", "-qm", "third")

    old = load_task(collect(src.as_uri(), "old", tmp_path / "raw", commit=first))
    assert old.config.upstream.commit == first
    assert old.config.upstream.url == src.as_uri()
    assert old.config.upstream.license == "MIT"
    assert not (old.oracle_dir / "extra.py").exists()
    assert not (old.oracle_dir / ".git").exists()

    new = load_task(collect(src.as_uri(), "new", tmp_path / "raw"))
    assert new.config.upstream.commit == git(src, "rev-parse", "HEAD")
    assert new.config.upstream.license == "Apache-2.0"
    assert (new.oracle_dir / "extra.py").is_file()


def test_collect_refuses_symlink_outside(tmp_path: Path) -> None:
    src = make_service(tmp_path / "src")
    (tmp_path / "secret").write_text("key")
    os.symlink(tmp_path / "secret", src / "leak.txt")
    with pytest.raises(TaskError, match="leak.txt: symlink points outside"):
        collect(str(src), "leaky", tmp_path / "raw")
    assert not (tmp_path / "raw" / "leaky").exists()
    assert [p for p in (tmp_path / "raw").iterdir()] == []


def test_collect_keeps_symlink_inside(tmp_path: Path) -> None:
    src = make_service(tmp_path / "src")
    os.symlink("app.py", src / "alias.py")
    task = load_task(collect(str(src), "ok", tmp_path / "raw"))
    assert (task.oracle_dir / "alias.py").read_text() == (src / "app.py").read_text()
    assert not (task.oracle_dir / "alias.py").is_symlink()


@pytest.mark.parametrize("bad", ["../up", "a/b", "/root", ""])
def test_collect_refuses_bad_ids(tmp_path: Path, bad: str) -> None:
    src = make_service(tmp_path / "src")
    with pytest.raises(TaskError, match="not a plain name"):
        collect(str(src), bad, tmp_path / "raw")


def test_collect_refuses_option_like_commit(tmp_path: Path) -> None:
    src = make_service(tmp_path / "src")
    with pytest.raises(TaskError, match="not a commit"):
        collect(str(src), "x", tmp_path / "raw", commit="--upload-pack=evil")


def test_collect_never_overwrites(tmp_path: Path) -> None:
    src = make_service(tmp_path / "src")
    collect(str(src), "dup", tmp_path / "raw")
    with pytest.raises(TaskError, match="already exists"):
        collect(str(src), "dup", tmp_path / "raw")


def test_collect_missing_source(tmp_path: Path) -> None:
    with pytest.raises(TaskError, match="not a folder or git URL"):
        collect(str(tmp_path / "nope"), "x", tmp_path / "raw")


@pytest.mark.parametrize(
    ("text", "spdx"),
    [
        (MIT, "MIT"),
        (APACHE, "Apache-2.0"),
        ("GNU GENERAL PUBLIC LICENSE\n   Version 3, 29 June 2007", "GPL-3.0"),
        (
            "Redistribution and use in source and binary forms ... Neither the name of",
            "BSD-3-Clause",
        ),
        ("All rights reserved.", "NOASSERTION"),
    ],
)
def test_detect_license(text: str, spdx: str) -> None:
    assert detect_license(text) == spdx


def test_collect_takes_the_port_the_readme_states(tmp_path: Path) -> None:
    src = make_service(tmp_path / "src")
    (src / "README.md").write_text("# Notes\n\nListens on `0.0.0.0:8123`.\n\n### GET /notes\n"
                                   "\nList notes (`curl localhost:8123/notes`).\n")
    assert load_task(collect(str(src), "notes", tmp_path / "raw")).config.port == 8123
    # --port still wins; without a stated port the framework's default is used
    assert load_task(collect(str(src), "n2", tmp_path / "raw", port=9001)).config.port == 9001
    (src / "README.md").write_text("# Notes\n\n### GET /notes\n\nList notes.\n")
    assert load_task(collect(str(src), "n3", tmp_path / "raw")).config.port == 5000


def test_collect_records_the_source_kind(tmp_path: Path) -> None:
    from pipeline.stages.collect import source_kind

    src = make_service(tmp_path / "repo")
    git(src, "init", "-q")
    git(src, "add", "-A")
    git(src, "commit", "-qm", "first")
    assert load_task(collect(src.as_uri(), "viagit", tmp_path / "raw")).config.source == "git"
    assert source_kind("https://github.com/o/r.git") == "github"
    assert source_kind("git@github.com:o/r.git") == "github"
    assert source_kind("ssh://git@gitlab.com/o/r") == "git"
    assert source_kind("https://example.org/github.com/r") == "git"
    assert source_kind("./some/folder") == "local"
