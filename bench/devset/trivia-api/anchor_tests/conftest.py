"""Suite configuration: the tests read SERVICE_BASE_URL (default http://127.0.0.1:9209).

Upstream builds the Flask test client (`app.test_client`) against a PostgreSQL test database
loaded from trivia.psql. The port in test_flaskr.py sends the same relative paths with
`requests` to a running service instead (see the `Client` class there).
"""
import os

os.environ.setdefault("SERVICE_BASE_URL", "http://127.0.0.1:9209")
