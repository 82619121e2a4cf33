"""Rules in prose that keep a record to its author: "Only the author of the comment can make
PUT, PATCH, and DELETE requests", "To access, modify, or delete an issue (only author)", "you
won't have access to the details of projects that are not authored by you".

Each such sentence marks the endpoints it speaks of `owner_only`: those its section (the
heading it stands under, with the sections below that heading) defines, narrowed to the
methods its verbs name; a sentence about a record's "details" speaks of the read of one record
of the collection its section lists. Pure: text in, endpoints updated in place.
"""

from __future__ import annotations

import re

from pipeline.records import Endpoint

_RULE = re.compile(
    r"\bonly\s+(?:the\s+)?(?:author|owner|creator)s?\b|\((?:only\s+)?(?:author|owner)s?\s+only\)"
    r"|\(only\s+(?:the\s+)?(?:author|owner)\)|not\s+(?:authored|owned|created)\s+by\s+you"
    r"|\bonly\s+(?:the\s+)?(?:user|person)\s+who\s+created\b", re.I)
_HEADING = re.compile(r"^(#{1,6})\s")
SENTENCE = re.compile(r"[^.!?]*(?:[.!?](?=\s|$)|$)")
_VERBS = {
    "GET": re.compile(r"\b(?:access|view|see|read|details?|get)\b", re.I),
    "PUT": re.compile(r"\b(?:modif\w*|updat\w*|edit\w*|change\w*|manage\w*|put)\b", re.I),
    "PATCH": re.compile(r"\b(?:modif\w*|updat\w*|edit\w*|change\w*|manage\w*|patch)\b", re.I),
    "DELETE": re.compile(r"\b(?:delet\w*|remov\w*|manage\w*)\b", re.I),
    "POST": re.compile(r"\b(?:creat\w*|add\w*|post)\b", re.I),
}
_DETAILS = re.compile(r"\bdetails?\b", re.I)


def sections(lines: list[str]) -> list[tuple[int, int, int]]:
    """(level, first line, last line) of every heading's section, 1-based, sub-sections in."""
    heads = [(i + 1, len(m.group(1))) for i, line in enumerate(lines)
             if (m := _HEADING.match(line))]
    out = []
    for n, (start, level) in enumerate(heads):
        end = next((s - 1 for s, lv in heads[n + 1:] if lv <= level), len(lines))
        out.append((level, start, end))
    return out


def paragraphs(lines: list[str]) -> list[tuple[int, str]]:
    """(1-based first line, text joined) of each run of non-blank lines that are no heading."""
    out: list[tuple[int, str]] = []
    start, text = 0, []
    for number, line in enumerate([*lines, ""], start=1):
        if line.strip() and not _HEADING.match(line):
            start = start or number
            text.append(line.strip())
        elif text:
            out.append((start, " ".join(text)))
            start, text = 0, []
    return out


def _methods(sentence: str) -> set[str]:
    named = {m for m, verb in _VERBS.items() if verb.search(sentence)}
    if _RULE.search(sentence) and re.search(r"\bnot\s+(?:authored|owned|created)", sentence):
        named -= {"POST"}  # "projects not authored by you": what exists, not what you make
    return named or {"GET", "PUT", "PATCH", "DELETE"}


def apply_owner_rules(endpoints: list[Endpoint], markdown_text: str) -> None:
    lines = markdown_text.splitlines()
    heads = sections(lines)
    for number, paragraph in paragraphs(lines):
        for sentence in SENTENCE.findall(paragraph):
            if not _RULE.search(sentence):
                continue
            inside = [s for s in heads if s[1] <= number <= s[2]]
            if not inside:
                continue
            _, start, end = max(inside, key=lambda s: s[1])  # the nearest heading above
            methods = _methods(sentence)
            mine = [e for e in endpoints if start <= e.line <= end]
            if _DETAILS.search(sentence):
                lists = {e.path.rstrip("/") for e in mine if e.method == "GET"}
                mine += [e for e in endpoints if e.method == "GET" and "{" in e.path
                         and re.sub(r"/\{[^{}/]+\}/?$", "", e.path) in lists]
            for new in _named_calls(sentence, mine, number):  # beside the record's calls
                at = max(i for i, e in enumerate(endpoints) if e.path == new.path)
                endpoints.insert(at + 1, new)
            mine = [e for e in endpoints if start <= e.line <= end] + mine
            for ep in mine:  # a record's calls: a list or a create of one's own is no rule
                if ep.method in methods and "{" in ep.path:
                    ep.owner_only = True


_NAMED = re.compile(r"\b(PUT|PATCH|DELETE)\b")


def _named_calls(sentence: str, mine: list[Endpoint], line: int) -> list[Endpoint]:
    """Calls the rule names by method on the one record its section defines, where the
    section lists no such call ("Only the author of the comment can make PUT, PATCH, and
    DELETE requests" under the comment's read): they exist, kept to the author."""
    items = {e.path for e in mine if "{" in e.path}
    if len(items) != 1:
        return []
    path = items.pop()
    read = next((e for e in mine if e.path == path and e.method == "GET"), None)
    have = {e.method for e in mine if e.path == path}
    return [Endpoint(method=m, path=path, line=line, summary=sentence.strip(),
                     auth_required=read.auth_required if read is not None else None)
            for m in dict.fromkeys(_NAMED.findall(sentence)) if m not in have]
