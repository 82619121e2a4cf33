"""A scratch copy of a read-only service folder can be written (a mutant's file, a service's
database next to its settings), keeping what is executable executable."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pipeline.execution.copies import writable_copy


def test_a_read_only_tree_copies_writable_and_keeps_its_execute_bits(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "app" / "settings").mkdir(parents=True)
    (src / "start.sh").write_text("#!/bin/sh\n")
    (src / "app" / "settings" / "local.py").write_text("X = 1\n")
    os.chmod(src / "start.sh", 0o555)
    for path in (src / "app" / "settings" / "local.py", src / "app" / "settings", src / "app",
                 src):
        os.chmod(path, 0o444 if path.is_file() else 0o555)
    try:
        dst = writable_copy(src, tmp_path / "copy")
        # the sandboxed service runs as the owner (idmapped), without root's override: the
        # owner's write bit is what lets it edit a file or add one beside it
        for path in (dst, dst / "app", dst / "app" / "settings",
                     dst / "app" / "settings" / "local.py", dst / "start.sh"):
            assert os.stat(path).st_mode & stat.S_IWUSR, path
        assert os.stat(dst / "start.sh").st_mode & stat.S_IXUSR
    finally:
        for root, _dirs, _files in os.walk(src):
            os.chmod(root, 0o755)
