"""Words of a path: its segments, parameters, and the singular noun a collection names."""

from __future__ import annotations

import re

from pipeline.spec.paths import singular as singular  # one home: re-exported


def is_param(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def segments(path: str) -> list[str]:
    return [s for s in path.split("/") if s]


def snake(name: str) -> str:
    name = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    return re.sub(r"[^0-9A-Za-z]+", "_", name).strip("_").lower() or "item"

#: A body key naming another record by its id (`author_id`, `tagIds`) or by a natural key.
REFERENCE_KEY = re.compile(r"(?:_id|Id|_ids|Ids)$|^(?:sku|isbn)$")
