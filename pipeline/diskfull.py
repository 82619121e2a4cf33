"""A full disk is the operator's to fix, not a crash: one line naming the folder and the fix.

SQLite keeps the store whole when a write fails (the transaction rolls back, the WAL is not
applied), so the message can promise that everything stored before is kept. Recognised: an
`OSError` with ENOSPC / EDQUOT / EFBIG (a file-size limit), SQLite's SQLITE_FULL ("database
or disk is full") and SQLITE_IOERR_WRITE (how SQLite reports EFBIG), also when wrapped.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
SQLITE_FULL = 13
SQLITE_IOERR_WRITE = 778


def disk_full(exc: BaseException | None) -> bool:
    """Whether `exc` (or an exception it was raised from) is a write refused for space."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in FULL_ERRNOS:
            return True
        if isinstance(exc, sqlite3.Error) and (
                getattr(exc, "sqlite_errorcode", None) in (SQLITE_FULL, SQLITE_IOERR_WRITE)
                or "disk is full" in str(exc)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def disk_full_message(data: Path) -> str:
    return (f"no space left to write under {data} (disk full or a file-size limit); free "
            "space there and run the same command again: everything stored before is kept")
