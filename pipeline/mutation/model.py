"""What every mutation operator shares (pure): the mutant record, a candidate edit, naming.

Kept apart from the operator modules (`operators` for Python, `java`, a language module's
own) so that each of them imports this one and none imports another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

#: Status code -> the plausible wrong one a careless implementation would send.
STATUS_SWAP = {
    200: 201, 201: 200, 202: 200, 204: 200, 301: 302, 302: 301, 303: 302, 307: 302,
    400: 422, 401: 403, 403: 401, 404: 400, 405: 400, 406: 400, 409: 400, 410: 404,
    412: 409, 413: 400, 415: 400, 422: 400, 429: 400, 500: 503, 501: 500, 502: 500,
    503: 500,
}


@dataclass(frozen=True)
class Mutant:
    """One mutant: which file of the oracle it changes, where, how, and the file's new text."""

    id: str
    file: str  # posix path relative to the oracle folder
    line: int
    operator: str
    description: str
    source: str  # the whole mutated file

    @property
    def kind(self) -> str:
        """The fault kind (the operator's name; `status_code` is "an error status swapped")."""
        return self.operator

    def summary(self) -> dict[str, object]:
        return {"id": self.id, "file": self.file, "line": self.line, "operator": self.operator,
                "kind": self.kind, "description": self.description}


class Edit(NamedTuple):
    """Replace characters [start, end) of the file with `text` (a candidate mutation)."""

    start: int
    end: int
    line: int
    operator: str
    description: str
    text: str


def mutate_status(code: int) -> int:
    """The status a mutant sends instead of `code`."""
    if code in STATUS_SWAP:
        return STATUS_SWAP[code]
    base = code // 100 * 100
    return base if base != code else code + 1


def apply_edit(source: str, edit: Edit) -> str:
    return source[: edit.start] + edit.text + source[edit.end:]


def name_mutants(path: str, kept: list[tuple[Edit, str]]) -> list[Mutant]:
    """Give each mutant its id: `<file>:<line>:<operator>:<n>` (n counts from 1 per line+op)."""
    counts: dict[tuple[int, str], int] = {}
    out = []
    for edit, mutated in kept:
        key = (edit.line, edit.operator)
        counts[key] = counts.get(key, 0) + 1
        out.append(Mutant(id=f"{path}:{edit.line}:{edit.operator}:{counts[key]}", file=path,
                          line=edit.line, operator=edit.operator,
                          description=edit.description, source=mutated))
    return out
