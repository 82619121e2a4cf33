"""Django URLconfs (`path`, `re_path`, `url`, `include`) and DRF routers, read from the AST.

Django routes are plain data (`urlpatterns` lists) so they can be evaluated statically: start
at ROOT_URLCONF (or every URLconf nobody includes), concatenate prefixes as Django does, and
learn methods where the view says so (`@api_view`, `require_http_methods`, a class's
handlers); otherwise a route answers "*".
"""

from __future__ import annotations

import ast

from pipeline.routes.model import ANY_METHOD, Route, normalize_path, regex_to_path
from pipeline.routes.pysource import Module, Project, arg, call_name, class_handlers

PATH_CALLS = {"path", "re_path", "url"}
REQUIRE = {"require_GET": ["GET"], "require_POST": ["POST"], "require_safe": ["GET", "HEAD"]}
GENERIC_METHODS = {
    "ListAPIView": ["GET"],
    "CreateAPIView": ["POST"],
    "RetrieveAPIView": ["GET"],
    "DestroyAPIView": ["DELETE"],
    "UpdateAPIView": ["PUT", "PATCH"],
    "ListCreateAPIView": ["GET", "POST"],
    "RetrieveUpdateAPIView": ["GET", "PUT", "PATCH"],
    "RetrieveDestroyAPIView": ["GET", "DELETE"],
    "RetrieveUpdateDestroyAPIView": ["GET", "PUT", "PATCH", "DELETE"],
    "TemplateView": ["GET"],
    "ListView": ["GET"],
    "DetailView": ["GET"],
}
PLAIN_BASES = {"View", "APIView", "object", "GenericAPIView"}
ROUTERS = {"DefaultRouter", "SimpleRouter", "ExtendedDefaultRouter", "NestedSimpleRouter"}


class _UrlConf:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.out: list[Route] = []
        self.included: set[str] = set()

    # ---- views -------------------------------------------------------------------------

    def methods(self, mod: Module, view: ast.expr | None) -> list[str]:
        if isinstance(view, ast.Call) and isinstance(view.func, ast.Attribute):
            if view.func.attr != "as_view":
                return [ANY_METHOD]
            view = view.func.value
        if view is None:
            return [ANY_METHOD]
        hit = self.project.definition(self.project.ref(mod, view))
        if hit is None:
            return [ANY_METHOD]
        vmod, node = hit
        if isinstance(node, ast.ClassDef):
            return self._class_methods(vmod, node)
        for dec in node.decorator_list:
            found = self._decorator_methods(vmod, dec)
            if found is not None:
                return found
        return [ANY_METHOD]

    def _decorator_methods(self, mod: Module, dec: ast.expr) -> list[str] | None:
        """The methods a function view's decorator allows; None when it says nothing."""
        name = call_name(dec) if isinstance(dec, ast.Call) else getattr(dec, "id", "")
        if name in REQUIRE:
            return REQUIRE[name]
        if name in ("api_view", "require_http_methods") and isinstance(dec, ast.Call):
            listed = self.project.strings(mod, arg(dec, 0, "http_method_names"))
            if name == "api_view" and not dec.args and not dec.keywords:
                return ["GET"]  # DRF's default
            return [m.upper() for m in listed] if listed else [ANY_METHOD]
        if name == "api_view":
            return ["GET"]
        return None

    def _class_methods(self, mod: Module, cls: ast.ClassDef) -> list[str]:
        found = class_handlers(self.project, mod, cls)
        for base in cls.bases:
            name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
            if name in GENERIC_METHODS:
                found += [m for m in GENERIC_METHODS[name] if m not in found]
            elif (
                name not in PLAIN_BASES
                and self.project.definition(self.project.ref(mod, base)) is None
            ):
                return [ANY_METHOD]  # a base we cannot see may answer anything
        return found or [ANY_METHOD]

    # ---- patterns ----------------------------------------------------------------------

    def patterns(self, mod: Module, expr: ast.expr | None, prefix: str, regex: bool, depth: int):
        """Emit every route of a urlpatterns expression under `prefix`."""
        if expr is None or depth > 10:
            return
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            self.patterns(mod, expr.left, prefix, regex, depth + 1)
            self.patterns(mod, expr.right, prefix, regex, depth + 1)
        elif isinstance(expr, ast.List | ast.Tuple):
            self._listed(mod, expr, prefix, regex, depth)
        elif isinstance(expr, ast.Attribute) and expr.attr == "urls":
            self.router(mod, expr.value, prefix)
        elif isinstance(expr, ast.Name | ast.Attribute):
            self._named(mod, expr, prefix, regex, depth)
        elif isinstance(expr, ast.Call) and call_name(expr) == "format_suffix_patterns":
            self.patterns(mod, arg(expr, 0, "urlpatterns"), prefix, regex, depth + 1)

    def _listed(self, mod: Module, expr: ast.List | ast.Tuple, prefix: str, regex: bool,
                depth: int) -> None:
        """A literal list: `path(...)` entries, and `*other_patterns` spliced in."""
        for elt in expr.elts:
            if isinstance(elt, ast.Starred):
                self.patterns(mod, elt.value, prefix, regex, depth + 1)
            elif isinstance(elt, ast.Call) and call_name(elt) in PATH_CALLS:
                self.entry(mod, elt, prefix, regex, depth)

    def _named(self, mod: Module, expr: ast.Name | ast.Attribute, prefix: str, regex: bool,
               depth: int) -> None:
        """A name bound elsewhere in the project: every value assigned to it."""
        ref = self.project.ref(mod, expr)
        if isinstance(ref, tuple) and ref[0] in self.project.modules:
            home = self.project.modules[ref[0]]
            for value in home.assigns.get(ref[1], []):
                self.patterns(home, value, prefix, regex, depth + 1)

    def entry(self, mod: Module, call: ast.Call, prefix: str, regex: bool, depth: int) -> None:
        raw = self.project.string(mod, arg(call, 0, "route"))
        if raw is None:
            return
        is_regex = regex or call_name(call) != "path"
        view = arg(call, 1, "view")
        if isinstance(view, ast.Call) and call_name(view) == "include":
            self.include(mod, view, prefix + self._piece(raw, is_regex, leaf=False)[0], depth)
            return
        if isinstance(view, ast.Attribute) and view.attr == "urls":  # admin.site.urls, router.urls
            before = len(self.out)
            sub_prefix = prefix + self._piece(raw, is_regex, leaf=False)[0]
            self.router(mod, view.value, sub_prefix)
            if len(self.out) == before:
                self.out.append(
                    Route(
                        ANY_METHOD, normalize_path(sub_prefix), True, mod.rel, call.lineno, "django"
                    )
                )
            return
        piece, open_tail = self._piece(raw, is_regex, leaf=True)
        path = normalize_path(prefix + piece)
        for method in self.methods(mod, view):
            self.out.append(Route(method, path, open_tail, mod.rel, call.lineno, "django"))

    @staticmethod
    def _piece(raw: str, is_regex: bool, leaf: bool) -> tuple[str, bool]:
        if not is_regex:
            return raw, False
        piece, open_tail = regex_to_path(raw)
        return piece, open_tail and leaf

    def include(self, mod: Module, call: ast.Call, prefix: str, depth: int) -> None:
        target = arg(call, 0, "arg")
        if isinstance(target, ast.Tuple) and target.elts:
            target = target.elts[0]  # include((patterns, "app_name"))
        name = self.project.string(mod, target) if target is not None else None
        if name is not None:
            sub = self.project.find(name, mod)
            if sub is None:
                self.out.append(
                    Route(ANY_METHOD, normalize_path(prefix), True, mod.rel, call.lineno, "django")
                )
                return
            self.included.add(sub.name)
            self.urlconf(sub, prefix, depth + 1)
            return
        ref = self.project.ref(mod, target) if target is not None else None
        if ref is not None and not isinstance(ref, tuple):
            sub = self.project.find(ref.name, mod)
            if sub is not None:
                self.included.add(sub.name)
                self.urlconf(sub, prefix, depth + 1)
                return
        self.patterns(mod, target, prefix, False, depth + 1)

    def urlconf(self, mod: Module, prefix: str, depth: int = 0) -> None:
        for value in mod.assigns.get("urlpatterns", []):
            self.patterns(mod, value, prefix, False, depth + 1)
        for node in ast.walk(mod.tree):  # urlpatterns.append(...) / .extend(...)
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "urlpatterns"
                and node.func.attr in ("append", "extend")
                and node.args
            ):
                value = node.args[0]
                value = ast.List([value]) if node.func.attr == "append" else value
                self.patterns(mod, value, prefix, False, depth + 1)

    # ---- DRF routers -------------------------------------------------------------------

    def router(self, mod: Module, expr: ast.expr, prefix: str) -> None:
        """`router.register("items", ItemViewSet)` → `items/` and `items/{pk}/`, plus
        `@action` routes; DefaultRouter also serves its API root."""
        ref = self.project.ref(mod, expr)
        found = self.project.value(ref)
        if not (isinstance(ref, tuple) and found and isinstance(found[1], ast.Call)):
            return
        home = self.project.modules[ref[0]]
        if call_name(found[1]) == "DefaultRouter":
            self._add("GET", prefix, home, found[1].lineno)
        for node in ast.walk(home.tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "register"
                and self.project.ref(home, node.func.value) == ref
            ):
                continue
            base = self.project.string(home, arg(node, 0, "prefix"))
            if base is None:
                continue
            base = regex_to_path(base)[0].strip("/")
            self._add(ANY_METHOD, f"{prefix}{base}/", home, node.lineno)
            self._add(ANY_METHOD, f"{prefix}{base}/{{pk}}/", home, node.lineno)
            self._actions(home, arg(node, 1, "viewset"), f"{prefix}{base}/")

    def _actions(self, mod: Module, viewset: ast.expr | None, base: str) -> None:
        hit = self.project.definition(self.project.ref(mod, viewset)) if viewset else None
        if hit is None or not isinstance(hit[1], ast.ClassDef):
            return
        vmod, cls = hit
        for stmt in cls.body:
            if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for dec in stmt.decorator_list:
                if isinstance(dec, ast.Call) and call_name(dec) == "action":
                    detail = next((k.value for k in dec.keywords if k.arg == "detail"), None)
                    url = (
                        self.project.string(
                            vmod, next((k.value for k in dec.keywords if k.arg == "url_path"), None)
                        )
                        or stmt.name
                    )
                    listed = self.project.strings(
                        vmod, next((k.value for k in dec.keywords if k.arg == "methods"), None)
                    ) or ["GET"]
                    on_detail = isinstance(detail, ast.Constant) and detail.value is True
                    path = f"{base}{{pk}}/{url}/" if on_detail else f"{base}{url}/"
                    for method in listed:
                        self._add(method.upper(), path, vmod, dec.lineno)

    def _add(self, method: str, path: str, mod: Module, line: int) -> None:
        self.out.append(Route(method, normalize_path(path), False, mod.rel, line, "django"))


def _root_urlconf(project: Project) -> Module | None:
    for mod in project.modules.values():
        values = mod.assigns.get("ROOT_URLCONF")
        if values:
            name = project.string(mod, values[-1])
            if name and project.find(name, mod):
                return project.find(name, mod)
    return None


def extract_django_routes(project: Project) -> list[Route]:
    """Routes of every Django URLconf reachable from ROOT_URLCONF, or of every URLconf
    that no other includes when there is no settings module to name the root."""
    conf = _UrlConf(project)
    root = _root_urlconf(project)
    if root is not None:
        conf.urlconf(root, "")
        return conf.out
    candidates = [m for m in project.modules.values() if "urlpatterns" in m.assigns]
    probe = _UrlConf(project)
    for mod in candidates:
        probe.urlconf(mod, "")
    for mod in candidates:
        if mod.name not in probe.included:
            conf.urlconf(mod, "")
    return conf.out
