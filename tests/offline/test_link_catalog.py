"""A hypermedia service: the document names no path but the root URL, whose answer links the
collections; records carry their own URL and a link to a sub-collection. The spec reads its
link-named endpoints, and the generated suite (which finds every URL in answers, so paths
of its own here) passes on the service and catches each faulty copy."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.offline.endpoints import Target, find_endpoint
from pipeline.offline.generate import generate_cases
from pipeline.spec import extract_spec, load_spec
from pipeline.stages.observe import observe_task
from pipeline.stages.observe_links import link_pattern
from pipeline.tasks import load_task

README = textwrap.dedent("""\
    # Harbour registry

    Ships, ports and the dockings between them.

    ## API

    Clients send a request to the root URL of the API to obtain the catalog of links:

    ```
    {"api": {"ships_url": [ship-collection-url], "ports_url": [port-collection-url],
             "dockings_url": [docking-collection-url]}}
    ```

    ### Collections

    Collection URLs accept `GET` and `POST` requests.

    Collections are filtered with the `filter` argument of the query string:
    `filter=name,eq,aurora`, or a range: `filter=name,ge,a;name,lt,b`, or a set:
    `filter=name,in,aurora,borealis`. They are sorted with the `sort` argument of the query
    string: `sort=name,desc`. Invalid filters are silently ignored. Add `expand=1` to the
    query string for whole records instead of their URLs. The `per_page` and `page` query
    string arguments pick a page; answers carry:

    ```
    {"paging": {"page": 1, "pages": 3, "per_page": 10, "total": 25, "next_url": [url]},
     "ships": [...]}
    ```

    ### Ship Resource

    ```
    {"name": [ship name], "dockings_url": [link to the ship's dockings], "self_url": [ship URL]}
    ```

    The ship resource supports `GET`, `POST`, `PUT` and `DELETE`. The `POST` and `PUT`
    requests require the `name` field.

    A `GET` request to the URL given in the `dockings_url` field lists the ship's dockings.
    A `POST` request to this URL including `port_url` in the body docks the ship at a port.

    ### Port Resource

    ```
    {"name": [port name], "dockings_url": [link to the port's dockings], "self_url": [port URL]}
    ```

    The port resource supports `GET`, `POST`, `PUT` and `DELETE`. The `POST` and `PUT`
    requests require the `name` field.

    ### Docking Resource

    ```
    {"ship_url": [ship URL], "port_url": [port URL], "self_url": [docking URL]}
    ```

    The docking resource supports `GET`, `POST` and `DELETE`.
    """)

SERVER = textwrap.dedent('''\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlencode, urlsplit

    DATA = {"ships": {}, "ports": {}, "dockings": {}}
    NEXT = [0]

    def url(kind, rid):
        return f"/harbour/{kind}/{rid}"

    def record(kind, rid):
        row = dict(DATA[kind][rid])
        row["self_url"] = url(kind, rid)
        if kind != "dockings":
            row["dockings_url"] = url(kind, rid) + "/dockings"
        return row

    def holds(row, clause):
        parts = clause.split(",")
        if len(parts) < 3 or parts[0] not in row:
            return True
        field, op, args = parts[0], parts[1], parts[2:]
        value = row[field]
        return {"eq": value == args[0], "in": value in args, "lt": value < args[0],
                "le": value <= args[0], "gt": value > args[0], "ge": value >= args[0]
                }.get(op, True)

    def collection(kind, path, q, rows):
        for clause in (q.get("filter", [""])[0]).split(";"):
            if clause:
                rows = [r for r in rows if holds(DATA[kind][r], clause)]
        for spec in reversed((q.get("sort", [""])[0]).split(";")):
            if spec:
                field, _, order = spec.partition(",")
                rows.sort(key=lambda r: DATA[kind][r].get(field, ""), reverse=order == "desc")
        per_page = min(int(q.get("per_page", ["10"])[0]), 50)
        page = int(q.get("page", ["1"])[0])
        pages = max(1, -(-len(rows) // per_page))
        shown = rows[(page - 1) * per_page:page * per_page]
        keep = {k: v[0] for k, v in q.items() if k != "page"}
        following = path + "?" + urlencode({**keep, "page": page + 1}) if page < pages else None
        items = [record(kind, r) if q.get("expand") else url(kind, r) for r in shown]
        return {"paging": {"page": page, "pages": pages, "per_page": per_page,
                           "total": len(rows), "next_url": following}, kind: items}

    def rid_of(link, kind):
        m = re.fullmatch(rf"(?:https?://[^/]+)?/harbour/{kind}/(\\d+)/?", str(link))
        return int(m.group(1)) if m and int(m.group(1)) in DATA[kind] else None

    class H(BaseHTTPRequestHandler):
        def route(self):
            parts = urlsplit(self.path)
            q = parse_qs(parts.query)
            path = parts.path.rstrip("/")
            if path == "":
                return 200, {"api": {k + "_url": f"/harbour/{k}/" for k in DATA}}
            m = re.fullmatch(r"/harbour/(ships|ports|dockings)(?:/(\\d+)(/dockings)?)?", path)
            if not m:
                return 404, {"error": "not found"}
            kind, rid, sub = m.group(1), m.group(2), m.group(3)
            rid = int(rid) if rid else None
            if rid is not None and rid not in DATA[kind]:
                return 404, {"error": "not found"}
            if sub:
                own = kind[:-1] + "_url"
                mine = [d for d, row in DATA["dockings"].items() if row[own] == url(kind, rid)]
                if self.command == "GET":
                    return 200, collection("dockings", parts.path, q, mine)
                body = self.body() or {}
                other = "port_url" if kind == "ships" else "ship_url"
                target = rid_of(body.get(other), other[:-4] + "s")
                if target is None:
                    return 400, {"error": other + " is required"}
                return self.make("dockings", {own: url(kind, rid),
                                              other: url(other[:-4] + "s", target)})
            if rid is None and self.command == "GET":
                return 200, collection(kind, parts.path, q, list(DATA[kind]))
            if rid is None and self.command == "POST":
                body = self.body() or {}
                if kind == "dockings":
                    ship = rid_of(body.get("ship_url"), "ships")
                    port = rid_of(body.get("port_url"), "ports")
                    if ship is None or port is None:
                        return 400, {"error": "ship_url and port_url are required"}
                    return self.make(kind, {"ship_url": url("ships", ship),
                                            "port_url": url("ports", port)})
                if not isinstance(body.get("name"), str) or not body["name"]:
                    return 400, {"error": "name is required"}
                return self.make(kind, {"name": body["name"]})
            if rid is None:
                return 405, {"error": "method not allowed"}
            if self.command == "GET":
                return 200, record(kind, rid)
            if self.command == "PUT" and kind != "dockings":
                body = self.body() or {}
                if not isinstance(body.get("name"), str) or not body["name"]:
                    return 400, {"error": "name is required"}
                DATA[kind][rid]["name"] = body["name"]
                return 200, record(kind, rid)
            if self.command == "DELETE":
                del DATA[kind][rid]
                return 204, None
            return 405, {"error": "method not allowed"}

        def make(self, kind, row):
            NEXT[0] += 1
            DATA[kind][NEXT[0]] = row
            return 201, record(kind, NEXT[0])

        def answer(self):
            status, body = self.route()
            if status == 204:
                self.send_response(204)
                self.end_headers()
                return
            self.reply(status, body)

        do_GET = do_POST = do_PUT = do_DELETE = answer
    ''') + SERVE_JSON

FAULTS = {
    # `;`-joined filters: only the first applies
    "first filter only": ("for clause in (q.get(\"filter\", [\"\"])[0]).split(\";\"):",
                          "for clause in (q.get(\"filter\", [\"\"])[0]).split(\";\")[:1]:"),
    "invalid filter selects nothing": ("if len(parts) < 3 or parts[0] not in row:\n"
                                       "        return True",
                                       "if len(parts) < 3 or parts[0] not in row:\n"
                                       "        return False"),
    "links swapped": ('{"api": {k + "_url": f"/harbour/{k}/" for k in DATA}}',
                      '{"api": {"ships_url": "/harbour/ports/", "ports_url": "/harbour/ships/", '
                      '"dockings_url": "/harbour/dockings/"}}'),
    "desc ignored": ("reverse=order == \"desc\"", "reverse=False"),
    "expand ignored": ("if q.get(\"expand\") else", "if q.get(\"expanded\") else"),
    "total counts the page": ("\"total\": len(rows)", "\"total\": len(shown)"),
    "pages floored": ("pages = max(1, -(-len(rows) // per_page))",
                      "pages = max(1, len(rows) // per_page)"),
    "next drops the filter": ("keep = {k: v[0] for k, v in q.items() if k != \"page\"}",
                              "keep = {k: v[0] for k, v in q.items() if k == \"per_page\"}"),
    "edit not kept": ("DATA[kind][rid][\"name\"] = body[\"name\"]", "pass"),
    "delete keeps": ("del DATA[kind][rid]", "pass"),
    "name not required": ("if not isinstance(body.get(\"name\"), str) or not body[\"name\"]:\n"
                          "                return 400, {\"error\": \"name is required\"}\n"
                          "            return self.make(kind, {\"name\": body[\"name\"]})",
                          "return self.make(kind, {\"name\": body.get(\"name\")})"),
    "sub-collection unfiltered": ("if row[own] == url(kind, rid)]", "]"),
}


def test_catalog_spec_names_the_link_addressed_endpoints() -> None:
    spec = extract_spec(README)
    assert spec.links is not None and spec.links.at == ["api"]
    assert spec.links.collections == {"ships_url": "ship", "ports_url": "port",
                                      "dockings_url": "docking"}
    keys = {f"{e.method} {e.path}" for e in spec.endpoints}
    assert {"GET /", "GET {ships_url}", "POST {ships_url}", "PUT {ship.self_url}",
            "DELETE {ship.self_url}", "POST {ship.dockings_url}", "GET {port.dockings_url}",
            "DELETE {docking.self_url}"} <= keys
    assert "PUT {docking.self_url}" not in keys  # the docking supports GET, POST and DELETE
    by_key = {e.key: e for e in spec.endpoints}
    assert by_key[("POST", "{ships_url}")].request_schema["required"] == ["name"]
    assert by_key[("POST", "{ship.dockings_url}")].request_schema["required"] == ["port_url"]
    assert list(by_key[("POST", "{dockings_url}")].request_schema["properties"]) == \
        ["ship_url", "port_url"]
    assert spec.links.ignores_invalid == ["filter"] and not spec.links.etags
    filters = next(p for p in by_key[("GET", "{ports_url}")].params if p.name == "filter")
    assert filters.constraints["examples"] == ["name,eq,aurora", "name,ge,a;name,lt,b",
                                               "name,in,aurora,borealis"]


def test_a_document_with_paths_has_no_catalog() -> None:
    spec = extract_spec(README + "\n## Health\n\n### GET /health\n\nAnswers `{\"ok\": true}`.\n")
    assert spec.links is None
    assert [f"{e.method} {e.path}" for e in spec.endpoints] == ["GET /health"]


def test_link_suite_passes_the_service_and_catches_each_fault(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    out = outcomes_on_variants(tmp_path, task_factory, "harbour", README, SERVER, FAULTS)
    good = out.pop("good")
    assert good and set(good.values()) == {"passed"}, good
    missed = [v for v, tests in out.items() if set(tests.values()) == {"passed"}]
    assert missed == []


def test_link_cases_declare_the_link_endpoints_they_check() -> None:
    cases = {c.name: c for c in generate_cases("harbour", extract_spec(README))}
    assert cases["test_edit_ship_is_kept"].endpoints == [
        "POST {ships_url}", "PUT {ship.self_url}", "GET {ship.self_url}"]
    assert all("base_url + \"/harbour" not in c.code for c in cases.values())
    assert "LINKS = " in cases["test_edit_ship_is_kept"].prelude


def test_link_pattern_makes_ids_parameters() -> None:
    assert link_pattern("http://h:1/v1/students/12/registrations/") == \
        "/v1/students/{id}/registrations/"
    assert link_pattern("/v1/registrations/3/19") == "/v1/registrations/{id}/{id2}"
    assert link_pattern("/v1/students/") == "/v1/students/"


def test_observation_resolves_each_link_so_requests_find_their_endpoint(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    task = load_task(task_factory(tmp_path, "harbour", 8000, readme=README, server=SERVER))
    spec = load_spec(task.readme)
    assert observe_task(task, spec, 30.0, None) == []
    assert spec.links is not None
    assert spec.links.resolved["{ships_url}"] == "/harbour/ships/"
    assert spec.links.resolved["{ship.self_url}"] == "/harbour/ships/{id}"
    assert spec.links.resolved["{port.dockings_url}"] == "/harbour/ports/{id}/dockings"
    # the docking is made with links to the ship and port made before it
    assert spec.links.resolved["{docking.self_url}"] == "/harbour/dockings/{id}"
    put = find_endpoint(spec, Target("PUT", "/harbour/ships/7", ()))
    assert put is not None and put.path == "{ship.self_url}"
    assert find_endpoint(spec, Target("PUT", "/harbour/dockings/7", ())) is None
    assert "resolved" not in spec.model_dump()["links"]  # evidence, never published
