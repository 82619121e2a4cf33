"""Offline templates for a hypermedia API (spec/catalog.py): tests that find every URL in answers.

Each test starts at the root URL, takes a collection's URL from its catalog and every other URL
from what the service answers, so an implementation with other paths passes as long as it
hands out its links as the document says. What the tests check is what the document states,
on records the test makes with its own values:

- the root's catalog names each collection, and each link opens that collection;
- a record made in a collection reads back with the value sent and its own `self_url`; one
  made without a field the document requires is refused and not listed;
- an edit is kept; a deleted record no longer reads;
- each documented filter example, its values swapped for the test's own, selects exactly the
  test's records it should (`name,ge,a;name,lt,b`: the bounds both apply);
- `sort=<field>,desc` orders the selected records, `expand=1` turns URLs into records;
- paging facts (`total`, `pages`, `per_page`) count the selection and `next_url` keeps it;
- a record's sub-collection (`registrations_url`) lists what was posted to it and nothing of
  another record's; a link record made in its own collection names both ends and goes on
  delete;
- a request without credentials is answered 401 with the token URL in `Location`, where a
  POST with the account gives a token.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

from pipeline.offline import links_prelude
from pipeline.offline.gen_code import Case, literal
from pipeline.records import Endpoint, LinkCatalog, Spec

_FILTER = re.compile(r"^(\w+),(eq|ne|lt|le|gt|ge|like|in),(.+)$")
_LOWER, _UPPER = {"ge", "gt"}, {"le", "lt"}
_HELPERS = (links_prelude.catalog_links, links_prelude.same_url, links_prelude.listed,
            links_prelude.made_url, links_prelude.read, links_prelude.all_rows)


@dataclass
class _Noun:
    """One collection and its records, as the spec reads them."""

    noun: str
    link: str  # the catalog key: "students_url"
    items: str  # the key a collection answer lists records under: "students"
    field: str | None  # a text field a create sends ("name")
    required: list[str]
    body: list[str]  # what a create sends
    methods: set[str]  # what a record's own URL accepts
    subs: dict[str, Endpoint]  # sub-collection link -> its POST
    list_ep: Endpoint | None

    def ep(self, method: str, suffix: str = "self_url") -> str:
        return f"{method} {{{self.noun}.{suffix}}}"


def _nouns(spec: Spec, links: LinkCatalog) -> list[_Noun]:
    out = []
    for link, noun in links.collections.items():
        eps = {e.key: e for e in spec.endpoints}
        create = eps.get(("POST", f"{{{link}}}"))
        schema = (create.request_schema or {}) if create is not None else {}
        body = list(schema.get("properties") or {})
        required = list(schema.get("required") or [])
        field = next((k for k in [*required, *body] if not k.endswith("_url")), None)
        methods = {m for (m, p) in eps if p == f"{{{noun}.{links.self_key}}}"}
        subs = {p[len(noun) + 2:-1]: eps.get(("POST", p)) for (m, p) in eps
                if p.startswith(f"{{{noun}.") and p != f"{{{noun}.{links.self_key}}}"}
        out.append(_Noun(noun, link, link.removesuffix("_url"), field, required, body,
                         methods, {k: v for k, v in subs.items() if v is not None},
                         eps.get(("GET", f"{{{link}}}"))))
    return out


def links_prelude_source(spec: Spec, meta: str | None) -> str:
    """The module-level helpers, with the catalog's facts in `LINKS`."""
    links = spec.links
    assert links is not None
    account = list(spec.auth.account) if spec.auth and spec.auth.account else None
    facts = {"root": links.root, "at": links.at, "self": links.self_key, "meta": meta,
             "account": account}
    parts = ["from urllib.parse import urljoin, urlsplit",
             f"LINKS = {literal(facts)}"]
    parts += [inspect.getsource(f).rstrip() for f in _HELPERS]
    return "\n\n\n".join(parts) + "\n"


class LinkWriter:
    """Writes the cases of one hypermedia spec."""

    def __init__(self, spec: Spec):
        assert spec.links is not None
        self.spec, self.links = spec, spec.links
        self.nouns = _nouns(spec, spec.links)
        self.by_noun = {n.noun: n for n in self.nouns}
        self.meta = self._meta_keys()

    def _meta_keys(self) -> tuple[str, set[str]] | None:
        for n in self.nouns:
            props = ((n.list_ep.response_schema or {}).get("properties") or {}) \
                if n.list_ep is not None else {}
            for key, value in props.items():
                inner = (value or {}).get("properties") if isinstance(value, dict) else None
                if inner and "page" in inner:
                    return key, set(inner)
        return None

    def _params(self, n: _Noun) -> dict[str, list[str]]:
        return {p.name: [str(e) for e in p.constraints.get("examples") or []]
                for p in (n.list_ep.params if n.list_ep is not None else [])}

    def _start(self, case: Case, n: _Noun) -> None:
        case.add("links = catalog_links(session, base_url)",
                 f"collection = links[{literal(n.link)}]")

    def _make(self, n: _Noun, var: str, value: str, extra: str = "") -> str:
        body = f"{{{literal(n.field)}: {value}{extra}}}"
        return (f"{var} = made_url(session, base_url, collection, {body}, "
                f"{literal(n.items)}, {literal(n.field)})")

    # -- records -----------------------------------------------------------------------
    def catalog_case(self) -> Case | None:
        if not self.nouns:
            return None
        case = Case("test_root_catalog_links_each_collection", "integration",
                    doc="The root URL's catalog names each collection; each link opens it.")
        case.endpoints = ["GET /", *[f"GET {{{n.link}}}" for n in self.nouns if n.list_ep]]
        case.add("links = catalog_links(session, base_url)",
                 f"assert set(links) >= set({literal(sorted(n.link for n in self.nouns))}), links",
                 "assert len(set(links.values())) == len(links), links")
        for n in self.nouns:
            if n.list_ep is not None:
                case.add(*_get("opened", f"links[{literal(n.link)}]"),
                         f"assert isinstance(opened[{literal(n.items)}], list), opened")
        # each link leads to its own collection: a record made through one is listed there
        # and under no other link (two links swapped would show it elsewhere)
        named = [n for n in self.nouns if n.field and n.list_ep and self._eq_filter(n)]
        if len(named) > 1:
            case.add("value = unique('name')")
            for n in named:
                case.add(f"mine = made_url(session, base_url, links[{literal(n.link)}], "
                         f"{{{literal(n.field)}: value}}, {literal(n.items)}, {literal(n.field)})")
                for m in named:
                    case.add(*_get("page", f"links[{literal(m.link)}]",
                                   f'{{"filter": {literal(m.field + ",eq,")} + value, '
                                   '"expand": 1}'),
                             f"rows = [row for row in page[{literal(m.items)}] "
                             "if same_url(row[LINKS['self']], mine)]",
                             f"assert len(rows) == {1 if m is n else 0}, page")
        return case

    def round_trip(self, n: _Noun) -> Case | None:
        if n.field is None or "GET" not in n.methods:
            return None
        case = Case(f"test_create_{n.noun}_then_read_it", "integration",
                    doc=f"A {n.noun} made in its collection reads back as sent at its URL.")
        case.endpoints = [f"POST {{{n.link}}}", n.ep("GET")]
        self._start(case, n)
        case.add(f"value = unique({literal(n.field)})", self._make(n, "url", "value"),
                 *_get("record", "url"),
                 f"assert record[{literal(n.field)}] == value, record",
                 "assert same_url(record[LINKS['self']], url), record")
        return case

    def required_refused(self, n: _Noun) -> Case | None:
        if n.field is None or n.field not in n.required or n.list_ep is None:
            return None
        case = Case(f"test_create_{n.noun}_without_{n.field}_is_refused", "error_handling",
                    doc=f"A {n.noun} without `{n.field}` (required) is refused and not made.")
        case.endpoints = [f"POST {{{n.link}}}"]
        self._start(case, n)
        count = ("listed(session, collection)[LINKS['meta']]['total']"
                 if self.meta and "total" in self.meta[1]
                 else f"len(all_rows(session, collection, {literal(n.items)}))")
        others = {k: "x" for k in n.required if k != n.field and not k.endswith("_url")}
        case.add(f"before = {count}",
                 f"refused = session.post(collection, json={literal(others)})",
                 "assert 400 <= refused.status_code < 500, (refused.status_code, refused.text)",
                 f"assert {count} == before")
        return case

    def update_kept(self, n: _Noun) -> Case | None:
        if n.field is None or not {"PUT", "GET"} <= n.methods:
            return None
        case = Case(f"test_edit_{n.noun}_is_kept", "integration",
                    doc=f"A PUT on a {n.noun}'s URL changes what it reads.")
        case.endpoints = [f"POST {{{n.link}}}", n.ep("PUT"), n.ep("GET")]
        self._start(case, n)
        case.add(f"{self._make(n, 'url', f'unique({literal(n.field)})')}",
                 f"value = unique({literal(n.field)})",
                 f"edited = session.put(url, json={{{literal(n.field)}: value}})",
                 "assert 200 <= edited.status_code < 300, (edited.status_code, edited.text)",
                 *_get("record", "url"),
                 f"assert record[{literal(n.field)}] == value, record")
        return case

    def delete_gone(self, n: _Noun) -> Case | None:
        if n.field is None or "DELETE" not in n.methods:
            return None
        case = Case(f"test_deleted_{n.noun}_no_longer_reads", "integration",
                    doc=f"A deleted {n.noun} no longer reads at its URL"
                        + (" nor is listed." if self._eq_filter(n) else "."))
        case.endpoints = [f"POST {{{n.link}}}", n.ep("DELETE"), n.ep("GET")]
        self._start(case, n)
        case.add(f"value = unique({literal(n.field)})", self._make(n, "url", "value"),
                 "gone = session.delete(url)",
                 "assert 200 <= gone.status_code < 300, (gone.status_code, gone.text)",
                 "after = session.get(url)",
                 "assert 400 <= after.status_code < 500, (after.status_code, after.text)")
        if self._eq_filter(n):
            case.add(*_get("page", "collection", f'{{"filter": {literal(n.field + ",eq,")} '
                                                 f'+ value}}'),
                     f"assert page[{literal(n.items)}] == [], page")
        return case

    def _eq_filter(self, n: _Noun) -> bool:
        return any(re.match(rf"^{re.escape(n.field or '')},eq,[^;]+$", e)
                   for e in self._params(n).get("filter", []))

    # -- queries -------------------------------------------------------------------------
    def _own(self, case: Case, n: _Noun, count: int) -> None:
        """`count` records of the test's own, valued `<prefix>1`..: ordered as their digits."""
        case.add(f"prefix = unique({literal(n.field)})",
                 f"values = [prefix + str(i) for i in range(1, {count + 1})]",
                 "for value in values:",
                 "    " + self._make(n, "_", "value"))

    def _selection(self, n: _Noun) -> str | None:
        """A documented filter that selects exactly the test's own records (`in`, or a
        lower and an upper bound), as source for a `filter` value."""
        examples = self._params(n).get("filter", [])
        for example in examples:
            ops = {m.group(2) for c in example.split(";") if (m := _FILTER.match(c))}
            if "in" in ops:
                return f"{literal(n.field + ',in,')} + ','.join(values)"
        for example in examples:
            ops = {m.group(2) for c in example.split(";") if (m := _FILTER.match(c))}
            if ops & _LOWER and ops & _UPPER:
                low, high = sorted(ops & _LOWER)[0], sorted(ops & _UPPER)[0]
                return (f"f{literal(n.field + ',' + low + ',')[:-1]}{{prefix}};"
                        f"{n.field},{high},{{prefix}}~\"")
        return None

    def filter_cases(self, n: _Noun) -> list[Case | None]:
        if n.field is None or n.list_ep is None:
            return []
        out: list[Case | None] = []
        for i, example in enumerate(self._params(n).get("filter", [])):
            out.append(self._filter_case(n, i, example))
        return out

    def _filter_case(self, n: _Noun, i: int, example: str) -> Case | None:
        clauses = [m for c in example.split(";") if (m := _FILTER.match(c))]
        if not clauses or any(m.group(1) != n.field for m in clauses):
            return None
        ops = [m.group(2) for m in clauses]
        bounded = {"eq", "in"} & set(ops) or (set(ops) & _LOWER and set(ops) & _UPPER)
        if not bounded or "like" in ops or "ne" in ops:
            return None
        # the example's values, in order of appearance, become the test's own values 1, 2..
        order: list[str] = []
        for m in clauses:
            order += [v for v in m.group(3).split(",") if v not in order]
        own = {v: i + 1 for i, v in enumerate(order)}
        count = len(order) + 1
        chosen = [k for k in range(1, count + 1) if all(
            _holds(m.group(2), k, [own[v] for v in m.group(3).split(",")]) for m in clauses)]
        query = ";".join(f"{n.field},{m.group(2)}," + ",".join(
            f"{{prefix}}{own[v]}" for v in m.group(3).split(",")) for m in clauses)
        case = Case(f"test_filter_{n.items}_{'_'.join(ops)}_{i + 1}", "integration",
                    doc=f"`filter={example}` with the test's own values selects exactly the "
                        "records it names.")
        case.endpoints = [f"GET {{{n.link}}}"]
        self._start(case, n)
        self._own(case, n, count)
        case.add(*_get("page", "collection", f'{{"filter": f"{query}", "expand": 1}}'),
                 f"rows = page[{literal(n.items)}]",
                 f"found = sorted(row[{literal(n.field)}] for row in rows)",
                 f"assert found == [values[i - 1] for i in {literal(chosen)}], found")
        return case

    def sort_case(self, n: _Noun) -> Case | None:
        sorts = self._params(n).get("sort", [])
        select = self._selection(n) if n.field else None
        desc = next((s for s in sorts if s.startswith(f"{n.field},desc")), None)
        if select is None or desc is None or n.list_ep is None:
            return None
        case = Case(f"test_sort_{n.items}_by_{n.field}_descending", "integration",
                    doc=f"`sort={desc}` lists the selected records in descending order, "
                        "and ascending without it.")
        case.endpoints = [f"GET {{{n.link}}}"]
        self._start(case, n)
        self._own(case, n, 3)
        case.add(f"selection = {select}")
        for order, expected in ((f"{n.field},desc", "[values[2], values[1], values[0]]"),
                                (f"{n.field},asc", "[values[0], values[1], values[2]]")):
            case.add(*_get("page", "collection", f'{{"filter": selection, "sort": '
                                                 f'{literal(order)}, "expand": 1}}'),
                     f"rows = page[{literal(n.items)}]",
                     f"assert [row[{literal(n.field)}] for row in rows] == {expected}, rows")
        return case

    def expand_case(self, n: _Noun) -> Case | None:
        expands = self._params(n).get("expand", [])
        select = self._selection(n) if n.field else None
        if not expands or select is None or n.list_ep is None:
            return None
        case = Case(f"test_expand_{n.items}_gives_records", "integration",
                    doc=f"A collection lists URLs; `expand={expands[0]}` lists the records.")
        case.endpoints = [f"GET {{{n.link}}}"]
        self._start(case, n)
        self._own(case, n, 1)
        case.add(f"selection = {select}",
                 *_get("page", "collection", '{"filter": selection}'),
                 f"urls = page[{literal(n.items)}]",
                 "assert len(urls) == 1 and isinstance(urls[0], str), urls",
                 *_get("page", "collection", f'{{"filter": selection, "expand": '
                                             f'{literal(expands[0])}}}'),
                 f"rows = page[{literal(n.items)}]",
                 f"assert [row[{literal(n.field)}] for row in rows] == values, rows",
                 "assert same_url(rows[0][LINKS['self']], urls[0]), rows")
        return case

    def pages_case(self, n: _Noun) -> Case | None:
        params = self._params(n)
        select = self._selection(n) if n.field else None
        if self.meta is None or select is None or "per_page" not in params \
                or not {"total", "pages", "per_page"} <= self.meta[1]:
            return None
        case = Case(f"test_page_{n.items}_counts_the_selection", "integration",
                    doc="The paging facts count the selected records and `next_url` keeps "
                        "the selection.")
        case.endpoints = [f"GET {{{n.link}}}"]
        self._start(case, n)
        self._own(case, n, 3)
        case.add(f"selection = {select}",
                 *_get("first", "collection",
                       '{"filter": selection, "per_page": 2, "expand": 1}'),
                 "meta = first[LINKS['meta']]",
                 "assert meta['total'] == 3, meta",
                 "assert meta['pages'] == -(-3 // meta['per_page']), meta",
                 f"assert len(first[{literal(n.items)}]) == min(meta['per_page'], 3), first")
        if "next_url" in self.meta[1]:
            case.add(f"rows = all_rows(session, collection, {literal(n.items)}, "
                     "filter=selection, per_page=2)",
                     f"assert sorted(row[{literal(n.field)}] for row in rows) == values, rows")
        return case

    # -- links between records -----------------------------------------------------------
    def sub_collection_case(self, n: _Noun, sub: str, post: Endpoint) -> Case | None:
        keys = list((post.request_schema or {}).get("properties") or {})
        target = next((self.by_noun[k.removesuffix("_url")] for k in keys
                       if k.removesuffix("_url") in self.by_noun), None)
        if n.field is None or target is None or target.field is None:
            return None
        key = f"{target.noun}_url"
        case = Case(f"test_{n.noun}_{sub.removesuffix('_url')}_list_what_was_added",
                    "integration",
                    doc=f"A {target.noun} added through a {n.noun}'s `{sub}` is listed there, "
                        f"naming both, and under no other {n.noun}.")
        case.endpoints = [f"POST {{{n.noun}.{sub}}}", f"GET {{{n.noun}.{sub}}}"]
        case.add("links = catalog_links(session, base_url)",
                 f"collection = links[{literal(n.link)}]",
                 self._make(n, "mine", f"unique({literal(n.field)})"),
                 self._make(n, "other", f"unique({literal(n.field)})"),
                 f"collection = links[{literal(target.link)}]",
                 self._make(target, "target", f"unique({literal(target.field)})"),
                 f"mine_sub = urljoin(base_url + '/', read(session, mine)[{literal(sub)}])",
                 f"other_sub = urljoin(base_url + '/', read(session, other)[{literal(sub)}])",
                 f"added = session.post(mine_sub, json={{{literal(key)}: target}})",
                 "assert 200 <= added.status_code < 300, (added.status_code, added.text)",
                 *_get("page", "mine_sub", '{"expand": 1}'),
                 f"rows = page[{literal(sub.removesuffix('_url'))}]",
                 "assert len(rows) == 1, rows",
                 f"assert same_url(rows[0][{literal(key)}], target), rows",
                 *_get("added_record", "urljoin(base_url + '/', rows[0][LINKS['self']])"),
                 f"assert same_url(added_record[{literal(key)}], target), added_record",
                 f"if {literal(n.noun + '_url')} in rows[0]:",
                 f"    assert same_url(rows[0][{literal(n.noun + '_url')}], mine), rows",
                 *_get("page", "other_sub", '{"expand": 1}'),
                 f"assert page[{literal(sub.removesuffix('_url'))}] == [], page")
        return case

    def link_record_case(self, n: _Noun) -> Case | None:
        """A record whose body is links to two others (a registration), made in its own
        collection: it names both, reads at its URL and goes on delete."""
        refs = [k for k in n.body if k.removesuffix("_url") in self.by_noun]
        ends = [self.by_noun[k.removesuffix("_url")] for k in refs]
        if n.field is not None or len(refs) < 2 or any(e.field is None for e in ends) \
                or "GET" not in n.methods:
            return None
        case = Case(f"test_{n.noun}_made_in_its_collection_names_both_ends", "integration",
                    doc=f"A {n.noun} made with links to a " + " and a ".join(
                        e.noun for e in ends) + " reads back with both, and goes on delete.")
        case.endpoints = [f"POST {{{n.link}}}", n.ep("GET")]
        case.add("links = catalog_links(session, base_url)")
        for e in ends:
            case.add(f"collection = links[{literal(e.link)}]",
                     self._make(e, f"{e.noun}_at", f"unique({literal(e.field)})"))
        body = "{" + ", ".join(f"{literal(k)}: {e.noun}_at" for k, e in zip(refs, ends,
                                                                         strict=True)) + "}"
        case.add(f"made = session.post(links[{literal(n.link)}], json={body})",
                 "assert 200 <= made.status_code < 300, (made.status_code, made.text)",
                 "url = made.headers.get('Location') or made.json()[LINKS['self']]",
                 "url = urljoin(base_url + '/', url)",
                 *_get("record", "url"))
        for k, e in zip(refs, ends, strict=True):
            case.add(f"assert same_url(record[{literal(k)}], {e.noun}_at), record")
        case.add("assert same_url(record[LINKS['self']], url), record")
        listed_in = f"all_rows(session, links[{literal(n.link)}], {literal(n.items)})"
        if n.list_ep is not None:  # its collection lists it (every page walked)
            case.endpoints.append(f"GET {{{n.link}}}")
            case.add(f"assert [row[LINKS['self']] for row in {listed_in} "
                     "if same_url(row[LINKS['self']], url)] != [], url")
        if "DELETE" in n.methods:
            case.endpoints.append(n.ep("DELETE"))
            case.add("gone = session.delete(url)",
                     "assert 200 <= gone.status_code < 300, (gone.status_code, gone.text)",
                     "assert 400 <= session.get(url).status_code < 500")
            if n.list_ep is not None:
                case.add(f"assert [row for row in {listed_in} "
                         "if same_url(row[LINKS['self']], url)] == []")
        return case

    def etag_case(self, n: _Noun) -> Case | None:
        """"All the GET requests return an ETag header" usable with If-None-Match: the same
        read with the tag is 304, with another tag (or after an edit) the record."""
        if not self.links.etags or n.field is None or "GET" not in n.methods:
            return None
        case = Case(f"test_{n.noun}_read_with_its_etag_is_not_modified", "integration",
                    doc=f"A {n.noun} read again with its ETag in If-None-Match is 304; with "
                        "another tag, or after an edit, it is read in full.")
        case.endpoints = [f"POST {{{n.link}}}", n.ep("GET")]
        self._start(case, n)
        case.add(f"value = unique({literal(n.field)})", self._make(n, "url", "value"),
                 "first = session.get(url)",
                 "assert first.status_code == 200, (first.status_code, first.text)",
                 "tag = first.headers.get('ETag')",
                 "assert tag, first.headers",
                 "again = session.get(url, headers={'If-None-Match': tag})",
                 "assert again.status_code == 304, (again.status_code, again.text)",
                 "other = session.get(url, headers={'If-None-Match': '\"not-' + "
                 "tag.strip('W/\"') + '\"'})",
                 "assert other.status_code == 200, (other.status_code, other.text)",
                 f"assert other.json()[{literal(n.field)}] == value, other.text")
        if "PUT" in n.methods:
            case.endpoints.insert(1, n.ep("PUT"))
            case.add(f"value = unique({literal(n.field)})",
                     f"edited = session.put(url, json={{{literal(n.field)}: value}})",
                     "assert 200 <= edited.status_code < 300, (edited.status_code, edited.text)",
                     "fresh = session.get(url, headers={'If-None-Match': tag})",
                     "assert fresh.status_code == 200, (fresh.status_code, fresh.text)",
                     f"assert fresh.json()[{literal(n.field)}] == value, fresh.text")
        return case

    def invalid_ignored_case(self, n: _Noun, param: str) -> Case | None:
        """"Invalid filters are silently ignored": an invalid one beside the selection
        changes nothing; an invalid sort lists the selection all the same."""
        select = self._selection(n) if n.field else None
        if select is None or n.list_ep is None or param not in self._params(n):
            return None
        invalid = {"filter": f'selection + ";{n.field},eq"', "sort": None}.get(param)
        if param not in ("filter", "sort"):
            return None
        case = Case(f"test_invalid_{param}_of_{n.items}_is_ignored", "edge_case",
                    doc=f"An invalid `{param}` is ignored, as the document says: the "
                        "selection is listed as without it.")
        case.endpoints = [f"GET {{{n.link}}}"]
        self._start(case, n)
        self._own(case, n, 2)
        case.add(f"selection = {select}")
        params = (f'{{"filter": {invalid}, "expand": 1}}' if invalid else
                  '{"filter": selection, "sort": "no_such_field,sideways", "expand": 1}')
        case.add(*_get("page", "collection", params),
                 f"assert sorted(row[{literal(n.field)}] for row in page[{literal(n.items)}])"
                 " == values, page")
        return case

    # -- access --------------------------------------------------------------------------
    def token_location_case(self) -> Case | None:
        first = next((n for n in self.nouns if n.list_ep is not None), None)
        if not self.links.token_location or first is None or not self.spec.auth \
                or not self.spec.auth.account:
            return None
        case = Case("test_request_without_credentials_names_the_token_url", "error_handling",
                    doc="Without credentials a collection answers 401 with the token URL in "
                        "`Location`; a POST there with the account gives a token.")
        case.endpoints = [f"GET {{{first.link}}}"]
        case.add("import requests",
                 "links = catalog_links(session, base_url)",
                 f"refused = requests.get(links[{literal(first.link)}], timeout=10)",
                 "assert refused.status_code == 401, (refused.status_code, refused.text)",
                 "location = refused.headers.get('Location')",
                 "assert location, refused.headers",
                 "issued = requests.post(urljoin(base_url + '/', location), "
                 "auth=tuple(LINKS['account']), timeout=10)",
                 "assert 200 <= issued.status_code < 300, (issued.status_code, issued.text)",
                 "assert any(isinstance(v, str) and v for v in issued.json().values()), "
                 "issued.text")
        return case

    def cases(self) -> list[Case]:
        out: list[Case | None] = [self.catalog_case(), self.token_location_case()]
        for n in self.nouns:
            out += [self.round_trip(n), self.required_refused(n), self.update_kept(n),
                    self.delete_gone(n), *self.filter_cases(n), self.sort_case(n),
                    self.expand_case(n), self.pages_case(n), self.link_record_case(n),
                    self.etag_case(n)]
            out += [self.invalid_ignored_case(n, p) for p in self.links.ignores_invalid]
            out += [self.sub_collection_case(n, sub, post) for sub, post in n.subs.items()]
        return [c for c in out if c is not None]


def _get(var: str, url: str, params: str = "") -> tuple[str, str, str]:
    """A GET the test checks, sent where the reviewers see it: `var` is its JSON answer."""
    given = f", params={params}" if params else ""
    return (f"answer = session.get({url}{given})",
            "assert answer.status_code == 200, (answer.status_code, answer.text)",
            f"{var} = answer.json()")


def _holds(op: str, value: int, args: list[int]) -> bool:
    """Does own value number `value` pass `op` against own values `args` (they order as
    their numbers)?"""
    first = args[0]
    return {"eq": value == first, "in": value in args, "lt": value < first,
            "le": value <= first, "gt": value > first, "ge": value >= first}.get(op, False)


def link_cases(spec: Spec) -> tuple[list[Case], str]:
    """The cases of a hypermedia spec and the prelude they share."""
    writer = LinkWriter(spec)
    assert spec.links is not None
    meta = writer.meta[0] if writer.meta is not None else None
    return writer.cases(), links_prelude_source(spec, meta)

