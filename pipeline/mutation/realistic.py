"""Python mutants that look like the bugs a code-writing agent really makes (pure, `ast`).

Operator flips find tests that check *something*; these find tests that check *behaviour*.
Each kind is a fault whose service still answers with the right status, keys and types:
- `filter_ignored`: a filter skipped -- `if <cond>: continue` in a loop, a comprehension's
  `if`, or an `if` that adds a WHERE clause, never taken;
- `sort_ignored`: `sorted(x, ...)` -> `list(x)`, `xs.sort(...)` removed, `reverse=` forced
  off, `ASC` <-> `DESC` in an SQL string;
- `pagination_off_by_one`: a slice's end (or start) moved by one; `(page - 1)` -> `page`;
- `validation_removed`: an `if` whose body rejects the request (raise, abort, a 4xx) never
  taken;
- `write_not_persisted`: a write to module state (`_items[k] = v`, `_items.append(x)`,
  `del _items[k]`) or an SQL INSERT/UPDATE/DELETE statement removed;
- `field_dropped`: one key removed from a dict literal (a response or a stored record), or a
  `body["k"] = v` assignment to a local removed;
- `default_changed`: a documented default moved: a parameter default, `Query(20)`,
  `.get("k", 20)` or any `f("name", <default>)` call.
Candidates come from the same skip sets as the operator flips (docstrings, annotations,
decorators, f-string insides, the main guard are never touched).
"""

from __future__ import annotations

import ast
import re

from .model import Edit

REALISTIC = ("validation_removed", "write_not_persisted", "field_dropped", "filter_ignored",
             "sort_ignored", "pagination_off_by_one", "default_changed")
_WRITE_CALLS = frozenset({"append", "add", "update", "insert", "extend", "remove", "pop",
                          "discard", "clear", "setdefault", "appendleft", "popleft"})
_SQL_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.I)
_SQL_ORDER = re.compile(r"\b(ASC|DESC)\b")
_CLAUSES = ("clause", "where", "filter", "condition", "cond")
_REJECT_CALLS = ("abort", "error", "exception", "problem", "reject", "invalid")


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _call(node: ast.AST) -> str:
    return _name(node.func) if isinstance(node, ast.Call) else ""


def _base(node: ast.AST) -> ast.AST:
    while isinstance(node, ast.Subscript | ast.Attribute) and not (
            isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "self"):
        node = node.value
    return node


class Realistic:
    """Finds the realistic edits of one module; `src` is operators._Source, `skip` the nodes
    never mutated, `state` the module-level names (the service's state)."""

    def __init__(self, tree: ast.Module, src, skip: set[ast.AST], decorator: set[ast.AST]):
        self.src = src
        self.skip = skip | decorator
        self.edits: list[Edit] = []
        self.state = {t.id for stmt in tree.body if isinstance(stmt, ast.Assign | ast.AnnAssign)
                      for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                      if isinstance(t, ast.Name)}
        self.functions = [n for n in ast.walk(tree)
                          if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]

    def add(self, node: ast.AST, kind: str, description: str, text: str,
            span: tuple[int, int] | None = None) -> None:
        start, end = span or self.src.span(node)
        self.edits.append(Edit(start, end, node.lineno, kind, description, text))  # type: ignore[attr-defined]

    def run(self) -> list[Edit]:
        seen: set[ast.AST] = set()
        for func in self.functions:
            self._defaults(func)
            for node in ast.walk(func):
                if node in self.skip or node in seen:
                    continue
                seen.add(node)
                handler = getattr(self, f"_on_{type(node).__name__}", None)
                if handler is not None:
                    handler(node)
        return self.edits

    def _short(self, node: ast.AST, limit: int = 40) -> str:
        text = " ".join(self.src.segment(node).split())
        return text if len(text) <= limit else text[: limit - 3] + "..."

    # -- if: filters and validations ---------------------------------------------------------

    def _on_If(self, node: ast.If) -> None:
        test = self._short(node.test)
        if self._rejects(node.body):
            self.add(node.test, "validation_removed", f"check `if {test}` never rejects",
                     "False")
        elif (len(node.body) == 1 and isinstance(node.body[0], ast.Continue)) or any(
                any(w in _name(_base(n.func.value)).lower() for w in _CLAUSES)
                for n in ast.walk(ast.Module(body=node.body, type_ignores=[]))
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr in ("append", "extend")):
            self.add(node.test, "filter_ignored", f"filter `if {test}` ignored", "False")

    def _rejects(self, body: list[ast.stmt]) -> bool:
        for stmt in body:
            if isinstance(stmt, ast.Raise):
                return True
            for n in ast.walk(stmt):
                if isinstance(n, ast.Constant) and type(n.value) is int and 400 <= n.value < 500:
                    return True
                if isinstance(n, ast.Call) and any(w in _call(n).lower() for w in _REJECT_CALLS):
                    return True
        return False

    def _on_comprehension(self, node: ast.comprehension) -> None:
        for cond in node.ifs:
            self.add(cond, "filter_ignored", f"filter `if {self._short(cond)}` ignored", "True")

    # -- sorting ----------------------------------------------------------------------------

    def _on_Call(self, node: ast.Call) -> None:
        name = _call(node)
        if name == "sorted" and node.args and isinstance(node.func, ast.Name):
            arg = self.src.segment(node.args[0])
            self.add(node, "sort_ignored", f"`sorted({self._short(node.args[0])}, ...)` -> list",
                     f"list({arg})")
        for kw in node.keywords:
            if kw.arg == "reverse" and not (isinstance(kw.value, ast.Constant)
                                            and kw.value.value is False):
                self.add(kw.value, "sort_ignored", "sort direction ignored (`reverse=False`)",
                         "False")
        self._default_call(node)

    def _on_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
            return
        attr = call.func.attr
        if attr == "sort":
            self.add(node, "sort_ignored", f"`{self._short(node)}` removed", "pass")
        elif attr in _WRITE_CALLS and self._stateful(call.func.value):
            self.add(node, "write_not_persisted", f"write `{self._short(node)}` removed", "pass")
        elif attr in ("execute", "executemany") and call.args and _sql_write(call.args[0]):
            self.add(node, "write_not_persisted", f"SQL write `{self._short(node)}` removed",
                     "pass")

    def _on_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and re.search(r"\bORDER\s+BY\b", node.value, re.I):
            flipped = _SQL_ORDER.sub(lambda m: "DESC" if m.group(1).upper() == "ASC" else "ASC",
                                     node.value)
            if flipped == node.value:
                flipped = re.sub(r"(\bORDER\s+BY\s+[\w.]+)", r"\1 DESC", node.value, count=1,
                                 flags=re.I)
            if flipped != node.value:
                self.add(node, "sort_ignored", "SQL sort direction flipped", repr(flipped))

    # -- pagination -------------------------------------------------------------------------

    def _on_Slice(self, node: ast.Slice) -> None:
        bound = node.upper or node.lower
        if bound is None:
            return
        which = "end" if node.upper is not None else "start"
        self.add(bound, "pagination_off_by_one", f"slice {which} `{self._short(bound)}` + 1",
                 f"({self.src.segment(bound)}) + 1")

    def _on_BinOp(self, node: ast.BinOp) -> None:
        if (isinstance(node.op, ast.Sub) and isinstance(node.right, ast.Constant)
                and node.right.value == 1 and "page" in _name(node.left).lower()):
            self.add(node, "pagination_off_by_one", f"`{self._short(node)}` -> page",
                     self.src.segment(node.left))

    # -- writes and fields ------------------------------------------------------------------

    def _stateful(self, node: ast.AST) -> bool:
        base = _base(node)
        return (isinstance(base, ast.Name) and base.id in self.state) or isinstance(
            base, ast.Attribute)

    def _on_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Subscript):
            return
        target = node.targets[0]
        if self._stateful(target.value):
            self.add(node, "write_not_persisted", f"write `{self._short(node)}` removed", "pass")
        elif isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
            self.add(node, "field_dropped", f"field {target.slice.value!r} not set", "pass")

    def _on_Delete(self, node: ast.Delete) -> None:
        if any(self._stateful(t) for t in node.targets):
            self.add(node, "write_not_persisted", f"`{self._short(node)}` removed", "pass")

    def _on_Dict(self, node: ast.Dict) -> None:
        keys = [k for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if len(keys) < 2:
            return
        for i, key in enumerate(node.keys):
            if key is None or key not in keys:
                continue
            rest = [self._item(node, j) for j in range(len(node.keys)) if j != i]
            self.add(node, "field_dropped", f"field {key.value!r} dropped",  # type: ignore
                     "{" + ", ".join(rest) + "}")

    def _item(self, node: ast.Dict, j: int) -> str:
        key, value = node.keys[j], node.values[j]
        v = self.src.segment(value)
        return f"**{v}" if key is None else f"{self.src.segment(key)}: {v}"

    # -- defaults ---------------------------------------------------------------------------

    def _defaults(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for value in [*func.args.defaults, *(d for d in func.args.kw_defaults if d)]:
            if value not in self.skip:
                self._default(value, "parameter default")

    def _default_call(self, node: ast.Call) -> None:
        name = _call(node)
        if name in ("Query", "Header", "Field") and node.args:
            self._default(node.args[0], f"{name} default")
        for kw in node.keywords:
            if kw.arg == "default" and name in ("Query", "Header", "Field", "get"):
                self._default(kw.value, f"{name} default")
        if (len(node.args) >= 2 and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            self._default(node.args[1], f"default of {node.args[0].value!r}")

    def _default(self, value: ast.AST, what: str) -> None:
        if not isinstance(value, ast.Constant) or value.value is None:
            return
        v = value.value
        if isinstance(v, bool):
            new = repr(not v)
        elif isinstance(v, int | float):
            new = repr(v + 1)
        elif isinstance(v, str):
            new = repr(v + "x") if v else repr("x")
        else:
            return
        self.add(value, "default_changed", f"{what} {v!r} -> {new}", new)


def _sql_write(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(_SQL_WRITE.match(node.value))
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return bool(_SQL_WRITE.match(str(node.values[0].value)))
    return False


def realistic_edits(tree: ast.Module, src, skip: set[ast.AST],
                    decorator: set[ast.AST]) -> list[Edit]:
    """Every realistic candidate edit of one module (unordered)."""
    return Realistic(tree, src, skip, decorator).run()
