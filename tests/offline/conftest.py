"""Fixtures for the offline reviewer tests."""

from __future__ import annotations

import sys
from pathlib import Path

# Let the test modules import review_samples whatever pytest's import mode is.
sys.path.insert(0, str(Path(__file__).parent))
