"""Where a hypermedia oracle puts each link (`Spec.links.resolved`), learned by using it.

The document names no path, so which request hits which documented endpoint is only known
from the oracle's answers: the root's catalog gives each collection's URL; a record made in
each collection (with the fields its create requires, links to records made before it where
its body is links) gives its `self_url` and its sub-collections' URLs. Ids in those paths
become parameters (`/v1/students/12/registrations/` -> `/v1/students/{id}/registrations/`).
The reviewers match the requests a test sent with these patterns. Signs in as the generated
conftest does (`links_prelude.account_auth`).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests

from pipeline.offline.links_prelude import account_auth
from pipeline.records import Spec

_TIMEOUT_S = 5.0
_ID = re.compile(r"^(?:\d+|[0-9a-f]{8,}|[0-9a-f-]{36})$", re.I)


class _Session(requests.Session):
    """A session whose requests time out."""

    def request(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("timeout", _TIMEOUT_S)
        return super().request(*args, **kwargs)


def link_pattern(url: str) -> str:
    """A URL's path with its id segments as parameters."""
    parts = urlsplit(url).path.split("/")
    n = 0
    for i, part in enumerate(parts):
        if _ID.match(part):
            n += 1
            parts[i] = "{id}" if n == 1 else f"{{id{n}}}"
    return "/".join(parts) or "/"


def _catalog(session: requests.Session, base_url: str, spec: Spec) -> dict[str, str] | None:
    """The collections' URLs from the root's answer, signed in as the generated conftest
    signs in (`links_prelude.account_auth`) where the task gives an account."""
    links = spec.links
    assert links is not None
    account = spec.auth.account if spec.auth is not None else None
    if account:
        session.auth = account_auth(session, base_url, links.root, links.at, account)
    answer = session.get(urljoin(base_url + "/", links.root.lstrip("/")))
    try:
        found = answer.json()
        for key in links.at:
            found = found[key]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(found, dict):
        return None
    return {k: urljoin(base_url + "/", str(v)) for k, v in found.items()}


def _made(session: requests.Session, base_url: str, collection: str, body: dict,
          self_key: str) -> dict | None:
    made = session.post(collection, json=body)
    if made.status_code >= 300:
        return None
    url = made.headers.get("Location")
    if not url:
        try:
            url = made.json().get(self_key)
        except (ValueError, AttributeError):
            url = None
    if not url:
        return None
    got = session.get(urljoin(base_url + "/", url))
    try:
        record = got.json()
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def resolve_links(base_url: str, spec: Spec) -> dict[str, str]:
    """Link-named path (`{student.self_url}`) -> the oracle's path pattern, as far as its
    answers show (the records made here stay: the oracle is restarted for the tests)."""
    links = spec.links
    assert links is not None
    out: dict[str, str] = {}
    with _Session() as session:
        try:
            catalog = _catalog(session, base_url, spec)
            if catalog is None:
                return out
            for key, url in catalog.items():
                out[f"{{{key}}}"] = link_pattern(url)
            made: dict[str, str] = {}  # noun -> a record's URL
            creates = {e.path: e for e in spec.endpoints if e.method == "POST" and e.by_link}
            order = sorted(links.collections.items(), key=lambda kv: any(
                k.endswith("_url") for k in _body_keys(creates.get(f"{{{kv[0]}}}"))))
            for key, noun in order:
                body = {k: made.get(k.removesuffix("_url"), f"observed {noun}")
                        for k in _body_keys(creates.get(f"{{{key}}}"))}
                record = _made(session, base_url, catalog[key], body, links.self_key) \
                    if key in catalog else None
                for field, value in (record or {}).items():
                    if field.endswith("_url") and isinstance(value, str) \
                            and field.removesuffix("_url") not in links.collections.values():
                        out[f"{{{noun}.{field}}}"] = link_pattern(value)
                if record and isinstance(record.get(links.self_key), str):
                    made[noun] = urljoin(base_url + "/", record[links.self_key])
        except requests.RequestException:
            return out
    return out


def _body_keys(create: Any) -> list[str]:
    schema = (create.request_schema or {}) if create is not None else {}
    return list(schema.get("properties") or {})
