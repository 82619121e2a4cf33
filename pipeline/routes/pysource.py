"""A static index of a Python project: modules, imports, top-level definitions, constants.

Routes are declared on objects that are often built in one module and used in another
(`from .routers import items; app.include_router(items.router)`), with paths built from
module constants (`PREFIX = "/api"`). Resolving names to a canonical `(module, name)` pair
and strings to their values, without importing anything, is what makes that work.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path

MAX_DEPTH = 12


@dataclass(frozen=True)
class ModuleRef:
    """A name that refers to a whole module (`from . import views`)."""

    name: str


Ref = tuple[str, str]  # (canonical module name, dotted name inside it)


@dataclass
class Module:
    name: str
    path: Path
    rel: str
    tree: ast.Module
    is_package: bool
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    assigns: dict[str, list[ast.expr]] = field(default_factory=dict)
    defs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = field(
        default_factory=dict
    )

    @property
    def package(self) -> str:
        return self.name if self.is_package else self.name.rpartition(".")[0]


def _module_name(rel: Path) -> tuple[str, bool]:
    parts = list(rel.with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts) or "__init__", is_package


def _index_module(mod: Module) -> None:
    """Record imports (at any depth: factories import inside functions) and bindings."""
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Import):
            _record_import(mod, node)
        elif isinstance(node, ast.ImportFrom):
            _record_import_from(mod, node)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and node.value is not None:
                    mod.assigns.setdefault(target.id, []).append(node.value)
    for stmt in mod.tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            mod.defs[stmt.name] = stmt


def _record_import(mod: Module, node: ast.Import) -> None:
    """`import a.b` binds `a`; `import a.b as c` binds `c` to the module itself."""
    for alias in node.names:
        if alias.asname:
            mod.imports[alias.asname] = (alias.name, None)
        else:
            top = alias.name.split(".")[0]
            mod.imports[top] = (top, None)


def _record_import_from(mod: Module, node: ast.ImportFrom) -> None:
    """`from ..x import y`: relative imports resolve against the module's package."""
    base = node.module or ""
    if node.level:
        pkg = mod.package.split(".") if mod.package else []
        pkg = pkg[: len(pkg) - (node.level - 1)] if node.level > 1 else pkg
        base = ".".join([*pkg, base] if base else pkg)
    for alias in node.names:
        if alias.name != "*":
            mod.imports[alias.asname or alias.name] = (base, alias.name)


class Project:
    """Every parseable module under a folder, addressable by dotted name."""

    def __init__(self, modules: list[Module]) -> None:
        self.modules = {m.name: m for m in modules}
        self._by_suffix: dict[str, list[Module]] = {}
        for m in modules:
            parts = m.name.split(".")
            for i in range(len(parts)):
                self._by_suffix.setdefault(".".join(parts[i:]), []).append(m)

    @classmethod
    def load(cls, root: Path, files: list[Path]) -> Project:
        modules = []
        for path in files:
            try:
                tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
            except (SyntaxError, ValueError, RecursionError):
                continue  # Python 2 or broken files: nothing we can read statically
            rel = path.relative_to(root)
            name, is_package = _module_name(rel)
            mod = Module(name, path, rel.as_posix(), tree, is_package)
            _index_module(mod)
            modules.append(mod)
        return cls(modules)

    def find(self, name: str, near: Module | None = None) -> Module | None:
        """The module called `name`; when the scan root is above the import root (a repo
        holding `service/app/...` importing `app....`), fall back to the closest suffix match."""
        if name in self.modules:
            return self.modules[name]
        cands = self._by_suffix.get(name, [])
        if not cands:
            return None
        if near is None or len(cands) == 1:
            return cands[0]
        return max(cands, key=lambda m: len(os.path.commonprefix([m.rel, near.rel])))

    # ---- names -------------------------------------------------------------------------

    def symbol(self, mod: Module, name: str, depth: int = 0) -> Ref | ModuleRef:
        """Canonical home of `name` as seen from `mod`, following imports and re-exports."""
        if depth > MAX_DEPTH or name in mod.assigns or name in mod.defs:
            return (mod.name, name)
        if name not in mod.imports:
            return (mod.name, name)
        target, attr = mod.imports[name]
        if attr is None:
            found = self.find(target, mod)
            return ModuleRef(found.name if found else target)
        owner = self.find(target, mod) if target else None
        if owner is not None and (attr in owner.assigns or attr in owner.defs):
            return self.symbol(owner, attr, depth + 1)
        sub = self.find(f"{target}.{attr}", mod) if target else self.find(attr, mod)
        if sub is not None:
            return ModuleRef(sub.name)
        if owner is None:
            return (target, attr)
        return self.symbol(owner, attr, depth + 1)

    def ref(self, mod: Module, expr: ast.expr, depth: int = 0) -> Ref | ModuleRef | None:
        """Canonical reference for a Name / Attribute chain; None for anything computed."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(expr, ast.Name):
            return self.symbol(mod, expr.id)
        if isinstance(expr, ast.Attribute):
            base = self.ref(mod, expr.value, depth + 1)
            if isinstance(base, ModuleRef):
                owner = self.find(base.name, mod)
                if owner is None:
                    return (base.name, expr.attr)
                sub = self.find(f"{owner.name}.{expr.attr}", mod)
                return ModuleRef(sub.name) if sub else self.symbol(owner, expr.attr)
            if base is not None:
                return (base[0], f"{base[1]}.{expr.attr}")
        return None

    def definition(
        self, ref: Ref | ModuleRef | None
    ) -> tuple[Module, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] | None:
        """The top-level def or class a reference names, when it lives in the project."""
        if not isinstance(ref, tuple):
            return None
        mod = self.modules.get(ref[0])
        if mod is None or ref[1] not in mod.defs:
            return None
        return mod, mod.defs[ref[1]]

    def value(self, ref: Ref | ModuleRef | None, depth: int = 0) -> tuple[Module, ast.expr] | None:
        """The expression last assigned to a module-level name (or a class attribute, or an
        attribute of a module-level instance such as pydantic `settings.API_PREFIX`)."""
        if not isinstance(ref, tuple) or depth > MAX_DEPTH:
            return None
        mod = self.modules.get(ref[0])
        if mod is None:
            return None
        head, _, rest = ref[1].partition(".")
        if not rest:
            values = mod.assigns.get(head)
            return (mod, values[-1]) if values else None
        cls_def = self.definition((mod.name, head))
        if cls_def is None and head in mod.assigns:
            ctor = mod.assigns[head][-1]
            if isinstance(ctor, ast.Call):
                cls_def = self.definition(self.ref(mod, ctor.func))
        if cls_def is None or not isinstance(cls_def[1], ast.ClassDef):
            return None
        for stmt in cls_def[1].body:
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if any(isinstance(t, ast.Name) and t.id == rest for t in targets):
                    return cls_def[0], stmt.value
        return None

    # ---- strings -----------------------------------------------------------------------

    def string(self, mod: Module, expr: ast.expr | None, depth: int = 0) -> str | None:
        """The value of a statically known string expression, else None."""
        if expr is None or depth > MAX_DEPTH:
            return None
        if isinstance(expr, ast.Constant):
            return expr.value if isinstance(expr.value, str) else None
        if isinstance(expr, ast.Name | ast.Attribute):
            found = self.value(self.ref(mod, expr))
            return self.string(found[0], found[1], depth + 1) if found else None
        if isinstance(expr, ast.JoinedStr):
            return self._fstring(mod, expr, depth)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            left = self.string(mod, expr.left, depth + 1)
            right = self.string(mod, expr.right, depth + 1)
            return left + right if left is not None and right is not None else None
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
            return self._percent(mod, expr, depth)
        if isinstance(expr, ast.Call):
            return self._string_call(mod, expr, depth)
        return None

    def _fstring(self, mod: Module, expr: ast.JoinedStr, depth: int) -> str | None:
        """An f-string whose every placeholder is known (a format spec makes it unknown)."""
        parts = []
        for part in expr.values:
            if isinstance(part, ast.FormattedValue):
                if part.format_spec is not None:
                    return None
                part = part.value
            text = self.string(mod, part, depth + 1)
            if text is None:
                return None
            parts.append(text)
        return "".join(parts)

    def _percent(self, mod: Module, expr: ast.BinOp, depth: int) -> str | None:
        """`"/%s/items" % PREFIX`: known when the format and every argument are."""
        fmt = self.string(mod, expr.left, depth + 1)
        items = expr.right.elts if isinstance(expr.right, ast.Tuple) else [expr.right]
        args = [self.string(mod, e, depth + 1) for e in items]
        if fmt is None or None in args:
            return None
        try:
            return fmt % tuple(args)
        except (TypeError, ValueError):
            return None

    def _string_call(self, mod: Module, call: ast.Call, depth: int) -> str | None:
        func = call.func
        if not isinstance(func, ast.Attribute):
            return None
        if func.attr == "format":
            fmt = self.string(mod, func.value, depth + 1)
            args = [self.string(mod, a, depth + 1) for a in call.args]
            kwargs = {k.arg: self.string(mod, k.value, depth + 1) for k in call.keywords}
            if fmt is None or None in args or None in kwargs.values() or None in kwargs:
                return None
            try:
                return fmt.format(*args, **kwargs)
            except (IndexError, KeyError, ValueError):
                return None
        if func.attr in ("get", "getenv") and len(call.args) == 2:
            # os.environ.get("PREFIX", "/api") / os.getenv(...): the default is what ships
            return self.string(mod, call.args[1], depth + 1)
        if func.attr == "join" and len(call.args) == 1:
            sep = self.string(mod, func.value, depth + 1)
            seq = call.args[0]
            if sep is None or not isinstance(seq, ast.List | ast.Tuple):
                return None
            items = [self.string(mod, e, depth + 1) for e in seq.elts]
            return None if None in items else sep.join(items)  # type: ignore[arg-type]
        return None

    def strings(self, mod: Module, expr: ast.expr | None) -> list[str] | None:
        """A string or a list/tuple/set of strings (`methods=["GET", "POST"]`)."""
        if expr is None:
            return None
        if isinstance(expr, ast.Name | ast.Attribute):
            found = self.value(self.ref(mod, expr))
            if found and isinstance(found[1], ast.List | ast.Tuple | ast.Set):
                return self.strings(found[0], found[1])
        if isinstance(expr, ast.List | ast.Tuple | ast.Set):
            items = [self.string(mod, e) for e in expr.elts]
            return None if None in items else items  # type: ignore[return-value]
        one = self.string(mod, expr)
        return [one] if one is not None else None


def call_name(call: ast.Call) -> str:
    """Last component of the called name: `web.Blueprint(...)` → "Blueprint"."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def kwarg(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def arg(call: ast.Call, index: int, name: str) -> ast.expr | None:
    """Positional argument `index` or keyword `name`, whichever the call used."""
    found = kwarg(call, name)
    if found is not None:
        return found
    if index < len(call.args) and not isinstance(call.args[index], ast.Starred):
        return call.args[index]
    return None


HANDLER_NAMES = ("get", "post", "put", "patch", "delete", "head", "options", "trace")


def class_handlers(project: Project, mod: Module, cls: ast.ClassDef, depth: int = 0) -> list[str]:
    """HTTP methods a class-based view answers: its `get`/`post`/... methods, those of its
    project base classes, or an explicit `methods = [...]` attribute (Flask MethodView)."""
    found: list[str] = []
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "methods" for t in stmt.targets
        ):
            listed = project.strings(mod, stmt.value)
            if listed:
                return [m.upper() for m in listed]
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name in HANDLER_NAMES:
            found.append(stmt.name.upper())
    if depth < MAX_DEPTH:
        for base in cls.bases:
            hit = project.definition(project.ref(mod, base))
            if hit and isinstance(hit[1], ast.ClassDef):
                for method in class_handlers(project, hit[0], hit[1], depth + 1):
                    if method not in found:
                        found.append(method)
    return found
