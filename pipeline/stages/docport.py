"""The port a requirement document states, if it states one (pure).

`collect` used to write the framework's default port although the README named another, and
nothing noticed when task.toml and the README disagreed. READMEs say it in many ways: "port
`8108`", "| Port | `8104` |", "端口 | `8105`", "0.0.0.0:8107", "localhost:8101",
"--port 8082"; every mention counts and the most frequent port wins (the first on a tie).
"""

from __future__ import annotations

import re
from collections import Counter

_PATTERNS = (
    # host:port in an address or URL
    re.compile(r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\])\s*:\s*(\d{2,5})\b"),
    # "port", "--port", "PORT=", "端口" followed closely by a number (no digits between)
    re.compile(r"(?:\bport\b|端口)[^\d\n]{0,24}?(\d{2,5})\b", re.IGNORECASE),
)


def port_mentions(text: str) -> list[int]:
    """Every port the document names, in order of appearance (1024..65535 only)."""
    found: list[tuple[int, int]] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            port = int(m.group(1))
            if 1024 <= port <= 65535:
                found.append((m.start(1), port))
    seen: set[int] = set()
    out = []
    for pos, port in sorted(found):
        if pos not in seen:  # one number matched by both patterns counts once
            seen.add(pos)
            out.append(port)
    return out


def stated_port(text: str) -> int | None:
    """The port the document states (most mentioned, first on a tie), None if none."""
    mentions = port_mentions(text)
    if not mentions:
        return None
    counts = Counter(mentions)
    best = max(counts.values())
    return next(p for p in mentions if counts[p] == best)
