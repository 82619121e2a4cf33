"""Typed records shared by every stage.

Records are plain pydantic models with no I/O so the pure core (routing, alpha,
difficulty, matching) can be tested with hand-built values.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
)

from pipeline.languages import is_known, names

TASK_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
TASK_ID_RE = re.compile(TASK_ID_PATTERN)
_CLASS_NAME = re.compile(r"^\s*class\s+(\w+)", re.M)
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")

SplitName = Literal["verified", "train", "auto"]
Level = Literal["Easy", "Medium", "Hard"]


class Upstream(BaseModel):
    """Where an imported task came from (collect fills it)."""

    model_config = ConfigDict(extra="forbid")
    url: str | None = None
    commit: str | None = None
    license: str | None = None


class Account(BaseModel):
    """An account the service has from its start, for a README whose users are made outside
    the API (`manage.py adduser <name>`): the task's start.sh registers it."""

    model_config = ConfigDict(extra="forbid")
    username: str = Field(min_length=1)
    password: str = Field(min_length=1)


class TaskConfig(BaseModel):
    """The contents of `data/raw/<id>/task.toml` (contract)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=TASK_ID_PATTERN)
    language: str  # a registered language (pipeline/builtin_languages: python, java)
    framework: str = Field(min_length=1)
    domain: str = Field(min_length=1)
    # where the task came from: a GitHub repository, another git URL, a local folder
    # (`collect` records which), or written by an expert
    source: Literal["github", "git", "local", "expert"]
    port: int = Field(ge=1024, le=65535)
    split: SplitName = "auto"
    upstream: Upstream | None = None
    account: Account | None = None

    @field_validator("language")
    @classmethod
    def _known_language(cls, v: str) -> str:
        if not is_known(v):
            raise ValueError(f"{v!r} is not a known language (known: {', '.join(names())}); "
                             f"add a module that registers it (see pipeline/builtin_languages/)")
        return v


class Param(BaseModel):
    """A documented parameter (path, query, header or body field)."""

    name: str
    location: Literal["path", "query", "header", "body"] = "query"
    type: str | None = None
    required: bool | None = None
    description: str = ""
    # JSON-schema keywords the document states: default, minimum, maximum, minLength,
    # maxLength, enum, format
    constraints: dict[str, Any] = Field(default_factory=dict)


class Endpoint(BaseModel):
    """One documented operation of a service, as a human expert reads it from the README."""

    method: str
    path: str
    summary: str = ""
    params: list[Param] = Field(default_factory=list)
    request_schema: dict[str, Any] | None = None
    request_example: Any = None
    response_schema: dict[str, Any] | None = None
    response_example: Any = None
    status_codes: dict[int, str] = Field(default_factory=dict)
    auth_required: bool | None = None
    # example bodies the document gives for specific status codes (errors included)
    response_examples: dict[int, Any] = Field(default_factory=dict)
    rate_limit: str = ""  # as documented ("10 requests per minute per user")
    # text a non-JSON (HTML, plain) success response must contain, as the document quotes it
    response_text: list[str] = Field(default_factory=list)
    # 1-based line of the document where the endpoint is first named (0: unknown)
    line: int = 0
    # the document sends the body form-encoded (`-d "username=a&password=b"`), not as JSON;
    # dumped only when set, so the specs of JSON services keep their bytes
    request_form: bool = False
    # the answer's `Location` header names the created record (dumped only when set)
    location_header: bool = False
    # the document keeps this call to the record's author ("only the author can ...");
    # dumped only when set
    owner_only: bool = False
    # the auth library whose documentation the document links for this endpoint (see
    # spec/linked_auth.py); dumped only when set
    linked: str = ""
    # the files a multipart example sends beside its form fields (`-F icon=@icon.svg`: name
    # -> the file as written); dumped only when set
    request_files: dict[str, str] = Field(default_factory=dict)
    # the records a delete takes with it as the document says ("delete their account, which
    # will cascade delete their projects, issues, and comments": ["project", "issue",
    # "comment"]); dumped only when set
    cascades: list[str] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out = handler(self)
        for flag in ("request_form", "location_header", "owner_only", "linked", "request_files",
                     "cascades"):
            if not getattr(self, flag):
                out.pop(flag, None)
        return out

    @field_validator("method")
    @classmethod
    def _upper(cls, v: str) -> str:
        v = v.upper()
        if v not in HTTP_METHODS:
            raise ValueError(f"unknown HTTP method {v!r}")
        return v

    @property
    def key(self) -> tuple[str, str]:
        return (self.method, self.path)

    @property
    def by_link(self) -> bool:
        """Addressed by a link the service hands out (`{student.self_url}`), not a path."""
        return self.path.startswith("{")

    @property
    def path_params(self) -> list[str]:
        return re.findall(r"\{([^{}]+)\}", self.path)


class AuthSpec(BaseModel):
    """How the service authenticates callers, when the README says so."""

    scheme: str = "bearer"  # bearer | api-key | basic | digest | token
    header: str = "Authorization"
    login_method: str | None = None
    login_path: str | None = None
    description: str = ""
    # HTTP Basic where an issued token goes in the username field (the document shows a
    # call with `-u <token>:x`)
    token_as_user: bool = False
    # the one account the document gives (a configured default name and password), for
    # services that register no users over HTTP
    account: tuple[str, str] | None = None
    # HTTP Basic whose name is a record's identifier ("basic HTTP authentication with the
    # project ID and private code"): the body key that identifier is sent under
    name_key: str | None = None
    # HTTP Basic where the document also shows a token sent as `Authorization: Bearer`
    bearer_too: bool = False

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out = handler(self)
        if not self.token_as_user:
            out.pop("token_as_user", None)
        if self.account is None:
            out.pop("account", None)
        if self.name_key is None:
            out.pop("name_key", None)
        if not self.bearer_too:
            out.pop("bearer_too", None)
        return out


class Observation(BaseModel):
    """One of the document's own example requests, sent to the running oracle before the
    generator writes tests, and what came back: where the service puts what (an id, an
    envelope, a list), never what a test asserts."""

    method: str
    path: str  # the documented template (`/employees/{employee_id}`)
    sent_path: str  # the path sent (`/employees/1`)
    body: Any = None  # the request body sent (the document's example)
    status: int
    answer: Any = None  # the JSON that came back (None: no JSON)


class LinkCatalog(BaseModel):
    """A hypermedia API: the document gives no paths, only a root URL whose answer holds the
    collections' URLs; every other URL is read from answers (`self_url`, a record's link to
    its own sub-collection). Its endpoints' paths name the link (`{students_url}`,
    `{student.self_url}`); see spec/catalog.py."""

    root: str = "/"
    at: list[str] = Field(default_factory=list)  # keys from the root answer to the links
    collections: dict[str, str] = Field(default_factory=dict)  # link key -> record noun
    self_key: str = "self_url"
    # a request without credentials is answered 401 with the token URL in `Location`
    # (POST there with the account as HTTP Basic)
    token_location: bool = False
    # "All the GET requests return an ETag header ... If-None-Match": a read repeated with
    # its tag is answered 304
    etags: bool = False
    # query arguments whose invalid values the document says are ignored ("Invalid filters
    # are silently ignored")
    ignores_invalid: list[str] = Field(default_factory=list)
    # where the running oracle's answers put each link (`{student.self_url}` ->
    # `/v1/students/{id}`): evidence for matching requests to endpoints, never dumped
    resolved: dict[str, str] = Field(default_factory=dict, exclude=True)


class Spec(BaseModel):
    """Everything the generator needs from a requirement document."""

    title: str = ""
    port: int | None = None
    base_path: str = ""
    language: str = "en"
    auth: AuthSpec | None = None
    error_format: Any = None
    # the media type a client asks for in `Accept` where the document says the header picks
    # the representation (HTML by default, JSON on request)
    accept: str | None = None
    # the document's own words where it says the service checks required fields but names
    # no status for a body without them ("Basic validation for required fields"); dumped
    # only when set
    validates_required: str = ""
    endpoints: list[Endpoint] = Field(default_factory=list)
    # a hypermedia API's root catalog (dumped only when set)
    links: LinkCatalog | None = None
    # evidence from the running oracle, not the document: kept out of every dump (the stored
    # and published spec is what the README says)
    observed: list[Observation] = Field(default_factory=list, exclude=True)

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out = handler(self)
        if self.accept is None:
            out.pop("accept", None)
        if not self.validates_required:
            out.pop("validates_required", None)
        if self.links is None:
            out.pop("links", None)
        return out


class DifficultyMetrics(BaseModel):
    loc: int = 0
    cyclomatic_complexity: int = 0
    files: int = 0
    endpoints: int = 0
    functions_classes: int = 0


class DifficultyPoints(BaseModel):
    loc: float = 0.0
    cyclomatic_complexity: float = 0.0
    files: float = 0.0
    endpoints: float = 0.0
    functions_classes: float = 0.0


class Difficulty(BaseModel):
    score: float
    level: Level
    metrics: DifficultyMetrics
    points: DifficultyPoints


# --- Build loop records (test-case life cycle) ---------------------------------------------

Category = Literal["api_compliance", "error_handling", "edge_case", "integration"]
CATEGORIES: tuple[str, ...] = ("api_compliance", "error_handling", "edge_case", "integration")
Outcome = Literal["passed", "failed", "error", "skipped", "timeout"]
RouteName = Literal["accepted", "area_chair", "refine", "discarded"]
DiscardReason = Literal["low_quality", "conflict", "fails_on_oracle", "invalid", "over_specified"]
RUBRIC_DIMENSIONS = ("correctness", "coverage", "readability", "relevance")


class Answer(BaseModel):
    """The refiner's answer to one review of the previous version (the paper's rebuttal)."""

    reviewer: str
    changed: str = ""  # what it changed for this review ("" = nothing)
    disagree: str = ""  # where it disagrees with this review, and why ("" = nowhere)


class TestCase(BaseModel):
    """One version of one test case: a single pytest function and what it targets."""

    __test__ = False  # not a pytest class
    case_id: str  # stable across rounds: "<task>::<function name>"
    task_id: str
    round: int = Field(ge=0)
    category: Category
    name: str  # the test function's name
    code: str  # the function's source (uses the shared conftest fixtures)
    endpoints: list[str] = Field(default_factory=list)  # "METHOD /path" targeted
    origin: Literal["generated", "existing", "refined"] = "generated"
    author: str = "offline"  # provider:model or "offline" or "human"
    # Human-written tests keep their module's imports and helpers, and the module they came
    # from, so they run (and ship) next to their own conftest under tests/existing/.
    prelude: str = ""
    module: str | None = None
    # A human-written test method: the source of its class without the test methods; `code`
    # is then the method, dedented. Empty for test functions.
    test_class: str = ""
    # A refined version: the refiner's answers to the reviews of the version it replaces,
    # shown to this version's reviewers and published with it.
    rebuttal: list[Answer] = Field(default_factory=list)

    @property
    def node_name(self) -> str:
        """The test's pytest node name inside its module ("Class::method" for a method)."""
        found = _CLASS_NAME.search(self.test_class) if self.test_class else None
        return f"{found.group(1)}::{self.name}" if found else self.name


class RunResult(BaseModel):
    """One execution of a test case against a fresh oracle."""

    outcome: Outcome
    output: str = ""
    duration_s: float = 0.0


class MutationEvidence(BaseModel):
    """What running a passing case against the task's mutants of the oracle showed.

    The round's passing cases run together, in file order, against a fresh service per mutant
    of the task's fixed mutant set (same cap and seed every round); a case kills a mutant when
    it fails there while it passed on the unmutated oracle in the same kind of run.
    """

    valid: int = Field(ge=0)  # mutants whose service started and ran the suite
    killed: list[str] = Field(default_factory=list)  # mutant ids ("file:line:operator:n")
    excluded: str | None = None  # why the case got no kill credit (e.g. failed on the oracle)
    # The suite view: killed mutants no other case of the round kills, and how many mutants
    # the round's cases kill together.
    unique: list[str] = Field(default_factory=list)
    round_killed: int = Field(0, ge=0)
    # The endpoint view (pipeline.mutation.handlers): mutants that ran in the handlers of the
    # endpoints the case targets, and those of them other cases of the round kill.
    endpoint_mutants: list[str] = Field(default_factory=list)
    endpoint_killed_by_others: list[str] = Field(default_factory=list)


class AlternativeRun(BaseModel):
    """One run of a case that passed on the oracle, on an independent correct implementation
    of the same README (`data/raw/<id>/alternatives/<name>/`)."""

    name: str
    outcome: str  # passed | failed | error | skipped | timeout
    output: str = ""
    # written by the generator model from the README alone (`build --alternatives K`): a
    # suspect, not a reference; its failures are evidence for review, never a discard
    suspect: bool = False


class Evidence(BaseModel):
    """What running a test case on the oracle (and its alternatives) showed, shown to every
    reviewer."""

    case_id: str
    round: int
    runs: list[RunResult]
    requests: list[str] = Field(default_factory=list)  # "METHOD /path" the test sent
    mutation: MutationEvidence | None = None  # None: not run (mutation off, or not passing)
    alternatives: list[AlternativeRun] = Field(default_factory=list)  # run when it passed

    @property
    def rejects_alternative(self) -> list[AlternativeRun]:
        """The alternatives a case that passes on the oracle fails on: it asserts more than
        the document states (over-specified)."""
        if not self.passed:
            return []
        return [a for a in self.alternatives if a.outcome != "passed" and not a.suspect]

    @property
    def fails_on_suspects(self) -> list[AlternativeRun]:
        """The model-written implementations a case that passes on the oracle fails on."""
        if not self.passed:
            return []
        return [a for a in self.alternatives if a.outcome != "passed" and a.suspect]

    @property
    def passed(self) -> bool:
        return bool(self.runs) and all(r.outcome == "passed" for r in self.runs)

    @property
    def stable(self) -> bool:
        return len({r.outcome for r in self.runs}) <= 1


class Scores(BaseModel):
    """The rubric's four dimensions (ranges are the rubric's contract)."""

    correctness: int = Field(ge=0, le=3)
    coverage: int = Field(ge=0, le=3)
    readability: int = Field(ge=0, le=2)
    relevance: int = Field(ge=0, le=2)

    @property
    def total(self) -> int:
        return self.correctness + self.coverage + self.readability + self.relevance


class Review(BaseModel):
    case_id: str
    round: int
    reviewer: str  # e.g. "offline:execution", "openai:gpt-5"
    scores: Scores | None  # None: the reviewer failed (see `error`)
    rationale: str = ""
    rubric_hash: str
    error: str | None = None


class RouteDecision(BaseModel):
    """Where a test case version goes next, and why (stored for every transition)."""

    case_id: str
    round: int
    route: RouteName
    reason: str
    discard_reason: DiscardReason | None = None
    mean: float | None = None
    spread: int | None = None
