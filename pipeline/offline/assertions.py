"""Assertions of a test function classified by strength (pure, `ast` only).

weak: `status` (status code only), `truthy` (the body or a value merely exists);
strong: `presence`, `type`, `value`, `length` (of body fields or headers);
`trivial`: cannot fail (`assert True`, `assert x == x`).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

STRONG = ("presence", "type", "value", "length")


@dataclass(frozen=True)
class Check:
    """One assertion (or one `and`-operand of it)."""

    kind: str  # status | truthy | trivial | presence | type | value | length
    line: int
    codes: tuple[int, ...] = ()
    fields: tuple[str, ...] = ()
    permissive: bool = False  # a status check that accepts success and failure alike
    headers: tuple[str, ...] = ()  # response headers it checks
    looped: bool = False  # inside a loop or all()/any(): vacuous when the collection is empty

    @property
    def strong(self) -> bool:
        return self.kind in STRONG


def call_name(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        base = f.value.id if isinstance(f.value, ast.Name) else ""
        return f"{base}.{f.attr}" if base else f".{f.attr}"
    return ""


# --- assertions -------------------------------------------------------------------------------

def checks(func: ast.FunctionDef) -> list[Check]:
    """Every assertion (each `and`-operand apart) and `raise_for_status()` call, in order."""
    out: list[Check] = []
    looped = _looped_nodes(func)
    for node in ast.walk(func):
        if isinstance(node, ast.Assert):
            leaves = node.test.values if (isinstance(node.test, ast.BoolOp)
                                          and isinstance(node.test.op, ast.And)) else [node.test]
            for leaf in leaves:
                check = _classify(leaf, node.lineno)
                if node in looped or _quantified(leaf):
                    check = replace(check, looped=True)
                out.append(check)
        elif isinstance(node, ast.Call) and call_name(node).endswith("raise_for_status"):
            out.append(Check("status", node.lineno))
    return sorted(out, key=lambda c: c.line)


def _looped_nodes(func: ast.FunctionDef) -> set[ast.AST]:
    """Every node inside the body of a `for`/`while` loop of the function, except a loop over
    a literal list the test wrote (`for zone in ["UTC", "Asia/Kolkata"]`): it always runs."""
    inside: set[ast.AST] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.List | ast.Tuple) \
                and node.iter.elts:
            continue
        if isinstance(node, ast.For | ast.AsyncFor | ast.While):
            for stmt in node.body:
                inside.update(ast.walk(stmt))
    return inside


def _quantified(node: ast.AST) -> bool:
    """`all(... for x in xs)` / `any(...)`: true of an empty collection whatever it holds."""
    return (isinstance(node, ast.Call) and call_name(node) in ("all", "any")
            and bool(node.args) and isinstance(node.args[0], ast.GeneratorExp | ast.ListComp))


def _status_attr(node: ast.AST) -> str | None:
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr in ("status_code", "status"):
            return "code"
        if isinstance(n, ast.Attribute) and n.attr in ("ok", "is_success", "is_error",
                                                       "is_client_error", "is_redirect"):
            return "flag"
    return None


def _codes(node: ast.AST) -> tuple[int, ...]:
    found = {n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
             and isinstance(n.value, int) and not isinstance(n.value, bool)
             and 100 <= n.value <= 599}
    return tuple(sorted(found - _open_bounds(node)))


def _open_bounds(node: ast.AST) -> set[int]:
    """Exclusive class bounds (`200 <= code < 300`): 300 is the limit, not a code asserted."""
    out: set[int] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Compare):
            for op, right in zip(n.ops, n.comparators, strict=False):
                if (isinstance(op, ast.Lt) and isinstance(right, ast.Constant)
                        and isinstance(right.value, int) and right.value % 100 == 0):
                    out.add(right.value)
    return out


def _fields(node: ast.AST) -> tuple[str, ...]:
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Subscript) and _str_const(n.slice) and not _is_headers(n.value):
            out.add(n.slice.value)  # type: ignore[union-attr]
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr == "get" and n.args and _str_const(n.args[0])
              and not _is_headers(n.func.value)
              and not n.args[0].value.startswith(("/", "http://", "https://"))):  # a URL
            out.add(n.args[0].value)  # type: ignore[union-attr]
        elif isinstance(n, ast.Compare) and _str_const(n.left) and isinstance(
                n.ops[0], ast.In | ast.NotIn):
            out.add(n.left.value)  # type: ignore[union-attr]
        elif isinstance(n, ast.Dict):
            out |= {k.value for k in n.keys if k is not None and _str_const(k)}  # type: ignore
        elif isinstance(n, ast.Set):
            out |= {e.value for e in n.elts if _str_const(e)}  # type: ignore[union-attr]
    return tuple(sorted(f for f in out if f and len(f) <= 64))


def _headers(node: ast.AST) -> tuple[str, ...]:
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Subscript) and _is_headers(n.value) and _str_const(n.slice):
            out.add(n.slice.value)  # type: ignore[union-attr]
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr == "get" and _is_headers(n.func.value) and n.args
              and _str_const(n.args[0])):
            out.add(n.args[0].value)  # type: ignore[union-attr]
    return tuple(sorted(out))


def _str_const(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _is_headers(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "headers"


def _permissive(node: ast.AST, codes: tuple[int, ...]) -> bool:
    classes = {c // 100 for c in codes}
    negative = isinstance(node, ast.Compare) and all(
        isinstance(op, ast.NotEq | ast.NotIn) for op in node.ops)
    return (2 in classes and bool(classes & {4, 5})) or len(codes) >= 4 or negative


def _classify(node: ast.AST, line: int) -> Check:
    if isinstance(node, ast.Constant):
        return Check("trivial", line)
    if (isinstance(node, ast.Compare) and len(node.ops) == 1
            and ast.dump(node.left) == ast.dump(node.comparators[0])):
        return Check("trivial", line)
    if isinstance(node, ast.BoolOp):  # `or`: as weak as its weakest branch
        parts = [_classify(v, line) for v in node.values]
        order = ["trivial", "truthy", "status", "presence", "type", "length", "value"]
        kind = min((p.kind for p in parts), key=order.index)
        codes = tuple(sorted({c for p in parts for c in p.codes}))
        return Check(kind, line, codes, tuple(sorted({f for p in parts for f in p.fields})),
                     _permissive(node, codes) or any(p.permissive for p in parts),
                     looped=any(p.looped for p in parts))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _classify(node.operand, line)
        return Check("value" if inner.fields else inner.kind, line, inner.codes, inner.fields)
    fields = _fields(node)
    headers = _headers(node)
    status = _status_attr(node)
    if status and not fields and not headers:
        codes = _codes(node) if status == "code" else ()
        return Check("status", line, codes, (), _permissive(node, codes))
    return Check(_body_kind(node, fields or headers), line, (), fields, headers=headers)


def _key_set(node: ast.AST) -> bool:
    """The keys of a body: `body.keys()`, `set(body)`, `set(r.json())` (not `set(body["tags"])`,
    whose members are values)."""
    if not isinstance(node, ast.Call):
        return False
    name = call_name(node)
    if name.endswith(".keys"):
        return True
    if name in ("set", "sorted", "list") and len(node.args) == 1:
        arg = node.args[0]
        return isinstance(arg, ast.Name) or (isinstance(arg, ast.Call)
                                             and call_name(arg).endswith(".json"))
    return False


_PROSE = re.compile(r"[A-Za-z\u4e00-\u9fff]{2,}[^\w\"{}\[\]]+[A-Za-z\u4e00-\u9fff]{2,}")


def _page_prose(left: ast.AST, right: ast.AST) -> bool:
    """`"You chose: rock" in response.text`: words a page must show are its content (a
    value), unlike a key name or a tag looked for in the raw text."""
    text = left.value if isinstance(left, ast.Constant) else None
    return (isinstance(right, ast.Attribute) and right.attr == "text" and isinstance(text, str)
            and _PROSE.search(text) is not None and not text.lstrip().startswith(("<", "{")))


def _body_kind(node: ast.AST, fields: tuple[str, ...]) -> str:
    if isinstance(node, ast.Call):
        return _call_kind(node, fields)
    if isinstance(node, ast.Compare):
        return _compare_kind(node, fields)
    return "presence" if fields else "truthy"


# what a call checks of the fields it reads (any other call: their value); a call that reads
# no field only shows the body is truthy
_CALL_KINDS = {"len": "length", ".get": "presence"}


def _call_kind(node: ast.Call, fields: tuple[str, ...]) -> str:
    name = call_name(node)
    if name == "isinstance":
        return "type"
    if name in ("all", "any") and node.args:
        inner = node.args[0]
        elt = inner.elt if isinstance(inner, ast.GeneratorExp | ast.ListComp) else inner
        return _body_kind(elt, fields)
    return _CALL_KINDS.get(name, "value") if fields else "truthy"


def _compare_kind(node: ast.Compare, fields: tuple[str, ...]) -> str:
    op, right = node.ops[0], node.comparators[0]
    if isinstance(op, ast.In | ast.NotIn) and _str_const(node.left):
        # `"token" not in refused.text`: what a wrong answer would carry is absent
        absent = isinstance(op, ast.NotIn) and isinstance(right, ast.Attribute) \
            and right.attr == "text"
        return "value" if absent or _page_prose(node.left, right) else "presence"
    if any(_key_set(side) for side in (node.left, *node.comparators)):
        return "presence"  # `{"id", "name"} <= set(body)`: which keys, not their values
    if any(isinstance(n, ast.Call) and call_name(n) == "len" for n in ast.walk(node)):
        return "length"
    if isinstance(op, ast.IsNot) and isinstance(right, ast.Constant) and right.value is None:
        return "presence" if fields else "truthy"
    return "value"
