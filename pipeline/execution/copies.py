"""Scratch copies of a service's folder that the service may write to.

`shutil.copytree` keeps each file's mode, so a read-only source tree (a checkout mounted
read-only, a shared development set) gives a copy neither the pipeline (a mutant's patched
file) nor the sandboxed service (its SQLite file next to its settings) can write to. The copy
adds the owner's write bit; the sandbox maps the owner to the service's uid.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any


def writable_copy(src: Path, dst: Path, *, symlinks: bool = False,
                  ignore: Callable[[Any, list[str]], Any] | None = None) -> Path:
    shutil.copytree(src, dst, symlinks=symlinks, ignore=ignore)
    for root, dirs, files in os.walk(dst):
        for name in [*dirs, *files]:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | stat.S_IWUSR)
    os.chmod(dst, os.stat(dst).st_mode | stat.S_IWUSR)
    return dst
