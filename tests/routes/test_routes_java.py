"""Java route extraction: annotations (Spring, JAX-RS, Micronaut) and call DSLs (Javalin,
Spark, Vert.x, JDK httpserver), with comments, strings and text blocks that must not count."""

from __future__ import annotations

from textwrap import dedent

from pipeline.routes import Route, extract_routes
from pipeline.routes.javalex import tokenize


def route_set(routes: list[Route]) -> set[tuple[str, str, bool]]:
    return {(r.method, r.path, r.prefix) for r in routes}


def test_spring_controllers(extract_fixture) -> None:
    routes = extract_fixture("spring_app")
    assert route_set(routes) == {
        ("GET", "/api/items", False),
        ("POST", "/api/items", False),
        ("GET", "/api/items/{id}", False),
        ("PUT", "/api/items/{id}", False),
        ("PUT", "/api/items/{id}/replace", False),
        ("GET", "/api/items/{id}/tags", False),
        ("POST", "/api/items/{id}/tags", False),
        ("DELETE", "/api/items/{id}", False),
        ("*", "/api/items/files", True),
        # @Controller("healthController") is a bean name, not a path
        ("GET", "/health", False),
        ("HEAD", "/status", False),
    }
    by_key = {(r.method, r.path): r for r in routes}
    delete = by_key[("DELETE", "/api/items/{id}")]
    assert (delete.file, delete.line, delete.framework) == (
        "src/main/java/com/shop/web/ItemController.java",
        41,
        "spring",
    )


def test_jaxrs_with_application_path(extract_fixture) -> None:
    assert route_set(extract_fixture("jaxrs_app")) == {
        ("GET", "/api/items", False),
        ("POST", "/api/items", False),
        ("GET", "/api/items/{id}", False),
        ("DELETE", "/api/items/{id}", False),
        ("*", "/api/items/{id}/reviews", True),  # sub-resource locator
    }


def test_micronaut_controllers(extract_fixture) -> None:
    assert route_set(extract_fixture("micronaut_app")) == {
        ("GET", "/books", False),
        ("GET", "/books/{id}", False),
        ("POST", "/books/", False),
        ("GET", "/books/search", False),
        ("DELETE", "/books/{id}", False),
        ("GET", "/ping", False),
    }


def test_javalin_apibuilder_and_app_calls(extract_fixture) -> None:
    routes = extract_fixture("javalin_app")
    assert route_set(routes) == {
        ("GET", "/api/users", False),
        ("POST", "/api/users", False),
        ("GET", "/api/users/{user-id}", False),
        ("PATCH", "/api/users/{user-id}", False),
        ("GET", "/api/orders/{order-id}", False),
        ("GET", "/health", False),
        ("DELETE", "/items/{id}", False),
        ("PUT", "/items/{id}", False),
        ("GET", "/static", True),
    }
    assert {r.framework for r in routes} == {"javalin"}


def test_spark_paths_and_colon_params(extract_fixture) -> None:
    assert route_set(extract_fixture("spark_app")) == {
        ("GET", "/hello", False),
        ("GET", "/api/items", False),
        ("POST", "/api/items/", False),
        ("GET", "/api/items/{id}", False),
        ("DELETE", "/api/items/{id}", False),
        ("PUT", "/users/{name}", False),
    }


def test_jdk_httpserver_contexts_are_prefix_routes(extract_fixture) -> None:
    routes = extract_fixture("httpserver_app")
    assert route_set(routes) == {("*", "/api/items", True), ("*", "/health", True)}
    assert {r.framework for r in routes} == {"httpserver"}


def test_vertx_and_javalin_crud(write_tree) -> None:
    root = write_tree(
        {
            "src/Verticle.java": dedent("""
            import io.vertx.ext.web.Router;
            class Verticle {
              void start(Router router) {
                router.get("/api/items/:id").handler(this::one);
                router.route(HttpMethod.POST, "/api/items").handler(this::create);
                router.route("/assets/*").handler(StaticHandler.create());
                json.get("/not-a-route");
              }
            }
        """),
            "src/Crud.java": dedent("""
            import io.javalin.Javalin;
            import static io.javalin.apibuilder.ApiBuilder.crud;
            class Crud {
              void routes(Javalin app) {
                app.routes(() -> crud("pets/{pet-id}", new PetController()));
              }
            }
        """),
        }
    )
    assert route_set(extract_routes(root)) == {
        ("GET", "/api/items/{id}", False),
        ("POST", "/api/items", False),
        ("*", "/assets", True),
        ("GET", "/pets", False),
        ("POST", "/pets", False),
        ("GET", "/pets/{pet-id}", False),
        ("PATCH", "/pets/{pet-id}", False),
        ("DELETE", "/pets/{pet-id}", False),
    }


def test_java_calls_outside_framework_files_are_not_routes(write_tree) -> None:
    root = write_tree(
        {
            "src/Util.java": dedent("""
            class Util {
              String f(Map<String, String> m) { return m.get("/x", "y"); }
              void g() { get("/looks/like/spark", h); }
            }
        """),
        }
    )
    assert extract_routes(root) == []


def test_lexer_skips_comments_strings_and_text_blocks() -> None:
    source = dedent('''
        // @GetMapping("/a")
        /* @GetMapping("/b") */
        String s = "@GetMapping(\\"/c\\") /* not a comment */";
        String t = """
            @GetMapping("/d")
            """;
        char q = '"';
        @GetMapping("/e") int x;
    ''')
    tokens = tokenize(source)
    strings = [t.value for t in tokens if t.kind == "str"]
    assert strings == ['@GetMapping("/c") /* not a comment */', '    @GetMapping("/d")\n    ', "/e"]
    ats = [t for t in tokens if t.text == "@"]
    assert len(ats) == 1 and ats[0].line == 9
