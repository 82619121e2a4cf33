"""Loads the rows of trivia.psql (the README's `psql trivia < trivia.psql` step) into the
database named by DATABASE_URL (a fresh SQLite file made by start.sh). Added for the devset:
upstream seeds PostgreSQL with psql; only the COPY data blocks are read here."""
import os
import sqlite3

from flaskr import app  # noqa: F401  (setup_db -> db.create_all() makes the tables)

url = os.environ["DATABASE_URL"]
path = url[len("sqlite:///"):]
con = sqlite3.connect(path)
table = cols = None
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "trivia.psql"), encoding="utf-8") as fh:
    for line in fh:
        line = line.rstrip("\n")
        if line.startswith("COPY public."):
            head = line[len("COPY public."):]
            table = head.split(" ", 1)[0]
            cols = head[head.index("(") + 1:head.index(")")]
            continue
        if table is None:
            continue
        if line == "\\.":
            table = None
            continue
        values = [None if v == "\\N" else v for v in line.split("\t")]
        marks = ", ".join("?" for _ in values)
        con.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", values)
con.commit()
con.close()
