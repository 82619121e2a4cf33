"""Share of endpoints with a documented response body for which `spec --full` finds one.

    .venv/bin/python bench/spec_details.py README.md [README.md ...] [-v]

The judge is independent of the extractor: it cuts the raw text at every line that names
an endpoint ("POST /api/v1/posts", "`GET /tasks/{id}`") and says an endpoint documents a
response body when its part holds a JSON fence whose nearest label line above speaks of a
response ("Output Schema", "Response", "Returns", "返回", "响应", "输出"); a part that starts
on a request line inside a fence ("GET /health HTTP/1.1") takes that fence as the request,
not as a body. Endpoints a document names only as "Method: GET" + "Path: `/x`" fields, or
whose bodies sit in prose bullets, are not counted (the judge undercounts, never overcounts).
The extractor
finds it when the endpoint's spec has a response example or schema (any 2xx example counts).
No asserts: it prints one line per document and the total.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.records import Endpoint  # noqa: E402
from pipeline.spec import load_spec  # noqa: E402

_NAMES = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE)\b[`*\s]+(/[^\s`*|)]*)")
_RESPONSE = re.compile(r"respon|output|returns?\b|result|返回|响应|输出|出参", re.I)
_REQUEST = re.compile(r"request|input|body|payload|请求|输入|入参", re.I)
_FENCE = re.compile(r"^\s*(```|~~~)")


def _norm(path: str) -> str:
    path = path.split("?")[0].rstrip("/") or "/"
    path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", path)
    return re.sub(r"(?<=/):(\w+)", r"{\1}", path)


def documented(text: str) -> list[tuple[str, str]]:
    """(method, path) of the endpoints whose part of the text holds a response JSON fence."""
    out: list[tuple[str, str]] = []
    for key, started_in_fence, body in _parts(text):
        if key is None or key in out:
            continue
        if _has_response_fence(body[1:], started_in_fence):
            out.append(key)
    return out


def _parts(text: str) -> list[tuple[tuple[str, str] | None, bool, list[str]]]:
    """The text cut at each line naming an endpoint: (endpoint, whether that line is inside
    a fence, the part's lines from that one on); the first part is the preamble."""
    parts: list[tuple[tuple[str, str] | None, bool, list[str]]] = [(None, False, [])]
    in_fence = False
    for ln in text.split("\n"):
        if _FENCE.match(ln):
            in_fence = not in_fence
        # inside a fence only a request line ("GET /spots?level=1") names an endpoint
        m = _NAMES.match(ln.strip()) if in_fence else _NAMES.search(ln)
        if m:
            parts.append(((m.group(1), _norm(m.group(2))), in_fence, []))
        parts[-1][2].append(ln)
    return parts


def _has_response_fence(lines: list[str], started_in_fence: bool) -> bool:
    """Whether a JSON fence in `lines` sits under a label line that speaks of a response."""
    # a part that starts on a request line inside a fence: that fence is the request
    label = "request" if started_in_fence else ""
    fence: list[str] | None = [] if started_in_fence else None
    for ln in lines:
        if _FENCE.match(ln):
            if fence is None:
                fence = []
                continue
            first = "".join(fence).strip()
            if first[:1] in "{[" and _RESPONSE.search(label) and not (
                    _REQUEST.search(label) and not _RESPONSE.search(label)):
                return True
            fence = None
            continue
        if fence is not None:
            fence.append(ln)
        elif ln.strip():
            label = ln
    return False


def found(ep: Endpoint) -> bool:
    ok = any(200 <= c < 300 for c in ep.response_examples)
    return ok or ep.response_example is not None or bool(ep.response_schema)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("readmes", nargs="+", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true", help="name the misses")
    args = parser.parse_args()
    total = hits = 0
    for readme in args.readmes:
        text = readme.read_text(encoding="utf-8", errors="replace")
        eps = load_spec(readme).endpoints
        want = documented(text)
        misses = []
        for method, path in want:
            match = [e for e in eps if e.method == method and _norm(e.path).endswith(path)]
            if match and found(match[0]):
                hits += 1
            else:
                misses.append(f"{method} {path}" + ("" if match else " (endpoint not found)"))
            total += 1
        share = (len(want) - len(misses)) / len(want) if want else 1.0
        print(f"{readme}: {len(want) - len(misses)}/{len(want)} ({share:.0%})")
        if args.verbose:
            for miss in misses:
                print(f"    missed {miss}")
    print(f"total: {hits}/{total} endpoints with a documented response body"
          f" ({hits / total if total else 1:.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
