"""Deletes the document says take other records with them: "A user can delete their account,
which will cascade delete their projects, issues, and comments", "Deleting a board also
deletes its cards". The delete its section defines gets the records' nouns (`cascades`).
Pure: text in, endpoints updated in place.
"""

from __future__ import annotations

import re

from pipeline.records import Endpoint
from pipeline.spec.access_rules import SENTENCE, paragraphs, sections
from pipeline.spec.paths import singular

_CASCADE = re.compile(
    r"\bdelet\w*\b[^.]{0,80}?\b(?:cascade\s+delet\w*|(?:also|will)\s+(?:delet|remov)\w*)"
    r"\s+(?:all\s+(?:of\s+)?)?(?:their|its|his|her|your|the\s+user'?s)\s+"
    r"(?P<things>[A-Za-z][\w ,]*)", re.I)
_THING = re.compile(r"[A-Za-z]\w*")


def apply_cascade_rules(endpoints: list[Endpoint], markdown_text: str) -> None:
    lines = markdown_text.splitlines()
    heads = sections(lines)
    for number, paragraph in paragraphs(lines):
        for sentence in SENTENCE.findall(paragraph):
            m = _CASCADE.search(sentence)
            inside = [s for s in heads if s[1] <= number <= s[2]] if m else []
            if m is None or not inside:
                continue
            _, start, end = max(inside, key=lambda s: s[1])  # the nearest heading above
            things = [singular(t.lower()) for t in _THING.findall(m.group("things"))
                      if t.lower() not in ("and", "or", "all", "their", "its")]
            for ep in endpoints:
                if ep.method == "DELETE" and "{" in ep.path and start <= ep.line <= end:
                    ep.cascades = list(dict.fromkeys(ep.cascades + things))
