"""Send the document's own example requests to the running oracle before tests are written.

A request the document lists the fields of but shows no example for is sent with the body the
generator would build from that list (`payload_of`): the same request its tests make.

In document order within each step: every documented create with its example body, every list,
then each read and each update of the record the create made (its id found in the create answer
or the list), then the creates and lists of records filed under it, and a read of the one made
there. Endpoints behind auth are
sent with the token of an account made as the document shows (its register example, then its
login: the generated conftest's way), and left out when the document shows no way to get one;
requests with neither an example nor a listed body are left out. The answers go to the
generator as `Spec.observed` (see `offline/shape.py`).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import Any

import requests
from requests.auth import HTTPBasicAuth, HTTPDigestAuth

from pipeline.offline.gen_model import (
    basic_keys,
    body_keyword,
    build_model,
    item_path,
    login_sources,
    segments,
    singular,
    snake,
    token_field,
)
from pipeline.offline.own_ids import fitting_id, own_id_key, path_pattern
from pipeline.offline.payloads import payload_of
from pipeline.offline.seeded import listed_answer, seeded_payload
from pipeline.offline.shape import bare_id, find_id, id_names
from pipeline.offline.tolerant import token_in
from pipeline.records import Endpoint, Observation, Spec
from pipeline.tasks import RawTask

_PARAM = re.compile(r"\{([^{}]+)\}")
_TIMEOUT_S = 5.0
_PASSWORD_KEY = re.compile(r"""['"]\w*pass\w*['"]\s*:""", re.I)
_ENDS_SESSION = re.compile(r"log-?out|sign-?out", re.I)


def _open(spec: Spec, ep: Endpoint, signed_in: bool = False) -> bool:
    return spec.auth is None or ep.auth_required is False or signed_in


def _sign_in(session: requests.Session, base_url: str, spec: Spec,
             out: list[Observation]) -> bool:
    """Register the document's example account and log in with it; on success the session
    carries the token as the document says to send it. Register and login are not observed,
    except an account that is a record (HTTP Basic with its identifier as the name)."""
    model = build_model(spec)
    login, reg, auth = model.login, model.register, spec.auth
    if model.account is not None and auth is not None:  # the document's one account
        kind = HTTPDigestAuth if auth.scheme.lower() == "digest" else HTTPBasicAuth
        session.auth = kind(*model.account)
        return True
    if model.basic:
        return _basic_sign_in(session, base_url, reg, model.basic_name, out)
    field = token_field(model)
    if login is None or reg is None or auth is None or not isinstance(
            login.request_example, dict) or not isinstance(reg.request_example, dict):
        return False
    account = reg.request_example
    sources = login_sources(login, reg)
    body = {k: account[sources[k]] if k in sources else v
            for k, v in login.request_example.items()}
    try:
        session.request(reg.method, base_url.rstrip("/") + reg.path, json=account,
                        timeout=_TIMEOUT_S)
        answer = session.request(login.method, base_url.rstrip("/") + login.path,
                                 timeout=_TIMEOUT_S, **{body_keyword(login): body})
        found = answer.json() if answer.status_code < 300 else None
        token = (found.get(field) if field else token_in(found)) if isinstance(found,
                                                                                 dict) else None
    except (requests.RequestException, ValueError, AttributeError):
        return False
    scheme = auth.scheme.lower()
    value = {"bearer": "Bearer ", "token": "Token ", "api-key": ""}.get(scheme)
    if not isinstance(token, str) or not token or value is None:
        return False
    session.headers[auth.header] = value + token
    return True


def _basic_sign_in(session: requests.Session, base_url: str, reg: Endpoint | None,
                   name_key: str | None, out: list[Observation]) -> bool:
    """HTTP Basic: register the example account; the session sends its name and password.
    Where the name is the record's identifier (`name_key`), the registration is observed:
    it is that record's create, and its answer may give the identifier as stored."""
    keys = basic_keys(reg, name_key) if reg is not None else None
    if reg is None or keys is None or not isinstance(reg.request_example, dict):
        return False
    account = reg.request_example
    try:
        made = _send(session, base_url, reg, reg.path, account)
    except requests.RequestException:
        return False
    name = account[keys[0]]
    if name_key and made.status < 300:
        out.append(made)
        name = made.answer if bare_id(made.answer) else name
    session.auth = (str(name), str(account[keys[1]]))
    return True


def _noun(collection: str) -> str:
    segs = segments(collection)
    return snake(singular(segs[-1])) if segs else "item"


def _send(session: requests.Session, base_url: str, ep: Endpoint, path: str,
          body: Any) -> Observation:
    resp = session.request(ep.method, base_url.rstrip("/") + path, json=body,
                           timeout=_TIMEOUT_S, allow_redirects=False)
    try:
        answer = resp.json()
    except ValueError:
        answer = None
    return Observation(method=ep.method, path=ep.path, sent_path=path, body=body,
                       status=resp.status_code, answer=answer)


def observe_examples(base_url: str, spec: Spec) -> list[Observation]:
    """The observations; a request that fails (refused, timed out) is left out."""
    out: list[Observation] = []
    with requests.Session() as session:
        if spec.accept:
            session.headers["Accept"] = spec.accept
        signed_in = spec.auth is not None and _sign_in(session, base_url, spec, out)
        _observe(session, base_url, spec, signed_in, out)
    return out


@dataclass
class Sender:
    """One observation pass: the endpoints it may send, the bodies it sends them with, and the
    answers so far (a request that fails is left out)."""

    session: requests.Session
    base_url: str
    eps: list[Endpoint]
    bodies: dict
    out: list[Observation]

    def send(self, ep: Endpoint, path: str, body: Any = None) -> None:
        with contextlib.suppress(requests.RequestException):
            self.out.append(_send(self.session, self.base_url, ep, path, body))


def _observe(session: requests.Session, base_url: str, spec: Spec, signed_in: bool,
             out: list[Observation]) -> None:
    model_paths = _account_paths(spec)
    account = out[0] if out else None  # an account that is a record (`_basic_sign_in`)
    eps = [e for e in spec.endpoints if _open(spec, e, signed_in)
           and (e.method, e.path) not in model_paths]
    bodies = {e.key: payload_of(e) for e in eps if e.method in ("POST", "PUT", "PATCH")}
    creates = [e for e in eps if e.method == "POST" and not _PARAM.search(e.path)
               and bodies.get(e.key)]
    lists = [e for e in eps if e.method == "GET" and not _PARAM.search(e.path)
             and not _ENDS_SESSION.search(e.path)  # a sign-out would end the signed-in session
             and not any(p.required and p.location == "query" for p in e.params)]
    run = Sender(session, base_url, eps, bodies, out)
    for ep in creates:
        _fit_own_id(ep, eps, bodies)
        run.send(ep, ep.path, bodies[ep.key])
    for ep in lists:
        run.send(ep, ep.path)
    creates += _seeded_creates(run, lists)
    for create in [*creates, *([account] if account is not None else [])]:
        _observe_record(run, create)


def _fit_own_id(create: Endpoint, eps: list[Endpoint], bodies: dict) -> None:
    """An id the client chooses fits the pattern of the item's path (in every body that
    sends it to the collection or the item)."""
    own = own_id_key({}, bodies[create.key])
    item = item_path(create.path, {e.path for e in eps})
    if own is None:
        return
    rule = path_pattern(*[e for e in eps if e.path == item])
    for key, body in bodies.items():
        if isinstance(body, dict) and own in body and key[1] in (create.path, item):
            body[own] = fitting_id(body[own], rule)


def _seeded_creates(run: Sender, lists: list[Endpoint]) -> list[Endpoint]:
    """Creates with no documented body, sent one shaped like a record the service lists (and
    the list read again)."""
    made: list[Endpoint] = []
    for ep in run.eps:
        if ep.method != "POST" or _PARAM.search(ep.path) or run.bodies.get(ep.key):
            continue
        body = seeded_payload(listed_answer(run.out, ep.path))
        listing = next((e for e in lists if e.path in (ep.path, ep.path.rstrip("/"))), None)
        if body is not None and listing is not None:
            run.bodies[ep.key] = body
            made.append(ep)
            run.send(ep, ep.path, body)
            run.send(listing, listing.path)
    return made


def _observe_record(run: Sender, create: Endpoint | Observation) -> None:
    """Read, update and nest under the record `create` made (or the account that is one)."""
    collection = create.path.rstrip("/")
    item = item_path(create.path, {e.path for e in run.eps})
    items = [e for e in run.eps if e.path == item and len(_PARAM.findall(e.path)) == 1]
    if item is None or not items:
        return
    param = _PARAM.findall(items[0].path)[0]
    if isinstance(create, Observation):  # the account: its identifier as stored
        auth = run.session.auth
        found = create.answer if bare_id(create.answer) else \
            auth[0] if isinstance(auth, tuple) else None
    else:
        answers = [o.answer for o in run.out if o.path in (create.path, collection)
                   or o.path == collection + "/"]
        own = own_id_key({}, run.bodies[create.key])
        found = find_id(answers, run.bodies[create.key],
                        [*id_names(param, _noun(collection)), *([own] if own else [])])
    if found is not None:
        _under(items, item, str(found), run)


def _under(items: list[Endpoint], item: str, found: str, run: Sender) -> None:
    """Read and update the record `found` names; make and list the records filed under it."""
    # an update that changes a password goes last: the session signs in with the old one
    last = [e for e in items if _PASSWORD_KEY.search(str(run.bodies.get(e.key)))]
    for ep in [e for e in items if e not in last]:
        _read_or_update(ep, found, run)
    # records filed under this one (`/notes/{id}/tags`): made and listed the same way
    under = item.rstrip("/") + "/"
    nested = [e for e in run.eps if e.path.startswith(under)
              and len(_PARAM.findall(e.path)) == 1 and e.method in ("POST", "GET")
              and (e.method == "GET" or run.bodies.get(e.key))]
    for ep in sorted(nested, key=lambda e: e.method != "POST"):
        run.send(ep, _PARAM.sub(found, ep.path), run.bodies.get(ep.key))
    for ep in nested:  # and one of them read back on its own path
        if ep.method == "POST":
            _read_nested(ep, found, run)
    for ep in last:
        _read_or_update(ep, found, run)


def _read_or_update(ep: Endpoint, found: str, run: Sender) -> None:
    path = _PARAM.sub(found, ep.path)
    if ep.method == "GET":
        run.send(ep, path)
    elif ep.method in ("PUT", "PATCH") and run.bodies.get(ep.key):
        run.send(ep, path, run.bodies[ep.key])


def _read_nested(create: Endpoint, parent_id: str, run: Sender) -> None:
    """GET the record just made under a parent (`/lists/1/item/{item_id}`), with the id its
    create answer or the parent's list of them shows."""
    item = item_path(create.path, {e.path for e in run.eps})
    read = next((e for e in run.eps if e.path == item and e.method == "GET"), None)
    if item is None or read is None or len(_PARAM.findall(item)) != 2:
        return
    param = _PARAM.findall(item)[-1]
    answers = [o.answer for o in run.out if o.path in (create.path, create.path.rstrip("/"))]
    found = find_id(answers, run.bodies[create.key], id_names(param, _noun(create.path)))
    if found is None:
        return
    ids = iter((parent_id, str(found)))
    run.send(read, _PARAM.sub(lambda _: next(ids), item))


def _account_paths(spec: Spec) -> set[tuple[str, str]]:
    """The register and login endpoints: sending their examples again would only make or
    refuse an account, not show a record's shape."""
    if spec.auth is None:
        return set()
    model = build_model(spec)
    return {(e.method, e.path) for e in (model.login, model.register) if e is not None}


def observe_task(task: RawTask, spec: Spec, startup_timeout_s: float,
                 cache_dir: Any) -> list[Observation]:
    """Start the oracle on a free port, send the examples, stop it. A service that does not
    start is the build's error to report, not this step's: no observations then."""
    from pipeline.execution import (
        EnvError,
        ServiceError,
        ensure_task_env,
        free_port,
        start_service,
    )

    if spec.links is not None:  # a hypermedia API: where its links go is what to learn
        return _resolve_links(task, spec, startup_timeout_s, cache_dir)
    model = build_model(spec)
    signable = model.account is not None or (
        model.register is not None and (model.login is not None or model.basic))
    if not any(e.method in ("POST", "GET") and _open(spec, e, signable)
               for e in spec.endpoints):
        return []
    try:
        env = ensure_task_env(task.oracle_dir, task.config.language, root=cache_dir)
        with start_service(task.oracle_dir, free_port(), env.bin if env else None,
                           startup_timeout_s=startup_timeout_s) as service:
            return observe_examples(service.base_url, spec)
    except (EnvError, ServiceError):
        return []


def _resolve_links(task: RawTask, spec: Spec, startup_timeout_s: float,
                   cache_dir: Any) -> list[Observation]:
    """Fill `spec.links.resolved` from the running oracle (no observations: the generated
    tests read every URL from the answers themselves)."""
    from pipeline.execution import (
        EnvError,
        ServiceError,
        ensure_task_env,
        free_port,
        start_service,
    )
    from pipeline.stages.observe_links import resolve_links

    assert spec.links is not None
    try:
        env = ensure_task_env(task.oracle_dir, task.config.language, root=cache_dir)
        with start_service(task.oracle_dir, free_port(), env.bin if env else None,
                           startup_timeout_s=startup_timeout_s) as service:
            spec.links.resolved = resolve_links(service.base_url, spec)
    except (EnvError, ServiceError):
        pass
    return []
