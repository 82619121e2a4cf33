"""Python route extraction on fixture projects: the exact route set per framework pattern."""

from __future__ import annotations

from textwrap import dedent

from pipeline.routes import Route, extract_routes


def route_set(routes: list[Route]) -> set[tuple[str, str, bool]]:
    return {(r.method, r.path, r.prefix) for r in routes}


def test_flask_blueprints_constants_methodview_and_factory(extract_fixture) -> None:
    routes = extract_fixture("flask_app")
    assert route_set(routes) == {
        ("GET", "/", False),
        ("POST", "/", False),
        ("GET", "/version", False),
        ("GET", "/health", False),
        # Blueprint url_prefix from a constant in another module (BASE + "/items")
        ("GET", "/api/items", False),
        ("GET", "/api/items/{item_id}", False),
        ("PUT", "/api/items/{item_id}", False),
        ("DELETE", "/api/items/{item_id}", False),
        # register_blueprint(url_prefix=f"{API}/users") replaces the bp's own "/ignored"
        ("POST", "/api/users/", False),
        ("GET", "/api/users/{name}/avatar", False),
        # blueprints registered in a loop over a tuple, on a parent blueprint
        ("GET", "/v1/admin/stats", False),
        ("GET", "/v1/reports/daily/{date}", False),
        # MethodView: handlers of the class and of its project base class
        ("GET", "/api/things/{thing_id}", False),
        ("PATCH", "/api/things/{thing_id}", False),
        ("DELETE", "/api/things/{thing_id}", False),
        ("POST", "/things", False),
    }
    assert {r.framework for r in routes} == {"flask"}
    by_key = {(r.method, r.path): r for r in routes}
    assert by_key[("POST", "/api/users/")].file == "shop/api/users.py"
    assert by_key[("POST", "/api/users/")].line == 6


def test_fastapi_routers_across_modules_settings_prefix_and_mounts(extract_fixture) -> None:
    routes = extract_fixture("fastapi_app")
    assert route_set(routes) == {
        ("GET", "/", False),
        ("GET", "/ping", False),
        ("HEAD", "/ping", False),
        ("GET", "/healthz", False),
        ("GET", "/admin/stats", False),
        ("*", "/static", True),
        ("GET", "/api/v1/items/", False),
        ("POST", "/api/v1/items", False),
        ("GET", "/api/v1/items/{item_id}", False),
        ("PUT", "/api/v1/items/{item_id}/tags/{tag}", False),
        ("DELETE", "/api/v1/items/{item_id}", False),
        ("GET", "/api/v1/users/me", False),
        ("PATCH", "/api/v1/users/{user_id}", False),
    }
    assert {r.framework for r in routes if not r.prefix} == {"fastapi"}


def test_starlette_route_lists_mounts_and_endpoint_classes(extract_fixture) -> None:
    assert route_set(extract_fixture("starlette_app")) == {
        ("GET", "/", False),
        ("GET", "/legacy", False),
        ("GET", "/api/items/", False),
        ("POST", "/api/items/", False),
        ("GET", "/api/items/{item_id}", False),
        ("PUT", "/api/items/{item_id}", False),
        ("GET", "/api/users/{name}", False),
        ("DELETE", "/api/users/{name}", False),
        ("*", "/static", True),
    }


def test_django_urlconf_include_regex_drf(extract_fixture) -> None:
    routes = extract_fixture("django_app")
    assert route_set(routes) == {
        ("*", "/admin/", True),
        ("*", "/health", False),
        ("GET", "/api/items/", False),
        ("POST", "/api/items/", False),
        ("GET", "/api/items/{pk}/", False),
        ("PUT", "/api/items/{pk}/", False),
        ("PATCH", "/api/items/{pk}/", False),
        ("DELETE", "/api/items/{pk}/", False),
        ("GET", "/api/stats/", False),
        ("GET", "/api/search/{term}/", False),
        ("*", "/api/legacy/", False),
        # DefaultRouter: API root, list/detail routes, @action routes
        ("GET", "/api/", False),
        ("*", "/api/orders/", False),
        ("*", "/api/orders/{pk}/", False),
        ("POST", "/api/orders/{pk}/cancel/", False),
        ("GET", "/api/orders/recent/", False),
        # regex URLconf included through a module object
        ("*", "/blog/{year}/{slug}", False),
        ("*", "/blog/archive/{arg1}/", False),
    }
    assert {r.framework for r in routes} == {"django"}


def test_django_without_settings_uses_urlconfs_nobody_includes(write_tree) -> None:
    root = write_tree(
        {
            "proj/urls.py": dedent("""
            from django.urls import include, path
            urlpatterns = [path("v1/", include("app.urls"))]
        """),
            "app/urls.py": dedent("""
            from django.urls import path
            from . import views
            urlpatterns = [path("ping/", views.ping)]
            urlpatterns.append(path("pong/", views.ping))
        """),
            "app/views.py": "def ping(request):\n    return None\n",
        }
    )
    assert route_set(extract_routes(root)) == {("*", "/v1/ping/", False), ("*", "/v1/pong/", False)}


def test_repo_root_above_import_root_and_skipped_folders(write_tree) -> None:
    """A repository holding `service/app/...` whose code imports `app....` still resolves."""
    root = write_tree(
        {
            "service/app/__init__.py": "",
            "service/app/main.py": dedent("""
            from fastapi import FastAPI
            from app.routes import router
            app = FastAPI()
            app.include_router(router, prefix="/v2")
        """),
            "service/app/routes.py": dedent("""
            from fastapi import APIRouter
            router = APIRouter()
            @router.get("/things/{thing_id}")
            def thing(thing_id: int): ...
        """),
            "service/tests/test_main.py": "from fastapi import FastAPI\napp = FastAPI()\n"
            "@app.get('/from-tests')\ndef t(): ...\n",
            "venv-x/pyvenv.cfg": "home = /usr\n",
            "venv-x/lib/mod.py": "from flask import Flask\napp = Flask(__name__)\n"
            "@app.get('/from-venv')\ndef t(): ...\n",
            "service/broken.py": "def (:\n",
        }
    )
    assert route_set(extract_routes(root)) == {("GET", "/v2/things/{thing_id}", False)}


def test_unresolvable_paths_and_non_route_calls_are_ignored(write_tree) -> None:
    root = write_tree(
        {
            "app.py": dedent("""
            import os
            from flask import Flask
            app = Flask(__name__)
            PREFIX = os.environ.get("PREFIX", "/svc")
            cache = {}

            @app.route(compute_path())
            def dynamic(): ...

            @app.route(PREFIX + "/ok", methods=["GET", "delete"])
            def ok(): ...

            @app.route("/any", methods=METHODS_FROM_ELSEWHERE)
            def any_method(): ...

            def helper():
                return cache.get("/not-a-route")

            @functools.lru_cache
            def cached(): ...
        """),
        }
    )
    assert route_set(extract_routes(root)) == {
        ("GET", "/svc/ok", False),
        ("DELETE", "/svc/ok", False),
        ("*", "/any", False),
    }


def test_flask_restful_resources_and_restx_namespaces(write_tree) -> None:
    root = write_tree(
        {
            "api.py": dedent("""
            from flask import Flask
            from flask_restful import Api, Resource
            from flask_restx import Namespace

            app = Flask(__name__)
            api = Api(app, prefix="/v1")
            ns = Namespace("pets", path="/pets")

            class Todo(Resource):
                def get(self, todo_id): ...
                def put(self, todo_id): ...

            api.add_resource(Todo, "/todos/<todo_id>")

            @ns.route("/<int:pet_id>")
            class Pet(Resource):
                def delete(self, pet_id): ...

            api.add_namespace(ns)
        """),
        }
    )
    assert route_set(extract_routes(root)) == {
        ("GET", "/v1/todos/{todo_id}", False),
        ("PUT", "/v1/todos/{todo_id}", False),
        ("DELETE", "/v1/pets/{pet_id}", False),
    }
