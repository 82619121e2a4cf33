"""A document-wide sentence that some fields of a record must not repeat, applied to the
create's parameters.

"Input validation — duplicate URL detection", "Create Events with unique name, location, start
time and end time", "Duplicate Event Validation", "the email must be unique": said in a
feature list or in prose, not beside the create. Each such sentence marks the body parameters
it names (`x-unique`, an OpenAPI-style extension: JSON Schema has no keyword for a value that
must differ from the stored records') on the create of the collection it speaks of; a
sentence that names the record but no field ("duplicate event validation") marks all of its
create's fields: the same record twice is the duplicate. Pure: text in, endpoints updated in
place.
"""

from __future__ import annotations

import re

from pipeline.records import Endpoint

UNIQUE_KEY = "x-unique"
_LINE = re.compile(r"[^\n]*\b(?:unique|duplicate|no\s+two)\b[^\n]*", re.I)
_NOT_RULE = re.compile(r"\bunique\s+(?:id|identifier|key)s?\b|\bgenerates?\b|\bassign", re.I)


def _words(name: str) -> str:
    """`start_time` / `startTime` as it is written in prose: "start time"."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ")
    return spaced.lower()


def _noun(path: str) -> str:
    segs = [s for s in path.strip("/").split("/") if s and not s.startswith("{")]
    word = segs[-1].lower() if segs else ""
    return word[:-1] if word.endswith("s") else word


def apply_unique_rules(endpoints: list[Endpoint], markdown_text: str) -> None:
    creates = [ep for ep in endpoints if ep.method == "POST" and "{" not in ep.path
               and any(p.location == "body" for p in ep.params)]
    for line in _LINE.findall(markdown_text):
        if _NOT_RULE.search(line) or "|" in line:  # a table row describes its own column
            continue
        text = line.lower()
        for ep in creates:
            body = [p for p in ep.params if p.location == "body"]
            named = [p for p in body if re.search(rf"\b{re.escape(_words(p.name))}\b", text)]
            noun = _noun(ep.path)
            about = bool(noun) and re.search(rf"\b{re.escape(noun)}s?\b", text) is not None
            if named and (about or len(creates) == 1):
                marked = named
            elif about and re.search(r"\bduplicate\s+\w+\s+(?:validation|detection|check)",
                                     text):
                marked = body
            else:
                continue
            for param in marked:
                param.constraints.setdefault(UNIQUE_KEY, True)
