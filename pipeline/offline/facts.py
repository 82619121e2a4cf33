"""What a test function's code shows, read with `ast` (pure; never imports or runs the code).

`code_facts(code, name)` returns a `CodeFacts`: its assertions classified by strength, the HTTP
requests it sends (method and path template), its imports, and the hazards the reviewers look
for (sleeps, unseeded randomness, swallowed assertion errors, hard-coded hosts, oracle access).
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from dataclasses import dataclass, field

from pipeline.offline.assertions import Check, call_name, checks
from pipeline.offline.endpoints import HOLE, Target, split_path

HTTP_VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
CLIENT_NAMES = {"requests", "httpx", "session", "client", "http", "api", "s", "sess",
                "http_client", "api_client", "api_session"}
ALLOWED_IMPORTS = {"requests", "httpx", "pytest", "json", "uuid", "re", "conftest"}
# stdlib modules that reach around the HTTP interface (processes, databases, sockets, code)
BACKDOOR_IMPORTS = {"subprocess", "sqlite3", "importlib", "ctypes", "socket", "pickle",
                    "shelve", "multiprocessing", "runpy", "dbm", "marshal"}
FACTORY_HINTS = ("cleanup", "created", "make_", "create_", "factory", "tracker", "teardown",
                 "new_", "registered", "logged_in")
EDGE_QUERY = {"limit", "offset", "page", "per_page", "page_size", "size", "cursor", "skip"}
UNKNOWN_WORDS = re.compile(r"nonexist|non-exist|unknown|missing|does-?not|not-?a|bogus|invalid",
                           re.I)


@dataclass(frozen=True)
class Request:
    method: str
    path: str | None  # None: the URL is built at run time and cannot be read statically
    query: tuple[str, ...] = ()
    line: int = 0
    result: str = ""  # the name the answer is assigned to
    # the names its `headers=`/`auth=` are computed from, through the function's assignments
    # (`token = login.json()["token"]`, `headers = {...token}`): a credential another
    # request answered
    credentials: frozenset[str] = frozenset()

    @property
    def target(self) -> Target | None:
        return Target(self.method, self.path, self.query) if self.path else None


@dataclass
class CodeFacts:
    ok: bool = True
    error: str = ""
    name: str = ""
    params: list[str] = field(default_factory=list)
    docstring: bool = False
    lines: int = 0
    comment_lines: int = 0
    blocks: int = 0
    checks: list[Check] = field(default_factory=list)
    asserts: int = 0
    requests: list[Request] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)
    foreign_imports: list[str] = field(default_factory=list)
    backdoor_imports: list[str] = field(default_factory=list)
    sleeps: int = 0
    unseeded_random: bool = False
    swallows: bool = False
    skips: bool = False
    hardcoded_host: bool = False
    oracle_refs: bool = False
    prints: int = 0
    cleanup: bool = False
    unique_names: bool = False
    factory_fixtures: list[str] = field(default_factory=list)
    edge_signals: list[str] = field(default_factory=list)
    # keys the test writes itself (its bodies' dict literals, `body["k"] = ...`): a value
    # checked under such a key is the test's own input coming back
    written_keys: set[str] = field(default_factory=set)

    @property
    def strong_checks(self) -> list[Check]:
        return [c for c in self.checks if c.strong]

    @property
    def status_checks(self) -> list[Check]:
        return [c for c in self.checks if c.codes or c.kind == "status"]

    @property
    def status_codes(self) -> list[int]:
        return sorted({code for c in self.checks for code in c.codes})

    @property
    def fields(self) -> list[str]:
        return sorted({f for c in self.checks for f in c.fields})

    @property
    def meaningful(self) -> bool:
        return any(c.kind != "trivial" for c in self.checks)

    @property
    def creates(self) -> bool:
        return any(r.method in ("POST", "PUT") for r in self.requests)

    @property
    def targets(self) -> list[Target]:
        out: list[Target] = []
        for r in self.requests:
            t = r.target
            if t and t not in out:
                out.append(t)
        return out


# --- entry point ------------------------------------------------------------------------------

def code_facts(code: str, name: str = "") -> CodeFacts:
    try:
        tree = ast.parse(textwrap.dedent(code))
    except SyntaxError as exc:
        return CodeFacts(ok=False, error=f"syntax error line {exc.lineno}: {exc.msg}")
    func = _find_function(tree, name)
    if func is None:
        return CodeFacts(ok=False, error="no test function found")
    facts = CodeFacts(name=func.name, params=[a.arg for a in func.args.args])
    facts.docstring = ast.get_docstring(func) is not None
    _layout(facts, textwrap.dedent(code).splitlines(), func)
    _imports(facts, tree)
    env = _string_env(func)
    facts.requests = _requests(func, env, set(facts.params))
    facts.checks = checks(func)
    facts.asserts = sum(isinstance(n, ast.Assert) for n in ast.walk(func))
    _hazards(facts, tree, func)
    _cleanup(facts, func)
    facts.edge_signals = _edge_signals(func, facts.requests)
    facts.written_keys = _written_keys(func)
    return facts


def _written_keys(func: ast.FunctionDef) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Dict):
            out |= {k.value for k in node.keys
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        elif isinstance(node, ast.Assign):
            out |= {t.slice.value for t in node.targets if isinstance(t, ast.Subscript)
                    and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str)}
    return out


def _find_function(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    funcs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for f in funcs:
        if f.name == name:
            return f  # type: ignore[return-value]
    tests = [f for f in funcs if f.name.startswith("test")]
    return (tests or funcs or [None])[0]  # type: ignore[return-value]


def _layout(facts: CodeFacts, src: list[str], func: ast.FunctionDef) -> None:
    body = src[func.lineno - 1: func.end_lineno]
    code_lines = [ln for ln in body if ln.strip() and not ln.strip().startswith("#")]
    facts.lines = len(code_lines)
    facts.comment_lines = sum(ln.strip().startswith("#") for ln in body)
    blocks, inside = 0, False
    for ln in body[1:]:
        if ln.strip() and not inside:
            blocks += 1
        inside = bool(ln.strip())
    facts.blocks = blocks


# --- imports and hazards ----------------------------------------------------------------------

def _imports(facts: CodeFacts, tree: ast.Module) -> None:
    stdlib = set(sys.stdlib_module_names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mods = ["." * node.level + (node.module or "")]
        else:
            continue
        for mod in mods:
            top = mod.split(".")[0]
            facts.imports.append(mod)
            if mod.startswith(".") or (top not in ALLOWED_IMPORTS and top not in stdlib):
                facts.foreign_imports.append(mod)
            elif top in BACKDOOR_IMPORTS:
                facts.backdoor_imports.append(mod)


def _random_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            names |= {a.asname or a.name for a in node.names}
    return names


def _hazards(facts: CodeFacts, tree: ast.Module, func: ast.FunctionDef) -> None:
    from_random = _random_names(tree)
    uses_random = seeded = False
    for node in ast.walk(func):
        if isinstance(node, ast.Call):
            randomness = _call_hazard(facts, node, from_random)
            seeded = seeded or randomness == "seeded"
            uses_random = uses_random or randomness == "random"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            _text_hazard(facts, node.value.lower())
        elif isinstance(node, ast.Attribute) and node.attr == "path" and _is_name(
                node.value, "sys"):
            facts.oracle_refs = True
        elif _swallows(node):
            facts.swallows = True
    for deco in func.decorator_list:
        if re.search(r"skip|xfail", ast.unparse(deco)):
            facts.skips = True
    facts.unseeded_random = uses_random and not seeded


def _call_hazard(facts: CodeFacts, node: ast.Call, from_random: set[str]) -> str | None:
    """Count a sleep, print or skip; "seeded" or "random" for a call that seeds or draws from
    `random`, which only the whole function can weigh."""
    call = call_name(node)
    if call.endswith("sleep"):
        facts.sleeps += 1
    elif call in ("print", "pprint"):
        facts.prints += 1
    elif call in ("pytest.skip", "pytest.xfail", "pytest.importorskip"):
        facts.skips = True
    elif call == "random.seed" or (call == "random.Random" and node.args):
        return "seeded"
    elif call.startswith("random.") or call in from_random:
        return "random"
    return None


def _text_hazard(facts: CodeFacts, low: str) -> None:
    """A string constant (lower case) that names a fixed host or the oracle."""
    if re.search(r"://(?:localhost|127\.0\.0\.1|0\.0\.0\.0)", low):
        facts.hardcoded_host = True
    if re.search(r"\boracle\b", low):
        facts.oracle_refs = True


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _swallows(node: ast.AST) -> bool:
    """A try/except (or contextlib.suppress) that hides failing assertions or requests."""
    if isinstance(node, ast.With):
        return any(isinstance(i.context_expr, ast.Call)
                   and call_name(i.context_expr).endswith("suppress") for i in node.items)
    if not isinstance(node, ast.Try):
        return False
    guarded = any(isinstance(n, ast.Assert | ast.Call) for s in node.body for n in ast.walk(s))
    for h in node.handlers:
        broad = h.type is None or (isinstance(h.type, ast.Name) and h.type.id in
                                   ("Exception", "BaseException", "AssertionError"))
        reraises = any(isinstance(n, ast.Raise) for s in h.body for n in ast.walk(s))
        if guarded and broad and not reraises:
            return True
    return False


def _cleanup(facts: CodeFacts, func: ast.FunctionDef) -> None:
    facts.factory_fixtures = [p for p in facts.params
                              if any(h in p.lower() for h in FACTORY_HINTS)]
    has_finally = any(isinstance(n, ast.Try) and n.finalbody for n in ast.walk(func))
    finalizer = any(isinstance(n, ast.Call) and call_name(n).endswith("addfinalizer")
                    for n in ast.walk(func))
    deletes = any(r.method == "DELETE" for r in facts.requests)
    facts.cleanup = deletes or has_finally or finalizer or bool(facts.factory_fixtures)
    src = ast.unparse(func)
    facts.unique_names = bool(re.search(r"\buuid\w*\b|\bsecrets\.|token_hex|time_ns", src))


# --- requests ---------------------------------------------------------------------------------

def _string_env(func: ast.FunctionDef) -> dict[str, str]:
    env: dict[str, str] = {}
    for node in ast.walk(func):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant | ast.JoinedStr | ast.BinOp)):
            text = _template(node.value, env)
            if text != HOLE:
                env.setdefault(node.targets[0].id, text)
    return env


def _template(node: ast.AST | None, env: dict[str, str]) -> str:
    """A URL expression as text, with HOLE for whatever is only known at run time."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_template(v.value if isinstance(v, ast.FormattedValue) else v, env)
                       for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _template(node.left, env) + _template(node.right, env)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return re.sub(r"%[sdr]", HOLE, _template(node.left, env))
    if isinstance(node, ast.Name):
        return env.get(node.id, HOLE)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "format":
            return re.sub(r"\{[^{}]*\}", HOLE, _template(node.func.value, env))
        if node.func.attr == "urljoin" or call_name(node).endswith("urljoin"):
            return _template(node.args[-1], env) if node.args else HOLE
    if isinstance(node, ast.Call) and call_name(node) == "urljoin" and node.args:
        return _template(node.args[-1], env)
    return HOLE


def _url_arg(node: ast.Call, verb: str) -> tuple[str | None, ast.AST | None]:
    kwargs = {k.arg: k.value for k in node.keywords if k.arg}
    if verb == "request":
        method = node.args[0] if node.args else kwargs.get("method")
        url = node.args[1] if len(node.args) > 1 else kwargs.get("url")
        if isinstance(method, ast.Constant) and isinstance(method.value, str):
            return method.value.upper(), url
        return None, url
    return verb.upper(), node.args[0] if node.args else kwargs.get("url")


def _looks_like_url(text: str) -> bool:
    return text.startswith(("/", "http://", "https://")) or text.startswith(HOLE + "/")


def _sources(func: ast.FunctionDef) -> dict[str, set[str]]:
    """Each assigned name -> the names its value is computed from (one step)."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            out.setdefault(node.targets[0].id, set()).update(
                n.id for n in ast.walk(node.value) if isinstance(n, ast.Name))
    return out


def _closure(names: set[str], sources: dict[str, set[str]]) -> frozenset[str]:
    seen, todo = set(names), list(names)
    while todo:
        for src in sources.get(todo.pop(), ()):
            if src not in seen:
                seen.add(src)
                todo.append(src)
    return frozenset(seen)


def _requests(func: ast.FunctionDef, env: dict[str, str], params: set[str]) -> list[Request]:
    out: list[Request] = []
    results = {id(n.value): n.targets[0].id for n in ast.walk(func)
               if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name)}
    sources = _sources(func)
    for node in ast.walk(func):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        verb = node.func.attr.lower()
        if verb not in HTTP_VERBS and verb != "request":
            continue
        recv = node.func.value
        recv_name = recv.id if isinstance(recv, ast.Name) else ""
        method, url = _url_arg(node, verb)
        text = _template(url, env) if url is not None else HOLE
        known = recv_name in CLIENT_NAMES or (recv_name in params and text.startswith(HOLE))
        if method is None or not (known or _looks_like_url(text)):
            continue
        given = {n.id for k in node.keywords if k.arg in ("headers", "auth")
                 for n in ast.walk(k.value) if isinstance(n, ast.Name)}
        flow = {"result": results.get(id(node), ""),
                "credentials": _closure(given, sources) if given else frozenset()}
        if text == HOLE or not (_looks_like_url(text) or text.startswith(HOLE)):
            out.append(Request(method, None, (), node.lineno, **flow))
            continue
        path, query = split_path(text)
        query += _params_kw(node)
        out.append(Request(method, path, query, node.lineno, **flow))
    return sorted(out, key=lambda r: r.line)


def _params_kw(node: ast.Call) -> tuple[str, ...]:
    for k in node.keywords:
        if k.arg == "params" and isinstance(k.value, ast.Dict):
            return tuple(key.value for key in k.value.keys
                         if isinstance(key, ast.Constant) and isinstance(key.value, str))
    return ()


# --- edge-case signals ------------------------------------------------------------------------

def _edge_signals(func: ast.FunctionDef, requests: list[Request]) -> list[str]:
    out = [signal for node in ast.walk(func) if (signal := _node_signal(node)) is not None]
    out += _request_signals(requests)
    if re.search(r"\buuid\d?\(\)", ast.unparse(func)) and any(
            r.method != "POST" and r.path and HOLE in r.path for r in requests):
        out.append("random unknown id")
    return sorted(set(out))


def _node_signal(node: ast.AST) -> str | None:
    """The edge case one node of the test sends, if any."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(
            node.operand, ast.Constant):
        return "negative number"
    if isinstance(node, ast.Constant):
        return _constant_signal(node.value)
    if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
            and isinstance(node.right, ast.Constant) and isinstance(node.right.value, int)
            and node.right.value >= 50):
        return "over-long string"
    if isinstance(node, ast.List | ast.Dict) and not (
            node.elts if isinstance(node, ast.List) else node.keys):
        return "empty collection"
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and (
            UNKNOWN_WORDS.search(node.id)):
        return "unknown id"
    return None


def _constant_signal(value: object) -> str | None:
    """The edge case a literal stands for: a huge or zero number, a blank, over-long or
    unknown-id string."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 10**5:
            return "very large number/unknown id"
        return "zero" if value == 0 else None
    if not isinstance(value, str):
        return None
    if value == "" or (value.strip() == "" and value):
        return "empty/blank string"
    if len(value) >= 100:
        return "over-long string"
    if UNKNOWN_WORDS.search(value) or re.search(r"/\d{5,}(?:/|$|\?)", value):
        return "unknown id"
    return None


def _request_signals(requests: list[Request]) -> list[str]:
    """Paging or limit parameters, and a write sent twice to the same path."""
    out: list[str] = []
    seen: set[tuple[str, str | None]] = set()
    for r in requests:
        if set(r.query) & EDGE_QUERY:
            out.append("pagination/limits")
        if r.method != "GET" and r.path and (r.method, r.path) in seen:
            out.append("repeated request")
        seen.add((r.method, r.path))
    return out
