"""Flask, FastAPI and Starlette routes, read from the AST as a graph of routers.

Each app, Blueprint, APIRouter, Namespace or Starlette Router is a node holding its own
routes; `register_blueprint`, `include_router`, `mount` and `Mount` are edges carrying a
prefix. Walking the graph from the nodes nobody includes gives every full path, even when
routers live in other modules than the app that includes them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from pipeline.routes.model import ANY_METHOD, Route, join_paths, normalize_path
from pipeline.routes.pysource import (
    HANDLER_NAMES,
    Module,
    Project,
    Ref,
    arg,
    call_name,
    class_handlers,
    kwarg,
)

CTORS = {
    "Flask": ("flask", "url_prefix"),
    "Quart": ("flask", "url_prefix"),
    "Blueprint": ("flask", "url_prefix"),
    "Api": ("flask", "prefix"),
    "Namespace": ("flask", "path"),
    "FastAPI": ("fastapi", ""),
    "APIRouter": ("fastapi", "prefix"),
    "Starlette": ("starlette", ""),
    "Router": ("starlette", ""),
}
ROUTE_DECORATORS = {"route", "api_route", *HANDLER_NAMES}


@dataclass
class _Local:
    method: str
    path: str
    prefix: bool
    file: str
    line: int


@dataclass
class _Edge:
    child: Ref
    prefix: str
    replaces_own: bool  # Flask register_blueprint(url_prefix=...) overrides the bp's own


@dataclass
class _Node:
    framework: str = ""
    own_prefix: str = ""
    known: bool = False  # built by a constructor we recognise
    routes: list[_Local] = field(default_factory=list)
    edges: list[_Edge] = field(default_factory=list)


def _framework_of(mod: Module) -> str:
    roots = {target.split(".")[0] for target, _ in mod.imports.values()}
    for name in ("fastapi", "starlette", "flask", "quart"):
        if name in roots:
            return "flask" if name == "quart" else name
    return "python"


class AppGraph:
    """Routers of one project and the edges between them."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.nodes: dict[Ref, _Node] = {}

    # ---- nodes -------------------------------------------------------------------------

    def node(self, ref: Ref, mod: Module) -> _Node:
        if ref in self.nodes:
            return self.nodes[ref]
        node = self.nodes[ref] = _Node()
        found = self.project.value(ref)
        home = self.project.modules.get(ref[0], mod)
        if found and isinstance(found[1], ast.Call) and call_name(found[1]) in CTORS:
            cmod, call = found
            node.framework, prefix_kw = CTORS[call_name(call)]
            node.known = True
            if prefix_kw:
                node.own_prefix = self.project.string(cmod, kwarg(call, prefix_kw)) or ""
            if call_name(call) == "Namespace" and not node.own_prefix:
                name = self.project.string(cmod, arg(call, 0, "name"))
                node.own_prefix = "/" + name if name else ""
            routes = kwarg(call, "routes")
            if routes is not None:
                self.route_list(cmod, routes, node)
            parent = arg(call, 0, "app") if call_name(call) == "Api" else None
            if parent is not None:
                self.edge(cmod, parent, ref, "", replaces_own=False)
        else:
            node.framework = _framework_of(home) if home else _framework_of(mod)
        return node

    def receiver(self, mod: Module, expr: ast.expr) -> Ref | None:
        ref = self.project.ref(mod, expr)
        return ref if isinstance(ref, tuple) else None

    def edge(self, mod: Module, parent: ast.expr, child: Ref, prefix: str, replaces_own: bool):
        pref = self.receiver(mod, parent)
        if pref is not None and pref != child:
            self.node(pref, mod).edges.append(_Edge(child, prefix, replaces_own))

    def add(self, node: _Node, mod: Module, methods: list[str], path: str, line: int) -> None:
        for method in methods:
            node.routes.append(_Local(method.upper(), path, False, mod.rel, line))

    # ---- Starlette route lists ---------------------------------------------------------

    def route_list(self, mod: Module, expr: ast.expr, node: _Node, depth: int = 0) -> None:
        if depth > 8:
            return
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            self.route_list(mod, expr.left, node, depth + 1)
            self.route_list(mod, expr.right, node, depth + 1)
        elif isinstance(expr, ast.Name | ast.Attribute):
            ref = self.project.ref(mod, expr)
            if isinstance(ref, tuple) and ref[0] in self.project.modules:
                home = self.project.modules[ref[0]]
                for value in home.assigns.get(ref[1], []):
                    self.route_list(home, value, node, depth + 1)
        elif isinstance(expr, ast.List | ast.Tuple):
            for elt in expr.elts:
                if isinstance(elt, ast.Starred):
                    self.route_list(mod, elt.value, node, depth + 1)
                elif isinstance(elt, ast.Call):
                    self.route_entry(mod, elt, node, depth)

    def route_entry(self, mod: Module, call: ast.Call, node: _Node, depth: int) -> None:
        name = call_name(call)
        path = self.project.string(mod, arg(call, 0, "path"))
        if path is None:
            return
        if name == "Route":
            methods = self.view_methods(mod, arg(call, 1, "endpoint"), kwarg(call, "methods"))
            self.add(node, mod, methods, path, call.lineno)
        elif name == "Mount":
            routes = kwarg(call, "routes")
            if routes is not None:
                child_ref = (mod.name, f"<Mount@{call.lineno}:{call.col_offset}>")
                child = self.nodes[child_ref] = _Node("starlette", known=True)
                self.route_list(mod, routes, child, depth + 1)
                node.edges.append(_Edge(child_ref, path, replaces_own=False))
            else:
                self.mount(mod, node, path, arg(call, 1, "app"), call.lineno)

    def mount(self, mod: Module, node: _Node, path: str, app: ast.expr | None, line: int):
        """A mounted sub-application: a router we know becomes an edge, anything else
        (StaticFiles, a WSGI app) a prefix route answering every method."""
        ref = self.receiver(mod, app) if app is not None else None
        if ref is not None and (ref in self.nodes or self._is_router(ref)):
            self.node(ref, mod)
            node.edges.append(_Edge(ref, path, replaces_own=False))
        else:
            node.routes.append(_Local(ANY_METHOD, path, True, mod.rel, line))

    def _ctor(self, ref: Ref) -> str:
        found = self.project.value(ref)
        return call_name(found[1]) if found and isinstance(found[1], ast.Call) else ""

    def _is_router(self, ref: Ref) -> bool:
        return self._ctor(ref) in CTORS

    def target(self, mod: Module, receiver: ast.expr, path: str | None) -> _Node | None:
        """The router a route call is made on; an unknown receiver (not built by a router
        constructor we recognise) must at least be given a path that looks like a route."""
        ref = self.receiver(mod, receiver)
        if ref is None or path is None:
            return None
        known = (ref in self.nodes and self.nodes[ref].known) or self._is_router(ref)
        if not known and not path.startswith("/"):
            return None
        return self.node(ref, mod)

    def view_methods(
        self, mod: Module, view: ast.expr | None, methods: ast.expr | None, default: str = "GET"
    ) -> list[str]:
        """Methods from an explicit `methods=`, else from a class-based view, else `default`."""
        if methods is not None:
            listed = self.project.strings(mod, methods)
            return [m.upper() for m in listed] if listed is not None else [ANY_METHOD]
        if isinstance(view, ast.Name):  # view = ItemAPI.as_view("item"); add_url_rule(...)
            found = self.project.value(self.project.ref(mod, view))
            if found and isinstance(found[1], ast.Call):
                mod, view = found
        is_call = isinstance(view, ast.Call) and isinstance(view.func, ast.Attribute)
        if is_call and view.func.attr == "as_view":  # type: ignore[union-attr]
            view = view.func.value  # type: ignore[union-attr]  # MethodView.as_view("name")
        hit = self.project.definition(self.project.ref(mod, view)) if view is not None else None
        if hit and isinstance(hit[1], ast.ClassDef):
            return class_handlers(self.project, hit[0], hit[1]) or [ANY_METHOD]
        return [default]

    # ---- resolution ----------------------------------------------------------------------

    def routes(self) -> list[Route]:
        children = {e.child for n in self.nodes.values() for e in n.edges}
        out: list[Route] = []
        for ref, node in list(self.nodes.items()):
            if ref not in children:
                self._emit(ref, node.own_prefix, out, (ref,))
        return out

    def _emit(self, ref: Ref, prefix: str, out: list[Route], seen: tuple[Ref, ...]) -> None:
        node = self.nodes[ref]
        for r in node.routes:
            path = normalize_path(join_paths(prefix, r.path))
            out.append(Route(r.method, path, r.prefix, r.file, r.line, node.framework))
        for edge in node.edges:
            if edge.child in seen or edge.child not in self.nodes:
                continue
            child = self.nodes[edge.child]
            own = "" if edge.replaces_own else child.own_prefix
            sub = join_paths(join_paths(prefix, edge.prefix), own)
            self._emit(edge.child, sub, out, (*seen, edge.child))


class _Visitor(ast.NodeVisitor):
    """Walks one module (function bodies included: apps are often built in factories)."""

    def __init__(self, graph: AppGraph, mod: Module) -> None:
        self.graph, self.mod, self.project = graph, mod, graph.project
        self.subst: dict[str, ast.expr] = {}

    def _expr(self, expr: ast.expr) -> ast.expr:
        if isinstance(expr, ast.Name) and expr.id in self.subst:
            return self.subst[expr.id]
        return expr

    def _child(self, expr: ast.expr | None) -> Ref | None:
        if expr is None:
            return None
        ref = self.graph.receiver(self.mod, self._expr(expr))
        if ref is not None:
            self.graph.node(ref, self.mod)
        return ref

    def visit_For(self, node: ast.For) -> None:
        items = node.iter
        if isinstance(items, ast.Name):
            found = self.project.value(self.project.ref(self.mod, items))
            items = found[1] if found and found[0] is self.mod else items
        if isinstance(node.target, ast.Name) and isinstance(items, ast.List | ast.Tuple):
            for elt in items.elts:
                self.subst[node.target.id] = elt
                for stmt in node.body:
                    self.visit(stmt)
            self.subst.pop(node.target.id, None)
        else:
            self.generic_visit(node)

    def _decorated(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        for dec in node.decorator_list:
            if not (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute)):
                continue
            verb = dec.func.attr
            if verb not in ROUTE_DECORATORS:
                continue
            path = self.project.string(self.mod, arg(dec, 0, "path") or kwarg(dec, "rule"))
            target = self.graph.target(self.mod, dec.func.value, path)
            if target is None or path is None:
                continue
            if verb in HANDLER_NAMES:
                methods = [verb.upper()]
            else:
                view = ast.Name(node.name) if isinstance(node, ast.ClassDef) else None
                methods = self.graph.view_methods(self.mod, view, kwarg(dec, "methods"))
            self.graph.add(target, self.mod, methods, path, dec.lineno)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._decorated(node)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]
    visit_ClassDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Call(self, call: ast.Call) -> None:
        self.generic_visit(call)
        func = call.func
        if not isinstance(func, ast.Attribute):
            return
        handler = getattr(self, f"_call_{func.attr}", None)
        if handler is not None:
            handler(call, func.value)

    def _call_register_blueprint(self, call: ast.Call, parent: ast.expr) -> None:
        child = self._child(arg(call, 0, "blueprint"))
        prefix_expr = kwarg(call, "url_prefix")
        prefix = self.project.string(self.mod, prefix_expr) if prefix_expr else None
        if child is not None:
            self.graph.edge(self.mod, parent, child, prefix or "", replaces_own=prefix is not None)

    def _call_include_router(self, call: ast.Call, parent: ast.expr) -> None:
        child = self._child(arg(call, 0, "router"))
        prefix = self.project.string(self.mod, kwarg(call, "prefix")) or ""
        if child is not None:
            self.graph.edge(self.mod, parent, child, prefix, replaces_own=False)

    def _call_add_namespace(self, call: ast.Call, parent: ast.expr) -> None:
        child = self._child(arg(call, 0, "ns"))
        path_expr = kwarg(call, "path")
        prefix = self.project.string(self.mod, path_expr) if path_expr else None
        if child is not None:
            self.graph.edge(self.mod, parent, child, prefix or "", replaces_own=prefix is not None)

    def _call_init_app(self, call: ast.Call, parent: ast.expr) -> None:
        """Flask-RESTful `api = Api(); api.init_app(app)`."""
        ref = self.graph.receiver(self.mod, parent)
        if ref is not None and call.args and self.graph._ctor(ref) == "Api":
            self.graph.edge(self.mod, self._expr(call.args[0]), ref, "", replaces_own=False)

    def _call_mount(self, call: ast.Call, parent: ast.expr) -> None:
        path = self.project.string(self.mod, arg(call, 0, "path"))
        target = self.graph.target(self.mod, parent, path)
        if target is not None and path is not None:
            self.graph.mount(self.mod, target, path, arg(call, 1, "app"), call.lineno)

    def _rule(self, call: ast.Call, parent: ast.expr, view: ast.expr | None) -> None:
        path = self.project.string(self.mod, arg(call, 0, "rule") or kwarg(call, "path"))
        target = self.graph.target(self.mod, parent, path)
        if target is not None and path is not None:
            methods = self.graph.view_methods(self.mod, view, kwarg(call, "methods"))
            self.graph.add(target, self.mod, methods, path, call.lineno)

    def _call_add_url_rule(self, call: ast.Call, parent: ast.expr) -> None:
        self._rule(call, parent, arg(call, 2, "view_func"))

    def _call_add_api_route(self, call: ast.Call, parent: ast.expr) -> None:
        self._rule(call, parent, arg(call, 1, "endpoint"))

    _call_add_route = _call_add_api_route

    def _call_add_resource(self, call: ast.Call, parent: ast.expr) -> None:
        """Flask-RESTful `api.add_resource(ItemResource, "/items/<id>", "/items")`."""
        if not call.args:
            return
        methods = self.graph.view_methods(self.mod, call.args[0], None, default=ANY_METHOD)
        for url in call.args[1:]:
            path = self.project.string(self.mod, url)
            target = self.graph.target(self.mod, parent, path)
            if target is not None and path is not None:
                self.graph.add(target, self.mod, methods, path, call.lineno)


def extract_app_routes(project: Project) -> list[Route]:
    """All Flask / FastAPI / Starlette routes of a project, with full paths."""
    graph = AppGraph(project)
    for mod in project.modules.values():
        for name, values in mod.assigns.items():
            if isinstance(values[-1], ast.Call) and call_name(values[-1]) in CTORS:
                graph.node((mod.name, name), mod)  # unattached routers still count
    for mod in project.modules.values():
        try:
            _Visitor(graph, mod).visit(mod.tree)
        except RecursionError:
            continue  # pathologically nested source: keep what the other modules give
    return graph.routes()
