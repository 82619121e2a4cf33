"""Per-endpoint auth lines of the published styles, English and Chinese."""

from __future__ import annotations

import pytest

from pipeline.spec.markdown import plain
from pipeline.spec.schema import auth_marker


@pytest.mark.parametrize(("line", "want"), [
    ("- **Input Schema**: None (Headers: `Authorization: Bearer <token>`)", True),
    ("- **Input Schema**: (Headers: `Authorization: Token <key>`)", True),
    ("- **认证**: Bearer Token 必填", True),
    ("- **认证**：必需", True),
    ("- **认证**: 可选", False),
    ("- **鉴权**：否", False),
    ("- **Authentication**: Optional", False),
    # a sentence that merely names the header sets nothing
    ("The response echoes the Authorization scheme it was given.", None),
    ("- **认证方式说明**: 见下文", None),
])
def test_auth_marker(line: str, want: bool | None) -> None:
    assert auth_marker(plain(line)) is want
