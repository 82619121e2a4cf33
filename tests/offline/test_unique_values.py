"""Unique values shaped like the document's: a digit string the document starts with a
non-zero digit never gets a leading zero (a service may keep ids as numbers, and `"0712"`
comes back as `712`); one the document starts with `0` keeps it."""

from __future__ import annotations

from pipeline.records import Spec
from pipeline.suites import conftest_source


def test_digit_strings_keep_their_leading_digit_kind() -> None:
    space: dict = {}
    exec(compile(conftest_source(Spec(), 8000), "conftest.py", "exec"), space)  # noqa: S102
    unique_like = space["unique_like"]
    drawn = [unique_like("4829173650") for _ in range(300)]
    assert all(v.isdigit() and len(v) == 10 and v[0] != "0" for v in drawn), drawn
    assert len(set(drawn)) == 300
    assert {unique_like("0712345")[0] for _ in range(50)} == {"0"}
