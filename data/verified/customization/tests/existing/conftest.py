"""Not part of the published tests: added so they reach the service under test.

The published test classes hard-code `BASE_URL = "http://localhost:8082/api/v1"`. Here each
class's BASE_URL keeps its path and takes the address from `SERVICE_BASE_URL` (default
`http://localhost:8082`, the documented port), so the test files stay exactly as published.
"""

import os
from urllib.parse import urlsplit

DEFAULT_BASE_URL = "http://localhost:8082"


def rebased(url: str) -> str:
    base = os.environ.get("SERVICE_BASE_URL", DEFAULT_BASE_URL).rstrip("/")
    return base + urlsplit(url).path


def pytest_collection_modifyitems(config, items):
    for item in items:
        cls = getattr(item, "cls", None)
        if cls is None or not isinstance(getattr(cls, "BASE_URL", None), str):
            continue
        if "_PUBLISHED_BASE_URL" not in vars(cls):
            cls._PUBLISHED_BASE_URL = cls.BASE_URL
        cls.BASE_URL = rebased(cls._PUBLISHED_BASE_URL)
