"""Code-declared Java routes: Javalin, Spark, Vert.x Web and the JDK `com.sun.net.httpserver`.

These frameworks register routes by calling methods (`app.get("/x", ctx -> ...)`,
`path("api", () -> { get(...); })`, `server.createContext("/api", h)`), so routes are found
by matching call shapes on the token stream. Calls are only read in files that import the
framework, which keeps `map.get("key", fallback)` from looking like a route.
"""

from __future__ import annotations

from pipeline.routes.javalex import Constants, Sym, Token, evaluate, matching
from pipeline.routes.model import ANY_METHOD, Route, join_paths, normalize_path, split_wildcard

VERBS = {"get", "post", "put", "patch", "delete", "head", "options"}


def _framework(text: str) -> str:
    if "io.javalin" in text:
        return "javalin"
    if "import spark." in text or "import static spark." in text or "spark.Spark" in text:
        return "spark"
    if "io.vertx" in text:
        return "vertx"
    return ""


def _string(tokens: list[Token], i: int, consts: Constants, file: str) -> tuple[str | None, int]:
    value, j = evaluate(tokens, i, consts, file)
    if isinstance(value, Sym):
        return None, j
    return value, j


def _first_arg_is_handler(tokens: list[Token], open_paren: int) -> bool:
    """`get(ctx -> ...)`, `get(Controller::list)`, `get(new Handler())`: no path argument."""
    end = matching(tokens, open_paren)
    depth = 0
    for tok in tokens[open_paren + 1 : end]:
        if tok.text in ("(", "{", "["):
            depth += 1
        elif tok.text in (")", "}", "]"):
            depth -= 1
        elif depth == 0 and tok.text == ",":
            return False
        elif depth == 0 and tok.text in ("->", "::", "new"):
            return True
    return False


class _DslScanner:
    def __init__(self, tokens: list[Token], consts: Constants, file: str, fw: str) -> None:
        self.tokens, self.consts, self.file, self.fw = tokens, consts, file, fw
        self.scopes: list[tuple[int, str]] = []  # (closing paren index, joined path prefix)
        self.out: list[Route] = []

    @property
    def prefix(self) -> str:
        return self.scopes[-1][1] if self.scopes else ""

    def emit(self, method: str, path: str, line: int, prefix: bool = False) -> None:
        full = normalize_path(join_paths(self.prefix, path) if self.prefix else path)
        full, wild = split_wildcard(full)
        self.out.append(Route(method, full, prefix or wild, self.file, line, self.fw))

    def run(self) -> list[Route]:
        toks = self.tokens
        for i, tok in enumerate(toks[:-1]):
            while self.scopes and self.scopes[-1][0] < i:
                self.scopes.pop()
            if tok.kind != "id" or toks[i + 1].text != "(":
                continue
            handler = getattr(self, f"_on_{tok.text}", None)
            if handler is not None:
                handler(i)
            elif tok.text in VERBS and self.fw:
                self._verb(i, tok.text.upper())
        return self.out

    def _verb(self, i: int, method: str) -> None:
        toks = self.tokens
        if self.fw == "javalin" and self.scopes and _first_arg_is_handler(toks, i + 1):
            self.emit(method, "", toks[i].line)  # ApiBuilder get(handler) inside path(...)
            return
        path, j = _string(toks, i + 2, self.consts, self.file)
        if path is None or j >= len(toks):
            return
        nxt = toks[j].text
        looks_like_route = path.startswith(("/", "*")) or bool(self.scopes)
        if nxt == "," and looks_like_route:
            self.emit(method, path, toks[i].line)
        elif self.fw == "vertx" and nxt == ")" and j + 1 < len(toks) and toks[j + 1].text == ".":
            self.emit(method, path, toks[i].line)  # router.get("/x").handler(...)

    def _on_path(self, i: int) -> None:
        if self.fw not in ("javalin", "spark"):
            return
        path, j = _string(self.tokens, i + 2, self.consts, self.file)
        if path is not None and j < len(self.tokens) and self.tokens[j].text == ",":
            end = matching(self.tokens, i + 1)
            self.scopes.append((end, join_paths(self.prefix, path) if self.prefix else path))

    def _on_crud(self, i: int) -> None:
        """Javalin `crud("users/{user-id}", controller)`: the five CRUD routes."""
        if self.fw != "javalin":
            return
        path, _ = _string(self.tokens, i + 2, self.consts, self.file)
        if not path or "/" not in path.strip("/"):
            return
        collection = path.rstrip("/").rsplit("/", 1)[0]
        line = self.tokens[i].line
        for method in ("GET", "POST"):
            self.emit(method, collection, line)
        for method in ("GET", "PATCH", "DELETE"):
            self.emit(method, path, line)

    def _on_addHandler(self, i: int) -> None:  # noqa: N802 - named after the Javalin call
        """Javalin `app.addHandler(HandlerType.GET, "/x", handler)`."""
        if self.fw != "javalin":
            return
        kind, j = evaluate(self.tokens, i + 2, self.consts, self.file)
        if isinstance(kind, Sym) and j < len(self.tokens) and self.tokens[j].text == ",":
            path, k = _string(self.tokens, j + 1, self.consts, self.file)
            if path is not None and str(kind).upper() in {v.upper() for v in VERBS}:
                self.emit(str(kind).upper(), path, self.tokens[i].line)

    def _on_route(self, i: int) -> None:
        """Vert.x `router.route("/x")` / `router.route(HttpMethod.GET, "/x")`."""
        if self.fw != "vertx":
            return
        first, j = evaluate(self.tokens, i + 2, self.consts, self.file)
        method = ANY_METHOD
        if isinstance(first, Sym) and j < len(self.tokens) and self.tokens[j].text == ",":
            method = str(first).upper()
            first, j = _string(self.tokens, j + 1, self.consts, self.file)
        if isinstance(first, str) and not isinstance(first, Sym) and first.startswith("/"):
            self.emit(method, first, self.tokens[i].line)

    def _on_createContext(self, i: int) -> None:  # noqa: N802 - named after the JDK call
        """JDK `server.createContext("/api/items", handler)`: serves everything beneath."""
        path, _ = _string(self.tokens, i + 2, self.consts, self.file)
        if path is not None and path.startswith("/"):
            full = normalize_path(path)
            self.out.append(
                Route(ANY_METHOD, full, True, self.file, self.tokens[i].line, "httpserver")
            )


def dsl_routes(tokens: list[Token], consts: Constants, file: str, text: str) -> list[Route]:
    """Routes registered by method calls in one Java file."""
    fw = _framework(text)
    if not fw and "createContext" not in text:
        return []
    return _DslScanner(tokens, consts, file, fw).run()
