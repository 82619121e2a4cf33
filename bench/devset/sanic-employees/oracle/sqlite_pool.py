"""Minimal stand-in for the part of asyncpg that server.py uses, backed by SQLite.

Added for the development set (not upstream): upstream server.py talks to PostgreSQL through
asyncpg (`create_pool`, `pool.acquire()`, `connection.execute/fetch/fetchrow`, `pool.close()`).
This module offers the same calls on a SQLite file so that the service runs without a
database server. Differences kept as small as possible:
  * the DSN is `sqlite:///<path>` (start.sh sets DATABASE_URL);
  * `$1, $2, ...` placeholders are rewritten to SQLite's numbered `?1, ?2, ...`;
  * `execute` returns the PostgreSQL command tag ("INSERT 0 1", "UPDATE 0", "DELETE 1", ...),
    which server.py compares with "UPDATE 0" / "DELETE 0";
  * rows are sqlite3.Row objects (indexable by column name, like asyncpg Records), and DATE
    columns come back as datetime.date (sqlite3 PARSE_DECLTYPES), as asyncpg returns them.
"""
import re
import sqlite3
from contextlib import asynccontextmanager

_PLACEHOLDER = re.compile(r"\$(\d+)")


def _sql(query):
    return _PLACEHOLDER.sub(r"?\1", query)


class Connection:
    def __init__(self, conn):
        self._conn = conn

    async def execute(self, query, *args):
        cur = self._conn.execute(_sql(query), args)
        self._conn.commit()
        verb = query.strip().split(None, 1)[0].upper()
        if verb == "INSERT":
            return "INSERT 0 %d" % cur.rowcount
        if verb in ("UPDATE", "DELETE"):
            return "%s %d" % (verb, cur.rowcount)
        return verb

    async def fetch(self, query, *args):
        return self._conn.execute(_sql(query), args).fetchall()

    async def fetchrow(self, query, *args):
        return self._conn.execute(_sql(query), args).fetchone()


class Pool:
    def __init__(self, path):
        self._conn = sqlite3.connect(path, detect_types=sqlite3.PARSE_DECLTYPES,
                                     check_same_thread=False)
        self._conn.row_factory = sqlite3.Row

    @asynccontextmanager
    async def acquire(self):
        yield Connection(self._conn)

    async def close(self):
        self._conn.close()


async def create_pool(dsn, loop=None, **kwargs):
    if not dsn.startswith("sqlite:///"):
        raise ValueError("sqlite_pool expects a sqlite:///<path> DSN, got %r" % dsn)
    return Pool(dsn[len("sqlite:///"):])
