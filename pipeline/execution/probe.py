"""Ask a running service whether it routes a documented endpoint.

Static analysis cannot see inside a hand-written dispatcher (one `createContext("/")` that
switches on the path), so for such services we compare each endpoint's answer with the
answer to a path that surely does not exist: the same "no route" reply means not routed.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Literal

import requests

from pipeline.records import Endpoint

Verdict = Literal["routed", "not_routed", "method_not_allowed", "unsure"]
PARAM_VALUE = "999999"


@dataclass(frozen=True)
class Probe:
    endpoint: Endpoint
    verdict: Verdict
    status: int | None
    detail: str = ""


def _fill(path: str) -> str:
    return re.sub(r"\{[^{}]+\}", PARAM_VALUE, path)


def _signature(resp: requests.Response, path: str) -> tuple[int, str]:
    """Status and body with the requested path blanked (no-route replies often echo it)."""
    body = resp.text.replace(path, "<path>")
    body = re.sub(r"\s+", " ", body).strip()
    return resp.status_code, body


def _send(session: requests.Session, base_url: str, method: str, path: str,
          timeout_s: float) -> requests.Response:
    return session.request(method, base_url.rstrip("/") + path, timeout=timeout_s,
                           allow_redirects=False, json={} if method in ("POST", "PUT", "PATCH")
                           else None)


def probe_endpoints(
    base_url: str, endpoints: list[Endpoint], timeout_s: float = 5.0
) -> list[Probe]:
    """One Probe per endpoint; sends one request per endpoint plus one baseline per method."""
    out: list[Probe] = []
    baselines: dict[str, tuple[int, str]] = {}
    with requests.Session() as session:
        for ep in endpoints:
            if ep.method not in baselines:
                nowhere = f"/repogenesis-no-such-route-{uuid.uuid4().hex[:12]}"
                try:
                    resp = _send(session, base_url, ep.method, nowhere, timeout_s)
                    baselines[ep.method] = _signature(resp, nowhere)
                except requests.RequestException:
                    baselines[ep.method] = (-1, "")
            path = _fill(ep.path)
            try:
                resp = _send(session, base_url, ep.method, path, timeout_s)
            except requests.RequestException as exc:
                out.append(Probe(ep, "unsure", None, f"no answer ({exc.__class__.__name__})"))
                continue
            out.append(_judge(ep, resp, _signature(resp, path), baselines[ep.method]))
    return out


def _judge(ep: Endpoint, resp: requests.Response, sig: tuple[int, str],
           baseline: tuple[int, str]) -> Probe:
    if sig == baseline:
        if ep.path_params:
            # An unknown id may legitimately get the same reply as an unknown path.
            return Probe(ep, "unsure", resp.status_code, "same reply as an unknown path")
        return Probe(ep, "not_routed", resp.status_code, "same reply as an unknown path")
    if resp.status_code in (405, 501):
        return Probe(ep, "method_not_allowed", resp.status_code, "the path exists, the method not")
    return Probe(ep, "routed", resp.status_code)
