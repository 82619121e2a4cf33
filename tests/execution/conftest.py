"""Fixtures for the execution tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# Let the test modules import exec_helpers whatever pytest's import mode is.
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    """Never touch the real ~/.cache/repogenesis from tests."""
    monkeypatch.setenv("REPOGENESIS_CACHE_DIR", str(tmp_path / "cache"))
