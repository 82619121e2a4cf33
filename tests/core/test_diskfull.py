"""Which errors mean "no space left": the one-line message of `build` depends on it."""

from __future__ import annotations

import errno
import sqlite3

from pipeline.diskfull import disk_full


def _raised_from(inner: BaseException) -> RuntimeError:
    try:
        try:
            raise inner
        except BaseException as exc:
            raise RuntimeError("while publishing") from exc
    except RuntimeError as outer:
        return outer


def test_space_errors_are_recognised_also_when_wrapped() -> None:
    assert disk_full(OSError(errno.ENOSPC, "No space left on device"))
    assert disk_full(OSError(errno.EFBIG, "File too large"))
    assert disk_full(sqlite3.OperationalError("database or disk is full"))
    assert disk_full(_raised_from(OSError(errno.EDQUOT, "Disk quota exceeded")))


def test_other_errors_are_not_a_full_disk() -> None:
    assert not disk_full(OSError(errno.EACCES, "Permission denied"))
    assert not disk_full(sqlite3.OperationalError("no such table: tasks"))
    assert not disk_full(_raised_from(ValueError("bad value")))
    assert not disk_full(None)
