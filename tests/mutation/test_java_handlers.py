"""Java mutants mapped to the endpoint whose handler they change, through the language
registry; the realistic Java fault kinds (sort, pagination, defaults)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.languages import Language, register, unregister
from pipeline.mutation import java_mutants
from pipeline.mutation.handlers import mutant_endpoints, oracle_mutant_endpoints, parse_keys
from pipeline.mutation.runner import read_oracle_sources
from pipeline.routes import extract_routes

ROOT = Path(__file__).resolve().parents[2]

CONTROLLER = '''package shop;

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/api/items")
public class ItemController {
    private final ItemService service;
    private final Audit audit;

    @GetMapping
    public List<Item> list(@RequestParam(required = false) String tag) {
        audit.log("list");
        return service.search(tag);
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    public Item create(@RequestBody Item item) {
        audit.log("create");
        return service.save(item);
    }

    @GetMapping("/{id}")
    public Item get(@PathVariable long id) {
        audit.log("get");
        return service.find(id);
    }

    @DeleteMapping("/{id}")
    public void delete(@PathVariable long id) {
        audit.log("delete");
        service.remove(id);
    }
}
'''
SERVICE = '''package shop;

public class ItemServiceImpl implements ItemService {
    private final Map<Long, Item> items = new HashMap<>();

    public List<Item> search(String tag) {
        List<Item> out = new ArrayList<>();
        for (Item item : items.values()) {
            if (tag != null && !item.tags.contains(tag)) {
                continue;
            }
            out.add(item);
        }
        return out;
    }

    public Item save(Item item) {
        if (item.name == null) {
            throw new BadRequest("name_required");
        }
        items.put(item.id, item);
        return item;
    }

    public Item find(long id) {
        Item item = items.get(id);
        if (item == null) {
            throw new NotFound("item_not_found");
        }
        return item;
    }

    public void remove(long id) {
        items.remove(id);
    }
}
'''
SERVICE_API = '''package shop;

public interface ItemService {
    List<Item> search(String tag);

    Item save(Item item);

    Item find(long id);

    void remove(long id);
}
'''
AUDIT = '''package shop;

public class Audit {
    public void log(String what) {
        System.out.println(what);
    }
}
'''
SPRING_KEYS = ["GET /api/items", "POST /api/items", "GET /api/items/{itemId}",
               "DELETE /api/items/{itemId}"]

DISPATCH = '''import com.sun.net.httpserver.HttpServer;

public final class Server {
    private static final Pattern ITEM = Pattern.compile("^/items/(\\\\d+)$");
    private final Store store = new Store();

    public static void main(String[] args) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(8000), 0);
        server.createContext("/", new Server()::handle);
        server.start();
    }

    private Reply route(String method, String path, String raw, String body)
            throws ApiException {
        Map<String, String> query = parseQuery(raw);
        if (path.equals("/items")) {
            if (method.equals("GET")) {
                return new Reply(200, store.list(query.get("tag")));
            }
            requireMethod(method, "GET", "POST");
            return new Reply(201, store.add(body));
        }
        if ("/health".equals(path)) {
            return new Reply(200, "ok");
        }
        if (path.equals("/stats") && method.equals("GET")) {
            return new Reply(200, store.stats());
        }
        Matcher m = ITEM.matcher(path);
        if (m.matches()) {
            long id = Long.parseLong(m.group(1));
            switch (method) {
                case "GET":
                    return new Reply(200, store.get(id));
                case "DELETE":
                    store.drop(id);
                    return new Reply(204, null);
                default:
                    requireMethod(method, "GET", "DELETE");
            }
        }
        throw new ApiException(404, "not_found");
    }

    private static Map<String, String> parseQuery(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null) {
            return out;
        }
        out.put("tag", raw);
        return out;
    }

    private static void requireMethod(String method, String... allowed) throws ApiException {
        for (String candidate : allowed) {
            if (candidate.equals(method)) {
                return;
            }
        }
        throw new ApiException(405, "method_not_allowed");
    }
}
'''
STORE = '''final class Store {
    private final Map<Long, String> rows = new TreeMap<>();

    synchronized List<String> list(String tag) {
        return new ArrayList<>(rows.values());
    }

    synchronized String add(String body) {
        rows.put((long) rows.size() + 1, body);
        return body;
    }

    synchronized int stats() {
        return rows.size() * 2;
    }

    synchronized String get(long id) throws ApiException {
        return find(id);
    }

    synchronized void drop(long id) throws ApiException {
        find(id);
        rows.remove(id);
    }

    private String find(long id) throws ApiException {
        String row = rows.get(id);
        if (row == null) {
            throw new ApiException(404, "not_found");
        }
        return row;
    }
}
'''
DISPATCH_KEYS = ["GET /items", "POST /items", "GET /health", "GET /items/{id}",
                 "DELETE /items/{id}", "GET /stats"]


def _write(root: Path, files: dict[str, str]) -> dict[str, str]:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return files


def _mapping(root: Path, files: dict[str, str], keys: list[str]):
    mutants = [m.summary() for rel, text in sorted(files.items())
               for m in java_mutants(rel, text)]
    return mutants, oracle_mutant_endpoints(root, files, keys, mutants)


def _on(files, mutants, by_mutant, file: str, text: str) -> set[str]:
    """The endpoints of every mutant on the line of `file` that holds `text`."""
    lines = [n for n, ln in enumerate(files[file].splitlines(), 1) if text in ln]
    assert lines, text
    return {k for m in mutants if m["file"] == file and m["line"] in lines
            for k in by_mutant.get(m["id"], [])}


_SOURCES = {"src/ItemController.java": CONTROLLER, "src/ItemServiceImpl.java": SERVICE,
            "src/ItemService.java": SERVICE_API, "src/Audit.java": AUDIT,
            "src/Server.java": DISPATCH, "src/Store.java": STORE}


def test_spring_handlers_take_their_service_methods_with_the_class_prefix(tmp_path: Path):
    files = _write(tmp_path, {k: v for k, v in _SOURCES.items() if "Item" in k or "Audit" in k})
    mutants, by_mutant = _mapping(tmp_path, files, SPRING_KEYS)
    svc = "src/ItemServiceImpl.java"
    # the filter lives in the service method only GET /api/items calls (through the
    # controller's `ItemService` interface)
    assert _on(files, mutants, by_mutant, svc, "!item.tags.contains(tag)") == {"GET /api/items"}
    assert _on(files, mutants, by_mutant, svc, "items.put(item.id, item)") == {"POST /api/items"}
    assert _on(files, mutants, by_mutant, svc, "if (item == null)") == {"GET /api/items/{itemId}"}
    assert _on(files, mutants, by_mutant, svc, "items.remove(id)") == {"DELETE /api/items/{itemId}"}
    # `items.get(id)` on a Map is not the controller's `get`, and `audit.log` is called by all
    # four handlers: plumbing, no endpoint's evidence
    assert _on(files, mutants, by_mutant, "src/Audit.java", "System.out.println") == set()
    ctl = "src/ItemController.java"
    delete = 'audit.log("delete")'
    assert _on(files, mutants, by_mutant, ctl, delete) == {"DELETE /api/items/{itemId}"}


def test_hand_dispatch_by_path_tests_matchers_and_method_cases(tmp_path: Path):
    files = _write(tmp_path, {k: v for k, v in _SOURCES.items()
                              if k in ("src/Server.java", "src/Store.java")})
    mutants, by_mutant = _mapping(tmp_path, files, DISPATCH_KEYS)
    srv, store = "src/Server.java", "src/Store.java"
    assert _on(files, mutants, by_mutant, srv, "store.list(query") == {"GET /items"}
    # the query parsed at the top of the dispatcher feeds only the branch that reads it
    assert _on(files, mutants, by_mutant, srv, "if (raw == null)") == {"GET /items"}
    # after the GET block, the rest of the `/items` block is the other verb it names
    assert _on(files, mutants, by_mutant, srv, "new Reply(201, store.add(body))") == {"POST /items"}
    assert _on(files, mutants, by_mutant, store, "rows.put(") == {"POST /items"}
    assert _on(files, mutants, by_mutant, srv, 'new Reply(200, "ok")') == {"GET /health"}
    # a path and a verb tested in one condition
    assert _on(files, mutants, by_mutant, srv, "store.stats()") == {"GET /stats"}
    assert _on(files, mutants, by_mutant, srv, "store.drop(id);") == {"DELETE /items/{id}"}
    assert _on(files, mutants, by_mutant, store, "rows.remove(id)") == {"DELETE /items/{id}"}
    assert _on(files, mutants, by_mutant, srv, "new Reply(204, null)") == {"DELETE /items/{id}"}
    # `find` serves two handlers here: under the plumbing limit, so both
    assert _on(files, mutants, by_mutant, store, "if (row == null)") == {
        "GET /items/{id}", "DELETE /items/{id}"}
    # start-up, the fall-through 404 and the shared method check belong to no endpoint
    assert _on(files, mutants, by_mutant, srv, 'ApiException(404, "not_found")') == set()
    assert _on(files, mutants, by_mutant, srv, "candidate.equals(method)") == set()


def test_javalin_method_references_name_their_handler(tmp_path: Path):
    app = '''import io.javalin.Javalin;

public class App {
    public static void main(String[] args) {
        Javalin app = Javalin.create();
        app.get("/notes", Notes::list);
        app.post("/notes", Notes::create);
        app.start(7000);
    }
}
'''
    notes = '''public class Notes {
    static void list(Context ctx) {
        ctx.status(200).json(NOTES);
    }

    static void create(Context ctx) {
        NOTES.add(ctx.body());
        ctx.status(201);
    }
}
'''
    files = _write(tmp_path, {"src/App.java": app, "src/Notes.java": notes})
    mutants, by_mutant = _mapping(tmp_path, files, ["GET /notes", "POST /notes"])
    notes_file = "src/Notes.java"
    assert _on(files, mutants, by_mutant, notes_file, "NOTES.add(") == {"POST /notes"}
    assert _on(files, mutants, by_mutant, notes_file, "ctx.status(201)") == {"POST /notes"}
    assert _on(files, mutants, by_mutant, notes_file, "ctx.status(200)") == {"GET /notes"}


def test_the_bundled_java_oracle_maps_its_realistic_mutants():
    oracle = ROOT / "data/raw/inventory-java/oracle"
    sources = read_oracle_sources(oracle, "java")
    keys = ["GET /items", "POST /items", "GET /items/{id}", "PUT /items/{id}",
            "DELETE /items/{id}", "GET /items/{id}/stock-movements",
            "POST /items/{id}/stock-movements", "GET /health", "GET /inventory-value"]
    mutants = [m.summary() for rel, text in sorted(sources.items())
               for m in java_mutants(rel, text)]
    by_mutant = oracle_mutant_endpoints(oracle, sources, keys, mutants)

    def kinds(key: str) -> set[str]:
        return {m["operator"] for m in mutants if key in by_mutant.get(m["id"], [])}

    assert "filter_ignored" in kinds("GET /items") - kinds("POST /items")
    assert {"write_not_persisted", "default_changed"} <= kinds("POST /items")
    assert "validation_removed" in kinds("DELETE /items/{id}")
    assert "field_dropped" in kinds("POST /items/{id}/stock-movements")
    # `find` (every item endpoint) is plumbing: its 404 maps to no endpoint
    find = [m for m in mutants if m["file"] == "src/Inventory.java"
            and "Item \" + id + \" not found" in sources[m["file"]].splitlines()[m["line"] - 1]]
    assert find and all(m["id"] not in by_mutant for m in find)


def test_mapping_comes_from_the_registry_not_from_a_language_name(tmp_path: Path):
    """A toy language's `handler_spans` is asked for its own files (by suffix), and the
    generic module names no language."""
    seen = {}

    def spans(sources, routes, endpoints):
        seen.update(sources)
        return {"GET /x": [("a.toy", 2, 3)]}

    register(Language(name="toy", suffixes=(".toy",), routes=lambda root, files: [],
                      mutants=lambda path, text: [], count_types=lambda path, text: 0,
                      handler_spans=spans))
    try:
        mutants = [{"id": "a", "file": "a.toy", "line": 2}, {"id": "b", "file": "a.toy",
                                                              "line": 9}]
        got = mutant_endpoints({"a.toy": "x", "b.py": "y = 1\n"}, [], parse_keys(["GET /x"]),
                               mutants)
    finally:
        unregister("toy")
    assert got == {"a": ["GET /x"]} and seen == {"a.toy": "x"}
    text = (ROOT / "pipeline/mutation/handlers.py").read_text(encoding="utf-8")
    assert not re.search(r"""["'](java|python|\.java|\.py)["']""", text)


@pytest.mark.parametrize(("snippet", "kind", "changed"), [
    ("items.sort(BY_NAME);", "sort_ignored", ";"),
    ("return rows.stream().sorted(cmp).toList();", "sort_ignored", "rows.stream().toList()"),
    ("return rows.stream().sorted(cmp.reversed()).toList();", "sort_ignored", "sorted(cmp)"),
    ("return rows.stream().skip(offset).limit(size).toList();", "pagination_off_by_one",
     "limit(size + 1)"),
    ("return rows.subList(from, Math.min(from + size, rows.size()));",
     "pagination_off_by_one", "rows.size()) - 1)"),
    ("int from = (page - 1) * size;", "pagination_off_by_one", "(page) * size"),
    ('int size = optionalInt(query, "size", 20);', "default_changed", '"size", 21)'),
    ('List<Item> list(@RequestParam(defaultValue = "10") int limit) { return null; }',
     "default_changed", 'defaultValue = "11"'),
])
def test_java_realistic_sort_page_and_default_mutants(snippet: str, kind: str, changed: str):
    source = f"class A {{\n    Object f() {{\n        {snippet}\n    }}\n}}\n"
    made = [m for m in java_mutants("A.java", source) if m.kind == kind]
    assert any(changed in m.source for m in made), [m.description for m in made]


def test_java_defaults_inside_strings_and_comments_are_not_mutated():
    source = ('class A {\n    String f() {\n        // limit(size) and "page", 20)\n'
              '        return "x.sorted(y) (page - 1) \\"k\\", 3)";\n    }\n}\n')
    kinds = {m.kind for m in java_mutants("A.java", source)}
    assert not kinds & {"sort_ignored", "pagination_off_by_one", "default_changed"}


def test_extracted_routes_of_the_dispatch_oracle_are_one_prefix(tmp_path: Path):
    """Why hand dispatch is read from the code: route analysis sees one `createContext`."""
    _write(tmp_path, {"src/Server.java": DISPATCH})
    routes = extract_routes(tmp_path, "java")
    assert [(r.path, r.prefix) for r in routes] == [("/", True)]


def test_code_only_start_up_reaches_is_not_mutated():
    """`main` and a cleanup only its shutdown hook calls are never mutated; a method handed
    to the server with `::` is a handler, and one called from a handler too is not start-up."""
    source = '''class S {
    public static void main(String[] args) {
        server.createContext("/", app::handle);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> cleanup(args.length > 0)));
        log(1 == 1);
    }

    private static void cleanup(boolean deep) {
        if (deep == true) {
            wipe();
        }
    }

    private static void wipe() {
        files.remove(0);
    }

    private static void log(boolean x) {
        out.print(x == true);
    }

    void handle(Exchange e) {
        log(e.code == 200);
        e.send(404, null);
    }
}
'''
    lines = {m.line for m in java_mutants("S.java", source)}
    text = source.splitlines()
    on = {text[n - 1].strip() for n in lines}
    assert "e.send(404, null);" in on and "out.print(x == true);" in on
    assert not on & {"if (deep == true) {", "files.remove(0);", "log(1 == 1);"}
