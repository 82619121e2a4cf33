"""Creates the employees table in the SQLite file named by DATABASE_URL (sqlite:///<path>).

Added for the development set (not upstream): upstream expects an existing PostgreSQL table
("Set up your PostgreSQL database"); its columns, as recorded in keploy/test-set-0/mocks.yaml,
are id (serial int4), first_name, last_name, email, position (varchar), salary (numeric) and
date_hired (date). The SQLite table mirrors them; id never reuses a deleted value
(AUTOINCREMENT, like a PostgreSQL serial) and date_hired defaults to the current date.
"""
import os
import sqlite3

url = os.environ["DATABASE_URL"]
assert url.startswith("sqlite:///"), url
conn = sqlite3.connect(url[len("sqlite:///"):])
conn.execute(
    """CREATE TABLE IF NOT EXISTS employees (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        first_name VARCHAR(50) NOT NULL,
        last_name VARCHAR(50) NOT NULL,
        email VARCHAR(100) NOT NULL,
        position VARCHAR(50) NOT NULL,
        salary REAL NOT NULL,
        date_hired DATE DEFAULT CURRENT_DATE
    )"""
)
conn.commit()
conn.close()
