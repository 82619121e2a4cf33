"""Helpers a hypermedia API's generated tests carry (their source goes into the test module).

The tests find every URL as a client of such an API does: the collections' URLs in the root
URL's answer, a record's URL in what its create answers, its sub-collections in the record.
What the document leaves open is accepted either way: a URL written absolute or relative,
with or without a trailing slash; a create that names its record in `Location`, in the
record it answers, or in neither (then the record is found in the collection by the value it
was made with). `LINKS` (root path, keys down to the links, the self-link key) is written
above them from the spec.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin, urlsplit

from pipeline.offline.tolerant import token_in

LINKS: dict[str, Any] = {"root": "/", "at": [], "self": "self_url", "meta": "meta",
                         "account": None}


def catalog_links(session, base_url):
    """The collections' URLs, read from the root URL's answer (made absolute)."""
    answer = session.get(urljoin(base_url + "/", LINKS["root"].lstrip("/")))
    assert answer.status_code == 200, answer.text
    links = answer.json()
    for key in LINKS["at"]:
        links = links[key]
    return {key: urljoin(base_url + "/", url) for key, url in links.items()}


def same_url(a, b):
    """One resource's URL, however each side writes it (absolute or not, a trailing /)."""
    return urlsplit(str(a)).path.rstrip("/") == urlsplit(str(b)).path.rstrip("/")


def listed(session, url, **params):
    """A collection's answer (JSON) to a GET with `params`."""
    answer = session.get(url, params=params)
    assert answer.status_code == 200, (answer.status_code, answer.text)
    return answer.json()


def made_url(session, base_url, collection_url, body, items, field):
    """POST `body` into a collection; the new record's URL, from `Location`, from the record
    answered, or (neither given) from the collection filtered by the value it was made with."""
    made = session.post(collection_url, json=body)
    assert 200 <= made.status_code < 300, (made.status_code, made.text)
    url = made.headers.get("Location")
    if not url and made.content:
        try:
            url = made.json().get(LINKS["self"])
        except (ValueError, AttributeError):
            url = None
    if not url:
        rows = listed(session, collection_url, filter=f"{field},eq,{body[field]}",
                      expand=1)[items]
        url = next(row[LINKS["self"]] for row in rows if row.get(field) == body[field])
    return urljoin(base_url + "/", url)


def read(session, url):
    """A record's representation (JSON) at its URL."""
    answer = session.get(url)
    assert answer.status_code == 200, (answer.status_code, answer.text)
    return answer.json()


def all_rows(session, url, items, **params):
    """Every record a collection lists with `params`, expanded, following `next_url` pages
    (bounded)."""
    rows, page = [], listed(session, url, expand=1, **params)
    for _ in range(50):
        rows += page[items]
        following = (page.get(LINKS["meta"]) or {}).get("next_url") if LINKS["meta"] else None
        if not following:
            break
        page = listed(session, urljoin(url, following))
    return rows


def account_auth(session, base_url, root, at, account):
    """The way of sending `account` that opens a collection, or None. The 401 of a request
    without credentials names the token URL in `Location` (POST there with the account as
    HTTP Basic); the document does not say how the token goes back, so each way a client
    could send it is tried (the account itself last). An open root: a collection answers the
    401. Used by the oracle's observation and, as source, by the generated conftest."""
    from requests.auth import AuthBase, HTTPBasicAuth

    class Bearer(AuthBase):
        def __init__(self, token):
            self.token = token

        def __call__(self, r):
            r.headers["Authorization"] = "Bearer " + self.token
            return r

    opens = urljoin(base_url + "/", root.lstrip("/"))
    first = session.get(opens)
    if first.status_code < 300:
        links = first.json()
        for key in at:
            links = links[key]
        opens = urljoin(base_url + "/", str(next(iter(links.values()))))
        first = session.get(opens)
    ways = []
    location = first.headers.get("Location") if first.status_code == 401 else None
    if location:
        issued = session.post(urljoin(base_url + "/", location), auth=tuple(account))
        try:
            token = token_in(issued.json())
        except ValueError:
            token = None
        if isinstance(token, str) and token:
            ways += [HTTPBasicAuth(token, ""), Bearer(token)]
    ways.append(HTTPBasicAuth(*account))
    return next((way for way in ways if session.get(opens, auth=way).status_code < 300), None)
