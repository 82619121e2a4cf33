"""Words of a path: its segments, parameters, and the singular noun a collection names."""

from __future__ import annotations

import re


def is_param(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def segments(path: str) -> list[str]:
    return [s for s in path.split("/") if s]


def snake(name: str) -> str:
    name = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    return re.sub(r"[^0-9A-Za-z]+", "_", name).strip("_").lower() or "item"


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        return word[:-1]
    return word
