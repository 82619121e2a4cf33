"""`repogenesis evaluate`: score generated repositories against output tasks.

Deployment Success Rate (the service answers HTTP on the task's port), Pass@1 and the unbiased
Pass@k, the fraction of tests passed, and API Coverage by static route analysis. `metrics` is
pure; `run` and `split` start services through `pipeline.execution`.
"""

from .metrics import METRICS, pass_at_k, pass_at_ks, pass_rate, sample_pass, summarize
from .run import (
    EvaluateError,
    PortBusyError,
    evaluate_candidate,
    evaluate_samples,
    load_task,
    static_coverage,
)
from .split import evaluate_split
from .workspace import START_SCRIPTS, find_start_script

__all__ = [
    "METRICS", "START_SCRIPTS", "EvaluateError", "PortBusyError", "evaluate_candidate",
    "evaluate_samples", "evaluate_split", "find_start_script", "load_task", "pass_at_k",
    "pass_at_ks", "pass_rate", "sample_pass", "static_coverage", "summarize",
]
