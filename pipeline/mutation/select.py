"""Choose which mutants to run: at most `cap`, spread over files and operators (pure).

Mutants are grouped by (file, operator); each group is shuffled with a generator seeded from
`seed` and the group's own name (string seeds hash with SHA-512, so the choice is the same in
every process and on every machine), then groups are visited round-robin in a fixed order,
taking one mutant each turn, until `cap` are chosen. Every operator of every file gets its turn
before any gets a second one, so a file full of string constants cannot crowd out the few
status-code or comparison mutants. The result keeps the input order (source order).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .operators import OPERATORS, Mutant

DEFAULT_CAP = 40
DEFAULT_SEED = 0


def _operator_rank(op: str) -> int:
    return OPERATORS.index(op) if op in OPERATORS else len(OPERATORS)


def select_mutants(mutants: Sequence[Mutant], cap: int | None = DEFAULT_CAP,
                   seed: int | str = DEFAULT_SEED) -> list[Mutant]:
    """At most `cap` of `mutants` (all of them when `cap` is None), deterministic for a seed."""
    if cap is None or cap >= len(mutants):
        return list(mutants)
    if cap <= 0:
        return []
    groups: dict[tuple[str, str], list[int]] = {}
    for index, mutant in enumerate(mutants):
        groups.setdefault((mutant.file, mutant.operator), []).append(index)
    order = sorted(groups, key=lambda k: (_operator_rank(k[1]), k[0], k[1]))
    queues = []
    for key in order:
        members = groups[key]
        random.Random(f"{seed}:{key[0]}:{key[1]}").shuffle(members)
        queues.append(members)
    chosen: list[int] = []
    turn = 0
    while len(chosen) < cap:
        queue = queues[turn % len(queues)]
        if queue:
            chosen.append(queue.pop())
        turn += 1
        if turn % len(queues) == 0 and not any(queues):
            break
    return [mutants[i] for i in sorted(chosen)]
