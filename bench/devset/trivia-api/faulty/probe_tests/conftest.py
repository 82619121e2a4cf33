"""Probe suite configuration: the service under test is at SERVICE_BASE_URL
(default http://127.0.0.1:9209)."""
import os

os.environ.setdefault("SERVICE_BASE_URL", "http://127.0.0.1:9209")
