"""Example calls gathered away from the endpoints they call.

A document often lists its endpoints in a table and shows the calls in a section of their own
("Example Requests": a block of curl or HTTPie commands). Each call whose method and path
match exactly one documented endpoint gives that endpoint what its own section left out: the
request body it sends, an auth header, the answer's fields a `jq` reads.
"""

from __future__ import annotations

from pipeline.records import Endpoint
from pipeline.spec.curl import Curl, parse_curls, parse_httpie
from pipeline.spec.details import apply_call
from pipeline.spec.endpoints import call_target, template_re
from pipeline.spec.leaks import leak_reason
from pipeline.spec.markdown import Block, plain_lines
from pipeline.spec.paths import apply_base


def _calls(blocks: list[Block]) -> list[Curl]:
    out: list[Curl] = []
    for b in blocks:
        if b.kind == "code" and leak_reason(b) is None:
            lines = b.text.split("\n")
        elif b.kind == "text":
            lines = plain_lines(b.text)
        else:
            continue
        out += parse_curls(lines) + parse_httpie(lines)
    return out


def _endpoint_of(call: Curl, endpoints: list[Endpoint], base: str) -> Endpoint | None:
    target = call_target(call.url)
    if target is None:
        return None
    path = target.path if target.absolute else apply_base(target.path, base)
    exact = [ep for ep in endpoints if ep.method == call.method and ep.path == path]
    if exact:
        return exact[0] if len(exact) == 1 else None
    hits = [ep for ep in endpoints
            if ep.method == call.method and "{" in ep.path and template_re(ep.path).match(path)]
    return hits[0] if len(hits) == 1 else None


def stray_call_examples(endpoints: list[Endpoint], blocks: list[Block], base: str) -> None:
    """Fill, never replace: an endpoint's own section speaks first."""
    for call in _calls(blocks):
        ep = _endpoint_of(call, endpoints, base)
        if ep is not None:
            apply_call(ep, call, ep.method)
