"""Mutants of an oracle's Python source, made through `ast` (pure: source text in, mutants out).

Operators (the names are stored with every mutant):
- `comparison`: one comparison operator flipped (== <-> !=, < -> >=, > -> <=, in <-> not in, ...);
- `boolean`: `and` <-> `or`, `not` removed, True <-> False;
- `constant`: ints +1 and -1, non-empty strings and f-strings emptied;
- `status_code`: an HTTP status code changed (404 -> 400, 201 -> 200, 409 -> 400, ...) where it
  is one: returned, passed to abort / HTTPException / *Error / *Response / send_response /
  reply(...) (a call whose name says error, response, reply, status...), given
  as `status_code=` / `status=`, or assigned to something named *status*;
- `statement`: a simple statement in a function body replaced with `pass` (not docstrings);
- `return`: a returned value replaced with `None` or `{}`;
- and the realistic kinds of `realistic.py` (a filter or sort ignored, an off-by-one in
  pagination, a validation removed, a write not persisted, a field dropped, a default changed).

Each mutation is a splice of one node's source range, so the rest of the file keeps its exact
text (and line numbers). A candidate is kept only if it parses, compiles and differs from the
original in its AST. Skipped on purpose, because mutating them only yields services that fail
to start or equivalent mutants: docstrings, annotations, the inside of f-strings (their node
positions are unreliable before 3.12), route decorators' strings, and the `if __name__ ==
"__main__":` block.
"""

from __future__ import annotations

import ast

from .model import STATUS_SWAP, Edit, Mutant, apply_edit, mutate_status, name_mutants
from .realistic import realistic_edits

__all__ = ["OPERATORS", "STATUS_SWAP", "Edit", "Mutant", "apply_edit", "is_status_code",
           "mutate_status", "name_mutants", "python_edits", "python_mutants"]

#: Every mutant's operator is its fault kind. The realistic kinds (`realistic.py`) come first:
#: they win over an operator flip that makes the same edit, and the capped selection visits
#: kinds in this order.
OPERATORS = ("validation_removed", "write_not_persisted", "field_dropped", "filter_ignored",
             "sort_ignored", "pagination_off_by_one", "default_changed", "status_code",
             "comparison", "boolean", "constant", "statement", "return")

_CMP_FLIP: dict[type, type] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE,
    ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_CMP_SYMBOL = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
}
STATUS_CALLS = frozenset({
    "abort", "HTTPException", "Response", "JSONResponse", "PlainTextResponse",
    "RedirectResponse", "make_response", "redirect", "send_response", "send_error",
    "send_header_status", "HTTPError",
})
STATUS_KEYWORDS = frozenset({"status_code", "status", "code"})
#: Calls whose name contains one of these take a status as a positional argument (reply(404, ..)).
STATUS_CALL_WORDS = ("reply", "respond", "response", "abort", "error", "exception", "status")
_SIMPLE_STATEMENTS = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Raise,
                      ast.Delete, ast.Assert)


def is_status_code(value: object) -> bool:
    return type(value) is int and 100 <= value <= 599


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _target_name(target: ast.expr) -> str:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant):
        return str(target.slice.value)
    return ""


def _is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    names = [node.test.left, *node.test.comparators]
    return any(isinstance(n, ast.Name) and n.id == "__name__" for n in names)


def _docstring(body: list[ast.stmt]) -> ast.stmt | None:
    first = body[0] if body else None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return first
    return None


class _Source:
    """Character offsets of AST positions (which count UTF-8 bytes within a line)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def offset(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return start, end

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.text[start:end]


class _Finder:
    """Walks one module and lists every candidate edit (unordered)."""

    def __init__(self, tree: ast.Module, src: _Source) -> None:
        self.src = src
        self.edits: list[Edit] = []
        self.parent: dict[ast.AST, ast.AST] = {}
        self.skip: set[ast.AST] = set()  # no mutation at all
        self.decorator: set[ast.AST] = set()  # status codes only
        self.in_function: set[ast.AST] = set()  # statements directly or nested in a def
        self._index(tree)

    def _index(self, tree: ast.Module) -> None:
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
            self._index_node(node)
        for stmt in tree.body:
            if _is_main_guard(stmt):
                self.skip.update(ast.walk(stmt))

    def _index_node(self, node: ast.AST) -> None:
        """What a node puts out of reach: docstrings, annotations and f-string parts mean
        nothing at run time, and decorators only decide the route (status codes aside)."""
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                      | ast.AsyncFunctionDef):
            doc = _docstring(node.body)
            if doc is not None:
                self.skip.update(ast.walk(doc))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self._index_function(node)
        elif isinstance(node, ast.ClassDef):
            for dec in node.decorator_list:
                self.decorator.update(ast.walk(dec))
        elif isinstance(node, ast.AnnAssign):
            self.skip.update(ast.walk(node.annotation))
        elif isinstance(node, ast.JoinedStr):
            self.skip.update(n for n in ast.walk(node) if n is not node)

    def _index_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for dec in node.decorator_list:
            self.decorator.update(ast.walk(dec))
        for stmt in node.body:
            self.in_function.update(n for n in ast.walk(stmt) if isinstance(n, ast.stmt))
        annotations = [a.annotation for a in _all_args(node.args)] + [node.returns]
        for ann in annotations:
            if ann is not None:
                self.skip.update(ast.walk(ann))

    def add(self, node: ast.AST, operator: str, description: str, text: str,
            span: tuple[int, int] | None = None) -> None:
        start, end = span or self.src.span(node)
        self.edits.append(Edit(start, end, node.lineno, operator, description, text))  # type: ignore[attr-defined]

    def run(self, tree: ast.Module) -> list[Edit]:
        for node in ast.walk(tree):
            if node in self.skip:
                continue
            if node in self.decorator:
                if isinstance(node, ast.Constant) and self._status_context(node):
                    self._status(node)
                continue
            handler = getattr(self, f"_on_{type(node).__name__}", None)
            if handler is not None:
                handler(node)
            if isinstance(node, _SIMPLE_STATEMENTS) and node in self.in_function:
                self._statement(node)
        return self.edits

    # -- operators --------------------------------------------------------------------------

    def _on_Compare(self, node: ast.Compare) -> None:
        for i, op in enumerate(node.ops):
            new = _CMP_FLIP[type(op)]()
            ops = [*node.ops[:i], new, *node.ops[i + 1:]]
            mutated = ast.Compare(left=node.left, ops=ops, comparators=node.comparators)
            desc = f"`{_CMP_SYMBOL[type(op)]}` -> `{_CMP_SYMBOL[type(new)]}`"
            self.add(node, "comparison", desc, f"({ast.unparse(mutated)})")

    def _on_BoolOp(self, node: ast.BoolOp) -> None:
        new_op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        old, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        mutated = ast.BoolOp(op=new_op, values=node.values)
        self.add(node, "boolean", f"`{old}` -> `{new}`", f"({ast.unparse(mutated)})")

    def _on_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            operand = self.src.segment(node.operand)
            self.add(node, "boolean", f"`not` removed before `{_short(operand)}`",
                     f"({operand})")

    def _on_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool):
            self.add(node, "boolean", f"`{value}` -> `{not value}`", str(not value))
        elif is_status_code(value) and self._status_context(node):
            self._status(node)
        elif type(value) is int:
            for delta in (1, -1):
                self.add(node, "constant", f"{value} -> {value + delta}", str(value + delta))
        elif isinstance(value, str) and value:
            self.add(node, "constant", f"string {_short(repr(value))} emptied", '""')

    def _on_JoinedStr(self, node: ast.JoinedStr) -> None:
        self.add(node, "constant", f"f-string {_short(self.src.segment(node))} emptied", '""')

    def _on_Return(self, node: ast.Return) -> None:
        value = node.value
        if value is None:
            return
        span = self.src.span(value)
        shown = _short(self.src.segment(value))
        if not (isinstance(value, ast.Constant) and value.value is None):
            self.add(node, "return", f"`return {shown}` -> `return None`", "None", span)
        if not (isinstance(value, ast.Dict) and not value.keys):
            self.add(node, "return", f"`return {shown}` -> `return {{}}`", "{}", span)

    def _statement(self, node: ast.stmt) -> None:
        first = self.src.segment(node).split("\n", 1)[0]
        self.add(node, "statement", f"statement `{_short(first)}` removed", "pass")

    def _status(self, node: ast.Constant) -> None:
        new = mutate_status(node.value)
        self.add(node, "status_code", f"status {node.value} -> {new}", str(new))

    def _status_context(self, node: ast.Constant) -> bool:
        if not is_status_code(node.value):
            return False
        parent = self.parent.get(node)
        if isinstance(parent, ast.keyword):
            return parent.arg in STATUS_KEYWORDS
        if isinstance(parent, ast.Return):
            return True
        if isinstance(parent, ast.Tuple):
            return isinstance(self.parent.get(parent), ast.Return) and parent.elts[0] is not node
        if isinstance(parent, ast.Call) and node in parent.args:
            name = _call_name(parent)
            return name in STATUS_CALLS or any(w in name.lower() for w in STATUS_CALL_WORDS)
        if isinstance(parent, ast.Assign | ast.AnnAssign):
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            return any("status" in _target_name(t).lower() for t in targets)
        return False


def _all_args(args: ast.arguments) -> list[ast.arg]:
    out = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    out += [a for a in (args.vararg, args.kwarg) if a is not None]
    return out


def python_edits(source: str) -> list[Edit]:
    """Every candidate edit of a Python module, in source order (raises SyntaxError)."""
    tree = ast.parse(source)
    src = _Source(source)
    finder = _Finder(tree, src)
    edits = finder.run(tree) + realistic_edits(tree, src, finder.skip, finder.decorator)
    return sorted(edits, key=lambda e: (e.start, OPERATORS.index(e.operator), e.end, e.text))


def python_mutants(path: str, source: str) -> list[Mutant]:
    """The mutants of one Python file, deterministic and in source order.

    Candidates that do not compile or leave the AST unchanged are dropped; a file that does not
    parse has no mutants.
    """
    try:
        original = ast.dump(ast.parse(source))
        edits = python_edits(source)
    except (SyntaxError, ValueError):
        return []
    kept: list[tuple[Edit, str]] = []
    seen = {source}
    for edit in edits:
        mutated = apply_edit(source, edit)
        if mutated in seen:
            continue
        seen.add(mutated)
        try:
            tree = ast.parse(mutated)
            compile(tree, path, "exec")
        except (SyntaxError, ValueError):
            continue
        if ast.dump(tree) != original:
            kept.append((edit, mutated))
    return name_mutants(path, kept)
