"""Offline templates for a hypermedia API (spec/catalog.py): tests that find every URL in answers.

Each test starts at the root URL, takes a collection's URL from its catalog and every other URL
from what the service answers, so an implementation with other paths passes as long as it
hands out its links as the document says. What the tests check is what the document states,
on records the test makes with its own values:

- the root's catalog names each collection, and each link opens that collection;
- a record made in a collection reads back with the value sent and its own `self_url`; one
  made without a field the document requires is refused and not listed;
- an edit is kept; a deleted record no longer reads;
- the collection queries (filters, sort, expand, paging): gen_link_queries.py;
- a record's sub-collection (`registrations_url`) lists what was posted to it and nothing of
  another record's; a link record made in its own collection names both ends and goes on
  delete;
- a request without credentials is answered 401 with the token URL in `Location`, where a
  POST with the account gives a token.
"""

from __future__ import annotations

import inspect

from pipeline.offline import links_prelude
from pipeline.offline.gen_code import Case, literal
from pipeline.offline.gen_link_queries import LinkNoun, LinkQueries, get_lines
from pipeline.records import Endpoint, Spec

_HELPERS = (links_prelude.catalog_links, links_prelude.same_url, links_prelude.listed,
            links_prelude.made_url, links_prelude.read, links_prelude.all_rows)


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


class LinkWriter(LinkQueries):
    """Writes the cases of one hypermedia spec (the query cases are LinkQueries')."""

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
                case.add(*get_lines("opened", f"links[{literal(n.link)}]"),
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
                    case.add(*get_lines("page", f"links[{literal(m.link)}]",
                                   f'{{"filter": {literal(m.field + ",eq,")} + value, '
                                   '"expand": 1}'),
                             f"rows = [row for row in page[{literal(m.items)}] "
                             "if same_url(row[LINKS['self']], mine)]",
                             f"assert len(rows) == {1 if m is n else 0}, page")
        return case

    def round_trip(self, n: LinkNoun) -> Case | None:
        if n.field is None or "GET" not in n.methods:
            return None
        case = Case(f"test_create_{n.noun}_then_read_it", "integration",
                    doc=f"A {n.noun} made in its collection reads back as sent at its URL.")
        case.endpoints = [f"POST {{{n.link}}}", n.ep("GET")]
        self._start(case, n)
        case.add(f"value = unique({literal(n.field)})", self._make(n, "url", "value"),
                 *get_lines("record", "url"),
                 f"assert record[{literal(n.field)}] == value, record",
                 "assert same_url(record[LINKS['self']], url), record")
        return case

    def required_refused(self, n: LinkNoun) -> Case | None:
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

    def update_kept(self, n: LinkNoun) -> Case | None:
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
                 *get_lines("record", "url"),
                 f"assert record[{literal(n.field)}] == value, record")
        return case

    def delete_gone(self, n: LinkNoun) -> Case | None:
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
            case.add(*get_lines("page", "collection", f'{{"filter": {literal(n.field + ",eq,")} '
                                                 f'+ value}}'),
                     f"assert page[{literal(n.items)}] == [], page")
        return case

    # -- links between records -----------------------------------------------------------
    def sub_collection_case(self, n: LinkNoun, sub: str, post: Endpoint) -> Case | None:
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
                 *get_lines("page", "mine_sub", '{"expand": 1}'),
                 f"rows = page[{literal(sub.removesuffix('_url'))}]",
                 "assert len(rows) == 1, rows",
                 f"assert same_url(rows[0][{literal(key)}], target), rows",
                 *get_lines("added_record", "urljoin(base_url + '/', rows[0][LINKS['self']])"),
                 f"assert same_url(added_record[{literal(key)}], target), added_record",
                 f"if {literal(n.noun + '_url')} in rows[0]:",
                 f"    assert same_url(rows[0][{literal(n.noun + '_url')}], mine), rows",
                 *get_lines("page", "other_sub", '{"expand": 1}'),
                 f"assert page[{literal(sub.removesuffix('_url'))}] == [], page")
        return case

    def link_record_case(self, n: LinkNoun) -> Case | None:
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
                 *get_lines("record", "url"))
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

    def etag_case(self, n: LinkNoun) -> Case | None:
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


def link_cases(spec: Spec) -> tuple[list[Case], str]:
    """The cases of a hypermedia spec and the prelude they share."""
    writer = LinkWriter(spec)
    assert spec.links is not None
    meta = writer.meta[0] if writer.meta is not None else None
    return writer.cases(), links_prelude_source(spec, meta)

