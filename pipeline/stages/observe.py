"""Send the document's own example requests to the running oracle before tests are written.

In document order within each step: every documented create with its example body, every
list, then each read and each update of the record the create made (its id found in the create
answer or the list). Endpoints behind auth and requests the document shows no example for
are left out. The answers go to the generator as `Spec.observed` (see `offline/shape.py`).
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import requests

from pipeline.offline.shape import find_id, id_names
from pipeline.records import Endpoint, Observation, Spec
from pipeline.tasks import RawTask

_PARAM = re.compile(r"\{([^{}]+)\}")
_TIMEOUT_S = 5.0


def _open(spec: Spec, ep: Endpoint) -> bool:
    return spec.auth is None or ep.auth_required is False


def _noun(collection: str) -> str:
    from pipeline.offline.gen_model import segments, singular, snake

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
    eps = [e for e in spec.endpoints if _open(spec, e)]
    creates = [e for e in eps if e.method == "POST" and not _PARAM.search(e.path)
               and isinstance(e.request_example, dict) and e.request_example]
    lists = [e for e in eps if e.method == "GET" and not _PARAM.search(e.path)
             and not any(p.required and p.location == "query" for p in e.params)]
    out: list[Observation] = []
    with requests.Session() as session:
        def send(ep: Endpoint, path: str, body: Any = None) -> None:
            with contextlib.suppress(requests.RequestException):
                out.append(_send(session, base_url, ep, path, body))

        for ep in creates:
            send(ep, ep.path, ep.request_example)
        for ep in lists:
            send(ep, ep.path)
        for create in creates:
            collection = create.path.rstrip("/")
            items = [e for e in eps if len(_PARAM.findall(e.path)) == 1
                     and re.fullmatch(re.escape(collection) + r"/\{[^{}/]+\}/?", e.path)]
            if not items:
                continue
            param = _PARAM.findall(items[0].path)[0]
            answers = [o.answer for o in out if o.path in (create.path, collection)
                       or o.path == collection + "/"]
            assert isinstance(create.request_example, dict)
            found = find_id(answers, create.request_example, id_names(param, _noun(collection)))
            if found is None:
                continue
            for ep in items:
                path = _PARAM.sub(str(found), ep.path)
                if ep.method == "GET":
                    send(ep, path)
                elif ep.method in ("PUT", "PATCH") and isinstance(ep.request_example, dict):
                    send(ep, path, ep.request_example)
    return out


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

    if not any(e.method in ("POST", "GET") and _open(spec, e) for e in spec.endpoints):
        return []
    try:
        env = ensure_task_env(task.oracle_dir, task.config.language, root=cache_dir)
        with start_service(task.oracle_dir, free_port(), env.bin if env else None,
                           startup_timeout_s=startup_timeout_s) as service:
            return observe_examples(service.base_url, spec)
    except (EnvError, ServiceError):
        return []
