"""Mutant selection: capped, deterministic for a seed, spread over files and operators."""

from __future__ import annotations

from collections import Counter

from pipeline.mutation.operators import Mutant
from pipeline.mutation.select import select_mutants


def _mutants() -> list[Mutant]:
    out = []
    plan = {("a.py", "constant"): 50, ("a.py", "status_code"): 3, ("a.py", "comparison"): 6,
            ("b.py", "constant"): 20, ("b.py", "return"): 4}
    for (file, op), n in sorted(plan.items()):
        for i in range(n):
            out.append(Mutant(id=f"{file}:{i}:{op}:1", file=file, line=i + 1, operator=op,
                              description="", source=""))
    return out


def test_cap_is_respected_and_the_choice_is_deterministic():
    mutants = _mutants()
    first = select_mutants(mutants, 20, seed=7)
    assert len(first) == 20
    assert first == select_mutants(mutants, 20, seed=7)
    assert first == select_mutants(list(mutants), 20, seed="7")  # same seed, same choice
    assert select_mutants(mutants, 20, seed=8) != first


def test_choice_is_spread_over_files_and_operators():
    chosen = select_mutants(_mutants(), 20, seed=0)
    groups = Counter((m.file, m.operator) for m in chosen)
    assert len(groups) == 5  # every (file, operator) group is represented
    assert groups[("a.py", "status_code")] == 3  # small groups are taken whole
    assert groups[("b.py", "return")] == 4
    assert max(groups.values()) - min(groups.values()) <= 2


def test_choice_keeps_source_order_and_handles_edge_caps():
    mutants = _mutants()
    chosen = select_mutants(mutants, 10)
    positions = [mutants.index(m) for m in chosen]
    assert positions == sorted(positions)
    assert select_mutants(mutants, None) == mutants
    assert select_mutants(mutants, 10_000) == mutants
    assert select_mutants(mutants, 0) == []
    assert select_mutants([], 5) == []
