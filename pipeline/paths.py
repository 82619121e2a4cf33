"""Where the project's bundled resources live (rubrics, prompts)."""

from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RUBRICS_DIR = PROJECT_ROOT / "rubrics"
PROMPTS_DIR = PROJECT_ROOT / "prompts"
