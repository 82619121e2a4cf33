"""The LLM backend: the Backend protocol (pipeline/backend.py) with provider calls.

Public API:
- `LLMBackend(client, settings, *, batch=False)`: `generate`, `review`, `refine` as the build
  loop calls them; `name` is "llm:<fingerprint>" (models, sampling and prompt templates), so a
  changed model or prompt rebuilds a task, while unchanged calls still hit the cache.
- A whole round at once (`stages.round_calls`): `review_many([(case, evidence)], spec, readme,
  rubric) -> [[Review]]` and `refine_many([(case, evidence, reviews, note)], spec, readme)
  -> [TestCase]` hand every call to the client together (per-provider limits bound them).
- Batch prefetch (only with `batch=True`; the build calls them before a round's normal calls,
  which then hit the cache): `prefetch_generate(task_id, spec, readme)`,
  `prefetch_reviews([(case, evidence)], spec, readme, rubric)`,
  `prefetch_refines([(case, evidence, reviews, note)], spec, readme)`.
- `render(template, **ctx) -> list[Message]`: a prompt from `prompts/<template>`; lines
  `@@ <role> [cache]` start a message; `cache` marks the end of the shared prefix.

Failures never crash the loop: a failed review call is `Review(scores=None, error=...)`; a
generated test that fails the code checks (`schemas.check_test_code`) is dropped with a
logged reason; a failed refine returns the case unchanged (routing then counts the round).
"""

from __future__ import annotations

import ast
import hashlib
import json
import logging
import re
from collections.abc import Iterator
from functools import cache

import jinja2

from pipeline.llm.base import LLMRequest, Message
from pipeline.llm.batch import run_batch_round
from pipeline.llm.client import Call, Completion, LLMClient
from pipeline.llm.schemas import (
    EXTRA_IMPORTS,
    HEADER_IMPORTS,
    GenerateOutput,
    ImplementOutput,
    RefineOutput,
    ReviewOutput,
    check_review,
    check_test_code,
    rename_test,
)
from pipeline.llm.settings import LLMSettings, split_ref
from pipeline.offline.conftest_template import conftest_source
from pipeline.offline.gen_fallback import fill_uncovered
from pipeline.offline.shape import sketch
from pipeline.paths import PROMPTS_DIR
from pipeline.records import (
    CATEGORIES,
    Answer,
    Endpoint,
    Evidence,
    Review,
    Scores,
    Spec,
    TestCase,
)
from pipeline.rubric import Rubric
from pipeline.spec.passages import endpoint_excerpt

log = logging.getLogger("pipeline.llm")
CATEGORY_HELP = {
    "api_compliance": "a documented success path: the documented success status and the "
                      "response's documented fields, types and values.",
    "error_handling": "invalid input or a forbidden action: the exact documented 4xx status "
                      "and, where the document shows it, the error body.",
    "edge_case": "boundaries: unknown ids, empty collections, limits, pagination ends, "
                 "duplicates, as the document specifies them.",
    "integration": "a flow across two or more documented endpoints (create, then read back, "
                   "update, delete...), asserting every step.",
}
MAX_FAILURE_CHARS = 4000


@cache
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(PROMPTS_DIR), undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False, autoescape=False)


def render(template: str, **ctx: object) -> list[Message]:
    text = _env().get_template(template).render(**ctx)
    messages: list[Message] = []
    role, cache_mark, buf = None, False, []

    def flush() -> None:
        if role is not None and "".join(buf).strip():
            messages.append(Message(role=role, content="\n".join(buf).strip(), cache=cache_mark))

    for line in text.splitlines():
        if line.startswith("@@ "):
            flush()
            words = line[3:].split()
            role, cache_mark, buf = words[0], "cache" in words[1:], []
        else:
            buf.append(line)
    flush()
    return messages


def readme_excerpt(readme: str, endpoint: Endpoint, spec: Spec | None = None) -> str:
    """The document's text on an endpoint (spec.passages' one rule); empty when unknown."""
    return endpoint_excerpt(readme, endpoint.line,
                            frozenset(e.line for e in spec.endpoints) if spec else frozenset())


_VOLATILE = [  # run-to-run noise in pytest output that would defeat the response cache
    (re.compile(r"\b(?:127\.0\.0\.1|localhost|0\.0\.0\.0|\[::1\]):\d{2,5}\b"), "<service>"),
    (re.compile(r"(?:/private)?/tmp/[^\s:'\"()]+"), "<tmp>"),
    (re.compile(r"\b0x[0-9a-fA-F]{6,}\b"), "0x…"),
    (re.compile(r"\bin \d+(?:\.\d+)?s\b"), "in <t>s"),
]


def stable_text(text: str) -> str:
    for pattern, repl in _VOLATILE:
        text = pattern.sub(repl, text)
    return text


def speed(duration_s: float) -> str:
    """Durations in the rubric's bands, so timing noise does not change the prompt."""
    if duration_s > 10:
        return "very slow, over 10 s"
    return "slow, 2-10 s" if duration_s >= 2 else "under 2 s"


def as_documented(request: str, spec: Spec | None) -> str:
    """"DELETE /links/ab12" -> "DELETE /links/{code}" when a documented endpoint matches (the
    concrete ids are fresh on every run); an undocumented request stays as it was sent."""
    method, _, path = request.partition(" ")
    for ep in spec.endpoints if spec is not None else []:
        pattern = re.sub(r"\\\{[^{}]+\\\}", "[^/]+", re.escape(ep.path))
        if ep.method == method and re.fullmatch(pattern, path.split("?")[0]):
            return f"{method} {ep.path}"
    return request


def evidence_text(evidence: Evidence | None, spec: Spec | None = None) -> str:
    if evidence is None or not evidence.runs:
        return "Not executed: no evidence is available for this version."
    runs = ", ".join(f"{r.outcome} ({speed(r.duration_s)})" for r in evidence.runs)
    sent = [as_documented(r, spec) for r in evidence.requests]
    lines = [f"Runs on fresh oracles: {runs}; "
             f"{'stable' if evidence.stable else 'UNSTABLE (outcomes differ)'}.",
             f"Requests it sent (documented ones as their path template): "
             f"{', '.join(sent) or 'none recorded'}."]
    lines += mutation_lines(evidence)
    references = [a for a in evidence.alternatives if not a.suspect]
    if references:
        shown = ", ".join(f"{a.name!r}: {a.outcome}" for a in references)
        lines.append(f"Runs on independent correct implementations of the document (written "
                     f"from the README alone): {shown}"
                     + ("; failing there means it asserts what the document does not state."
                        if evidence.rejects_alternative else "."))
    suspects = [a for a in evidence.alternatives if a.suspect]
    if suspects:
        shown = ", ".join(f"{a.name!r}: {a.outcome}" for a in suspects)
        lines.append(f"Runs on implementations a model wrote from the README alone (suspects, "
                     f"not references: either the test or the model's reading may be wrong): "
                     f"{shown}.")
    failure = failure_output(evidence)
    if failure:
        lines += ["Failure output of the first failing run:", "```", failure, "```"]
    return "\n".join(lines)


def mutation_lines(evidence: Evidence) -> list[str]:
    """Real mutant kills: faults planted in the oracle ("file:line:operator:n") the test
    failed on while it passed on the unmutated oracle."""
    m = evidence.mutation
    if m is None:
        return []
    head = "Mutants of the oracle (faults planted in the reference implementation): "
    if m.excluded is not None:
        return [head + f"no kill credit ({m.excluded})."]
    if not m.valid:
        return [head + "none of them started, so there is no kill evidence."]
    killed = ", ".join(m.killed) if m.killed else "none"
    only = (f" {len(m.unique)} of them no other test of its round catches"
            f" ({', '.join(m.unique)});" if m.unique else "")
    lines = [head + f"it fails on {len(m.killed)} of the {m.valid} that ran: {killed};{only} "
             f"the round's tests together catch {m.round_killed} of {m.valid}."]
    if m.endpoint_mutants:
        own = sorted(set(m.killed) & set(m.endpoint_mutants))
        lines.append(
            f"Mutants in the handlers of the endpoints it targets: {len(m.endpoint_mutants)}; "
            f"it kills {len(own)} of them, other tests kill {len(m.endpoint_killed_by_others)}"
            + (" (a success-path test that catches none of its own endpoints' bugs while "
               "other tests do is evidence of a weak test)."
               if not own and m.endpoint_killed_by_others else "."))
    return lines


def failure_output(evidence: Evidence | None) -> str:
    """The first failing run's output: on the oracle, else on an alternative (named)."""
    for run in evidence.runs if evidence is not None else []:
        if run.outcome != "passed":
            text = stable_text(run.output)[-MAX_FAILURE_CHARS:].strip()
            return text or f"(outcome {run.outcome})"
    for alt in evidence.rejects_alternative if evidence is not None else []:
        text = stable_text(alt.output)[-MAX_FAILURE_CHARS:].strip()
        return (f"(passes on the oracle; on the independent correct implementation "
                f"{alt.name!r}, {alt.outcome}:)\n{text}")
    for alt in evidence.fails_on_suspects if evidence is not None else []:
        text = stable_text(alt.output)[-MAX_FAILURE_CHARS:].strip()
        return (f"(passes on the oracle; on the model-written implementation {alt.name!r}, a "
                f"suspect, {alt.outcome}:)\n{text}")
    return ""


def fixtures_of(conftest: str) -> list[str]:
    names = []
    for node in ast.parse(conftest).body:
        if isinstance(node, ast.FunctionDef) and any(
                "fixture" in ast.unparse(d) for d in node.decorator_list):
            names.append(node.name)
    return names


class LLMBackend:
    def __init__(self, client: LLMClient, settings: LLMSettings, *, batch: bool = False) -> None:
        self.client = client
        self.settings = settings
        self.batch = batch
        self.name = f"llm:{self.fingerprint()}"
        self._last_base: tuple[Spec, str, dict[str, object]] | None = None

    def fingerprint(self) -> str:
        s = self.settings
        digest = hashlib.sha256(json.dumps(
            [s.generator, s.reviewers, s.refiner, s.temperature, s.max_tokens,
             s.tests_per_prompt]).encode())
        for path in sorted(PROMPTS_DIR.glob("*.j2")):
            digest.update(path.read_bytes())
        return digest.hexdigest()[:12]

    @property
    def reviewer_count(self) -> int:
        """One review per configured reviewer: the router needs this many valid ones."""
        return len(self.settings.reviewers)

    # --- shared -----------------------------------------------------------------------------

    def _request(self, ref: str, stage: str, messages: list[Message]) -> LLMRequest:
        provider, model = split_ref(ref)
        return LLMRequest(provider=provider, model=model, messages=messages, stage=stage,
                          temperature=self.settings.temperature_for(ref),
                          max_tokens=self.settings.max_tokens)

    def _base(self, spec: Spec, readme: str) -> dict[str, object]:
        """The task's shared prompt context; kept for the last task asked (a round renders
        it for every call, and building the conftest costs more than the rest)."""
        last = self._last_base
        if last is not None and last[0] is spec and last[1] == readme:
            return dict(last[2])
        conftest = conftest_source(spec, spec.port or 8000)
        base = {"readme": readme.strip(), "conftest": conftest.strip(),
                "fixtures": fixtures_of(conftest), "header_imports": HEADER_IMPORTS,
                "extra_imports": EXTRA_IMPORTS, "observed": sketch(spec.observed)}
        self._last_base = (spec, readme, base)
        return dict(base)

    def _batch(self, calls: list[Call]) -> None:
        if self.batch and calls:
            report = run_batch_round(self.client, calls)
            log.info("batch round: %s", report)

    # --- generate ---------------------------------------------------------------------------

    def generate_calls(self, task_id: str, spec: Spec, readme: str) -> list[Call]:
        base = self._base(spec, readme)
        keys = [f"{e.method} {e.path}" for e in spec.endpoints]
        calls = []
        for ep, key in zip(spec.endpoints, keys, strict=True):
            dumped = ep.model_dump(mode="json", exclude={"line"}, exclude_defaults=True)
            others = [f"{k}: {e.summary}".rstrip(": ") for e, k in
                      zip(spec.endpoints, keys, strict=True) if k != key]
            for category in CATEGORIES:
                messages = render(
                    "generate.j2", **base, category=category,
                    category_help=CATEGORY_HELP[category], endpoint_key=key,
                    excerpt=readme_excerpt(readme, ep, spec), other_endpoints=others,
                    endpoint_json=json.dumps(dumped, indent=1, ensure_ascii=False),
                    count=self.settings.tests_per_prompt)
                calls.append(Call(self._request(self.settings.generator, "generate", messages),
                                  GenerateOutput, context={"task_id": task_id},
                                  meta={"category": category, "endpoint": key}))
        return calls

    def prefetch_generate(self, task_id: str, spec: Spec, readme: str) -> None:
        self._batch(self.generate_calls(task_id, spec, readme))

    def generate(self, task_id: str, spec: Spec, readme: str) -> list[TestCase]:
        calls = self.generate_calls(task_id, spec, readme)
        self._batch(calls)
        fixtures = set(fixtures_of(conftest_source(spec, spec.port or 8000)))
        documented = {f"{e.method} {e.path}" for e in spec.endpoints}
        cases: list[TestCase] = []
        names: set[str] = set()
        for call, done in zip(calls, self.client.complete_all(calls), strict=True):
            where = f"{task_id} {call.meta['endpoint']} {call.meta['category']}"
            if not done.ok or not isinstance(done.value, GenerateOutput):
                log.warning("generation failed for %s: %s", where, done.error)
                continue
            for test in done.value.tests:
                try:
                    code, name = check_test_code(test.code, fixtures)
                except ValueError as exc:
                    log.warning("dropped generated test %r (%s): %s", test.name, where, exc)
                    continue
                unique = name
                n = 1
                while unique in names:
                    n += 1
                    unique = f"{name}_{n}"
                names.add(unique)
                endpoints = [e for e in dict.fromkeys(
                    [call.meta["endpoint"], *(" ".join(x.split()) for x in test.endpoints)])
                    if e in documented]
                cases.append(TestCase(
                    case_id=f"{task_id}::{unique}", task_id=task_id, round=0,
                    category=call.meta["category"], name=unique,
                    code=rename_test(code, name, unique), endpoints=endpoints,
                    origin="generated", author=self.settings.generator))
        # never an empty suite: endpoints the model wrote nothing for get the offline fallback
        return cases + fill_uncovered(task_id, spec, cases, "auth_headers" in fixtures)

    # --- implementations (`build --alternatives K`) ------------------------------------------

    writes_implementations = True

    def implement(self, task_id: str, spec: Spec, readme: str,
                  count: int) -> list[dict[str, str] | None]:
        """`count` implementations of the README by the generator model, each as its files
        (path -> content); None where the call failed (logged). The variant number is in the
        prompt, so each is its own request (and cache entry)."""
        calls = [Call(self._request(self.settings.generator, "implement", render(
            "implement.j2", readme=readme.strip(), variant=i, count=count)), ImplementOutput,
            context={"task_id": task_id}, meta={"variant": i}) for i in range(1, count + 1)]
        self._batch(calls)
        out: list[dict[str, str] | None] = []
        for call, done in zip(calls, self.client.complete_all(calls), strict=True):
            if not done.ok or not isinstance(done.value, ImplementOutput):
                log.warning("implementation %d of %s failed: %s", call.meta["variant"],
                            task_id, done.error)
                out.append(None)
                continue
            out.append({f.path: f.content for f in done.value.files}
                       | {"NOTES.md": done.value.notes})
        return out

    # --- review -----------------------------------------------------------------------------

    def review_calls(self, case: TestCase, evidence: Evidence | None, spec: Spec, readme: str,
                     rubric: Rubric) -> list[Call]:
        by_key = {f"{e.method} {e.path}": e for e in spec.endpoints}
        texts = {k: readme_excerpt(readme, by_key[k], spec) for k in case.endpoints
                 if k in by_key}
        excerpts = [{"key": k, "text": t} for k, t in texts.items() if t]
        messages = render("review.j2", **self._base(spec, readme),
                          rubric_text=rubric.render_text(), case=case, code=case.code.strip(),
                          excerpts=excerpts, evidence=evidence_text(evidence, spec))
        return [Call(self._request(ref, "review", messages), ReviewOutput,
                     check=lambda v: check_review(v, rubric),  # type: ignore[arg-type]
                     context={"task_id": case.task_id, "case_id": case.case_id},
                     meta={"reviewer": ref, "rubric_hash": rubric.hash})
                for ref in self.settings.reviewers]

    def prefetch_reviews(self, items: list[tuple[TestCase, Evidence | None]], spec: Spec,
                         readme: str, rubric: Rubric) -> None:
        self._batch([c for case, ev in items
                     for c in self.review_calls(case, ev, spec, readme, rubric)])

    def review(self, case: TestCase, evidence: Evidence | None, spec: Spec, readme: str,
               rubric: Rubric) -> list[Review]:
        return self.review_many([(case, evidence)], spec, readme, rubric)[0]

    def review_many(self, items: list[tuple[TestCase, Evidence | None]], spec: Spec,
                    readme: str, rubric: Rubric) -> list[list[Review]]:
        """The reviews of every case of a round, all calls handed to the client at once (the
        per-provider limits are the only bound), in the order of `items`."""
        per_case: list[list[Call]] = []

        def each() -> Iterator[Call]:  # rendered while the first chunks are in flight
            for case, ev in items:
                per_case.append(self.review_calls(case, ev, spec, readme, rubric))
                yield from per_case[-1]
        done = iter(self.client.complete_all(each()))
        return [[self._review(case, call, next(done)) for call in calls]
                for (case, _), calls in zip(items, per_case, strict=True)]

    @staticmethod
    def _review(case: TestCase, call: Call, done: Completion) -> Review:
        common = {"case_id": case.case_id, "round": case.round,
                  "reviewer": call.meta["reviewer"], "rubric_hash": call.meta["rubric_hash"]}
        if done.ok and isinstance(done.value, ReviewOutput):
            return Review(**common, scores=Scores(**done.value.scores()),
                          rationale=done.value.rationale.strip())
        return Review(**common, scores=None, error=done.error or "failed")

    # --- refine -----------------------------------------------------------------------------

    def refine_call(self, case: TestCase, evidence: Evidence | None, reviews: list[Review],
                    spec: Spec, readme: str, note: str | None = None) -> Call:
        from pipeline.rubric import load_rubric

        shown = [{"reviewer": r.reviewer, "scores": r.scores, "rationale": r.rationale,
                  "total": r.scores.total if r.scores else None,
                  "detail": ", ".join(f"{k} {v}" for k, v in r.scores.model_dump().items())
                  if r.scores else ""} for r in reviews]
        messages = render("refine.j2", **self._base(spec, readme),
                          rubric_text=load_rubric().render_text(), case=case,
                          code=case.code.strip(), reviews=shown,
                          failure=failure_output(evidence), note=note or "")
        return Call(self._request(self.settings.refiner, "refine", messages), RefineOutput,
                    context={"task_id": case.task_id, "case_id": case.case_id})

    def prefetch_refines(self, items: list[tuple[TestCase, Evidence | None, list[Review],
                                                 str | None]], spec: Spec, readme: str) -> None:
        self._batch([self.refine_call(c, ev, rv, spec, readme, note)
                     for c, ev, rv, note in items])

    def refine(self, case: TestCase, evidence: Evidence | None, reviews: list[Review],
               spec: Spec, readme: str, note: str | None = None) -> TestCase:
        return self.refine_many([(case, evidence, reviews, note)], spec, readme)[0]

    def refine_many(self, items: list[tuple[TestCase, Evidence | None, list[Review],
                                            str | None]], spec: Spec,
                    readme: str) -> list[TestCase]:
        """The next version of every case of a round sent back, all calls at once; a case
        whose call failed comes back unchanged (routing then counts the round)."""
        calls = [self.refine_call(c, ev, rv, spec, readme, note) for c, ev, rv, note in items]
        done = self.client.complete_all(calls)
        return [self._refined(case, reviews, result, spec)
                for (case, _, reviews, _), result in zip(items, done, strict=True)]

    def _refined(self, case: TestCase, reviews: list[Review], done: Completion,
                 spec: Spec) -> TestCase:
        if not done.ok or not isinstance(done.value, RefineOutput):
            log.warning("refine of %s failed, kept unchanged: %s", case.case_id, done.error)
            return case
        own_conftest = case.origin == "existing" or case.module is not None
        fixtures = None if own_conftest else set(fixtures_of(conftest_source(
            spec, spec.port or 8000)))
        try:
            code, name = check_test_code(done.value.code, fixtures)
        except ValueError as exc:
            log.warning("refined %s rejected, kept unchanged: %s", case.case_id, exc)
            return case
        return case.model_copy(update={
            "round": case.round + 1, "code": rename_test(code, name, case.name),
            "origin": "refined", "author": self.settings.refiner,
            "rebuttal": rebuttal(done.value, reviews)})


def rebuttal(output: RefineOutput, reviews: list[Review]) -> list[Answer]:
    """The model's answers, one per review: matched by reviewer name, else by position (a
    model may not copy the names exactly); reviews it did not answer get an empty answer."""
    given = list(output.answers)
    by_name = {a.reviewer.strip(): a for a in given}
    out = []
    for i, review in enumerate(reviews):
        found = by_name.get(review.reviewer) or (given[i] if i < len(given) else None)
        out.append(Answer(reviewer=review.reviewer,
                          changed=found.changed.strip() if found else "",
                          disagree=found.disagree.strip() if found else ""))
    return out
