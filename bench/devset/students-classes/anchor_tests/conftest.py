"""Suite configuration: the tests read SERVICE_BASE_URL (default http://127.0.0.1:9214) and log
in as SERVICE_USERNAME / SERVICE_PASSWORD (default dave / cat, upstream's test user, which
start.sh registers).

Upstream builds Flask's request context around `create_app('test_config')` with a fresh
in-memory database per test. The port in test_api.py sends the same requests with `requests`
to a running service instead (see the `TestClient` class there).
"""
import os

os.environ.setdefault("SERVICE_BASE_URL", "http://127.0.0.1:9214")
