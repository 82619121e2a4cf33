"""Mutation testing of a task's oracle: what each black-box test case can catch.

Why our own mutator rather than mutmut or cosmic-ray. Both are built to mutate a project and
run *its* test command per mutant: mutmut 3 (in this venv) rewrites every function into a
"trampoline" that picks the active mutant from `MUTANT_UNDER_TEST` at call time, which needs
mutmut importable inside the service's own environment, and runs pytest in-process with its
own forked workers, coverage-based test selection and a `mutants/` cache in the project;
cosmic-ray mutates files in place, one at a time, from a session database, and runs a shell
test command that only tells killed/survived for the whole suite. Neither starts a *service*
per mutant, runs a black-box suite over HTTP against it on a free port, or records which test
case killed which mutant, and neither does Java. What we need from them is the operator set,
so `operators` borrows mutmut's (comparison and boolean flips, numbers +/-1, strings changed,
True/False) and adds the ones that matter for REST services (status codes, statements removed,
return values changed); `java` is a smaller source-level set for Java oracles. Our runner
reuses the project's own execution layer (`start_service`, `run_pytest`, process groups).

Modules: `operators` / `java` (pure: source -> mutants), `oracle` (pure: an oracle's files ->
mutants, by the language registry), `select` (pure: capped, spread, seeded choice),
`scores` (pure: runs -> the task.json block), `runner` (the I/O: services).
"""

from .java import java_mutants
from .operators import OPERATORS, Mutant, python_mutants
from .oracle import oracle_mutants
from .runner import MutationOptions, mutation_report, run_mutation
from .scores import (
    MutantResult,
    case_map_from_task_json,
    merge_rounds,
    mutation_scores,
)
from .select import DEFAULT_CAP, select_mutants

__all__ = [
    "DEFAULT_CAP", "OPERATORS", "Mutant", "MutantResult", "MutationOptions",
    "case_map_from_task_json", "java_mutants", "merge_rounds", "mutation_report",
    "mutation_scores", "oracle_mutants", "python_mutants", "run_mutation", "select_mutants",
]
