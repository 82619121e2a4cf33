"""A document-wide sentence on how searching works, applied to the search parameters.

"**Search** — filter by name, description, or URL (case-insensitive)" stands in a feature
list, not beside the `search` parameter of the list it describes; the parameter's description
then carries "(case-insensitive)", so a test can search in another letter case. Pure: text
in, endpoints updated in place.
"""

from __future__ import annotations

import re

from pipeline.records import Endpoint

_RULE = re.compile(r"\b(?:search\w*|filter\w*|look\s*up)\b[^\n]{0,120}?case[- ]insensitive"
                   r"|case[- ]insensitive[^\n]{0,40}?\bsearch", re.I)
_SEARCH_NAMES = ("search", "q", "query", "keyword", "keywords", "term")
_STATED = re.compile(r"case[- ](?:in)?sensitive", re.I)


def apply_search_rule(endpoints: list[Endpoint], markdown_text: str) -> None:
    if _RULE.search(markdown_text) is None:
        return
    for ep in endpoints:
        for param in ep.params:
            if ep.method == "GET" and param.location == "query" \
                    and param.name.lower() in _SEARCH_NAMES and not _STATED.search(
                        param.description):
                param.description = f"{param.description} (case-insensitive)".strip()
