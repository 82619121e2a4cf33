"""The hypermedia templates' shared reading of a spec, and the cases about collection queries.

Each documented filter example, its values swapped for the test's own, selects exactly the
test's records it should (`name,ge,a;name,lt,b`: the bounds both apply); `sort=<field>,desc`
orders the selected records; `expand=1` turns URLs into records; invalid arguments are ignored
where the document says so; paging facts (`total`, `pages`, `per_page`) count the selection
and `next_url` keeps it. The records, links and access cases are gen_links.py's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.offline.gen_code import Case, literal
from pipeline.records import Endpoint, LinkCatalog, Spec

_FILTER = re.compile(r"^(\w+),(eq|ne|lt|le|gt|ge|like|in),(.+)$")
_LOWER, _UPPER = {"ge", "gt"}, {"le", "lt"}


@dataclass
class LinkNoun:
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


def link_nouns(spec: Spec, links: LinkCatalog) -> list[LinkNoun]:
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
        out.append(LinkNoun(noun, link, link.removesuffix("_url"), field, required, body,
                         methods, {k: v for k, v in subs.items() if v is not None},
                         eps.get(("GET", f"{{{link}}}"))))
    return out


class LinkQueries:
    """What every hypermedia case reads from the spec, and the query cases."""

    def __init__(self, spec: Spec):
        assert spec.links is not None
        self.spec, self.links = spec, spec.links
        self.nouns = link_nouns(spec, spec.links)
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

    def _params(self, n: LinkNoun) -> dict[str, list[str]]:
        return {p.name: [str(e) for e in p.constraints.get("examples") or []]
                for p in (n.list_ep.params if n.list_ep is not None else [])}

    def _start(self, case: Case, n: LinkNoun) -> None:
        case.add("links = catalog_links(session, base_url)",
                 f"collection = links[{literal(n.link)}]")

    def _make(self, n: LinkNoun, var: str, value: str, extra: str = "") -> str:
        body = f"{{{literal(n.field)}: {value}{extra}}}"
        return (f"{var} = made_url(session, base_url, collection, {body}, "
                f"{literal(n.items)}, {literal(n.field)})")

    def _eq_filter(self, n: LinkNoun) -> bool:
        return any(re.match(rf"^{re.escape(n.field or '')},eq,[^;]+$", e)
                   for e in self._params(n).get("filter", []))

    # -- queries -------------------------------------------------------------------------
    def _own(self, case: Case, n: LinkNoun, count: int) -> None:
        """`count` records of the test's own, valued `<prefix>1`..: ordered as their digits."""
        case.add(f"prefix = unique({literal(n.field)})",
                 f"values = [prefix + str(i) for i in range(1, {count + 1})]",
                 "for value in values:",
                 "    " + self._make(n, "_", "value"))

    def _selection(self, n: LinkNoun) -> str | None:
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

    def filter_cases(self, n: LinkNoun) -> list[Case | None]:
        if n.field is None or n.list_ep is None:
            return []
        out: list[Case | None] = []
        for i, example in enumerate(self._params(n).get("filter", [])):
            out.append(self._filter_case(n, i, example))
        return out

    def _filter_case(self, n: LinkNoun, i: int, example: str) -> Case | None:
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
        case.add(*get_lines("page", "collection", f'{{"filter": f"{query}", "expand": 1}}'),
                 f"rows = page[{literal(n.items)}]",
                 f"found = sorted(row[{literal(n.field)}] for row in rows)",
                 f"assert found == [values[i - 1] for i in {literal(chosen)}], found")
        return case

    def sort_case(self, n: LinkNoun) -> Case | None:
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
            case.add(*get_lines("page", "collection", f'{{"filter": selection, "sort": '
                                                 f'{literal(order)}, "expand": 1}}'),
                     f"rows = page[{literal(n.items)}]",
                     f"assert [row[{literal(n.field)}] for row in rows] == {expected}, rows")
        return case

    def expand_case(self, n: LinkNoun) -> Case | None:
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
                 *get_lines("page", "collection", '{"filter": selection}'),
                 f"urls = page[{literal(n.items)}]",
                 "assert len(urls) == 1 and isinstance(urls[0], str), urls",
                 *get_lines("page", "collection", f'{{"filter": selection, "expand": '
                                             f'{literal(expands[0])}}}'),
                 f"rows = page[{literal(n.items)}]",
                 f"assert [row[{literal(n.field)}] for row in rows] == values, rows",
                 "assert same_url(rows[0][LINKS['self']], urls[0]), rows")
        return case

    def pages_case(self, n: LinkNoun) -> Case | None:
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
                 *get_lines("first", "collection",
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

    def invalid_ignored_case(self, n: LinkNoun, param: str) -> Case | None:
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
        case.add(*get_lines("page", "collection", params),
                 f"assert sorted(row[{literal(n.field)}] for row in page[{literal(n.items)}])"
                 " == values, page")
        return case

def get_lines(var: str, url: str, params: str = "") -> tuple[str, str, str]:
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
