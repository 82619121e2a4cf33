"""Document-level facts: title, language, port, base path, auth scheme, error format."""

from __future__ import annotations

import json
import re
from typing import Any

from pipeline.records import AuthSpec
from pipeline.spec.curl import parse_curls
from pipeline.spec.leaks import leak_reason
from pipeline.spec.markdown import Block, plain, plain_lines
from pipeline.spec.paths import HOST, PATH, normalise_base

_URL_OR_PATH = re.compile(rf"(?:{HOST}(?:{PATH})?|(?<![\w.])/[A-Za-z0-9_.\-{{}}/]+)")
_BASE_KEY = re.compile(
    r"\bbase[\s_-]*(?:url|uri|path|endpoint|address|route)\b|\bapi[\s_-]*(?:base|root|prefix)\b"
    r"|\broot\s+(?:url|path)\b|\bserver\s+url\b|\bservice\s+url\b"
    r"|基础\s*(?:路径|地址|URL|url)|根\s*(?:路径|地址)|(?:接口|统一|路由|请求|全局)\s*前缀"
    r"|服务地址|访问地址|基础前缀|^\s*前缀",
    re.I,
)
_BASE_PHRASE = re.compile(
    r"(?:prefixed\s+(?:with|by)|(?:with|under)\s+(?:the\s+)?prefix|relative\s+to"
    r"|(?:served|mounted|available|located|rooted|hosted|live|lives|grouped|nested)\s+"
    r"(?:under|at|below|beneath)|(?:start|begin)s?\s+with)\s+[`'\"]?(?P<v>\S+)",
    re.I,
)
_BASE_ZH = re.compile(r"以\s*[`'\"]?(?P<v>/[\w./{}-]*)[`'\"]?\s*(?:为前缀|开头|作为前缀)"
                      r"|前缀(?:为|是|均为|统一为)\s*[`'\"]?(?P<w>/[\w./{}-]*)")
_PORT = re.compile(
    r"\bport\b\s*(?:number\s*)?(?:[:：=|]|is|of|to)?\s*[`'\"*]*\s*(?P<p>\d{2,5})\b"
    r"|端口(?:号)?\s*(?:[:：=|]|为|是|号为)?\s*[`'\"*]*\s*(?P<q>\d{2,5})"
    r"|\b(?:listen(?:s|ing)?|runs?|running|served|serves|available)\s+on\s+"
    r"(?:port\s+)?:?(?P<r>\d{4,5})\b",
    re.I,
)
_HOST_PORT = re.compile(r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{2,5})")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_WORD = re.compile(r"[A-Za-z]{2,}")


def doc_text_lines(blocks: list[Block]) -> list[str]:
    """Plain lines of prose, headings and table rows (code excluded)."""
    out: list[str] = []
    for b in blocks:
        if b.kind in ("heading", "text"):
            out.extend(plain_lines(b.text))
        elif b.kind == "table":
            out.extend(" | ".join(plain(c).strip() for c in row) for row in b.rows)
    return out


def title(blocks: list[Block]) -> str:
    heads = [b for b in blocks if b.kind == "heading"]
    if not heads:
        return ""
    top = min(heads, key=lambda b: (b.level, b.line))
    return plain(top.text).strip()


def language(blocks: list[Block]) -> str:
    text = "\n".join(doc_text_lines(blocks))
    cjk = len(_CJK.findall(text))
    words = len(_WORD.findall(text))
    return "zh" if cjk >= 10 and cjk / 2 >= words else "en"


def _port_of(text: str) -> int | None:
    m = _PORT.search(text)
    if m:
        value = int(m.group("p") or m.group("q") or m.group("r"))
        if 1 <= value <= 65535:
            return value
    return None


def port(blocks: list[Block]) -> int | None:
    lines = doc_text_lines(blocks)
    for ln in lines:
        p = _port_of(ln)
        if p is not None:
            return p
    everything = "\n".join(lines + [b.text for b in blocks if b.kind == "code"])
    m = _HOST_PORT.search(everything)
    return int(m.group(1)) if m else None


_SUBJECT = re.compile(
    r"\b(?:endpoints?|paths?|routes?|urls?|uris?|apis?|requests?|resources?|operations?"
    r"|interfaces?)\b",
    re.I,
)


def _base_from(text: str) -> str | None:
    m = _BASE_PHRASE.search(text)
    if m and ("prefix" in m.group(0).lower() or _SUBJECT.search(text[: m.start()])):
        v = _URL_OR_PATH.match(m.group("v").strip("`'\"*"))
        if v:
            return normalise_base(v.group(0))
    m = _BASE_ZH.search(text)
    if m:
        return normalise_base(m.group("v") or m.group("w"))
    key = _BASE_KEY.search(text)
    if key:
        v = _URL_OR_PATH.search(text, key.end())
        if v:
            return normalise_base(v.group(0))
    return None


def base_path(blocks: list[Block]) -> str:
    """The base path the document says relative paths hang under ('' when none)."""
    pending = False
    for b in blocks:
        if b.kind == "heading":
            pending = bool(_BASE_KEY.search(plain(b.text))) and _base_from(plain(b.text)) is None
            found = _base_from(plain(b.text))
            if found is not None:
                return found
            continue
        found = _base_in_lines(_block_lines(b), pending, code=b.kind == "code")
        if found is not None:
            return found
    return ""


def _block_lines(b: Block) -> list[str]:
    """A non-heading block's lines as the base path is looked for in them (none from code
    that leaks the solution)."""
    if b.kind == "code":
        if leak_reason(b) is not None:
            return []
        return [ln.strip() for ln in b.text.split("\n") if ln.strip()]
    if b.kind == "table":
        return [" : ".join(plain(c).strip() for c in row) for row in b.rows]
    return plain_lines(b.text)


def _base_in_lines(lines: list[str], pending: bool, code: bool) -> str | None:
    """`pending`: a heading named the base path without giving it, so a bare path or URL
    under it is the value; in code only a line that names the base path counts."""
    for ln in lines:
        if pending:
            v = _URL_OR_PATH.match(ln.strip("`'\" "))
            if v:
                return normalise_base(v.group(0))
        if not code or _BASE_KEY.search(ln):
            found = _base_from(ln)
            if found is not None:
                return found
    return None


_BEARER = re.compile(r"\bbearer\b|\bJWT\b", re.I)
_API_KEY_HEADER = re.compile(r"\b(X-[A-Za-z0-9-]*(?:Key|Token|Auth)[A-Za-z0-9-]*)\b", re.I)
# a header named like a credential in a sentence about headers (`api-token`, `auth-key`)
_NAMED_HEADER = re.compile(
    r"(?<![\w-])([A-Za-z][A-Za-z0-9]*-(?:[A-Za-z0-9]+-)*(?:token|key))(?![\w-])", re.I)
_BASIC = re.compile(r"\bbasic\s+auth|\bAuthorization:\s*Basic\b|\bHTTP\s+Basic\b", re.I)
_TOKEN_SCHEME = re.compile(r"Authorization:\s*Token\b")
_DIGEST = re.compile(r"\bdigest\s+auth|\bHTTP\s+Digest\b|Authorization:\s*Digest\b", re.I)
_AUTH_WORDS = re.compile(
    r"\bauthenticat|\bauthoriz|\bbearer\b|\bapi[\s_-]?key\b|\baccess[\s_-]token\b|\bJWT\b"
    r"|\blog\s?in\b|认证|鉴权|令牌|授权|登录|token",
    re.I,
)
# a token's value in a documented answer (`"token": "eyJhbGci..."`)
_TOKEN_VALUE = re.compile(r'"\w*token\w*"\s*:\s*"([^"\s]{16,})"', re.I)
_LOGIN_WORD = re.compile(r"log-?in|sign-?in|/token\b|登录", re.I)
_LOGIN_PATH = re.compile(r"log-?in|sign-?in|/token\b|/auth(?:enticate)?\b|/sessions?\b|登录", re.I)


def auth(blocks: list[Block], endpoints: list[tuple[str, str]]) -> AuthSpec | None:
    """The auth scheme, header and login endpoint, when the document describes auth."""
    lines = doc_text_lines(blocks)
    code = [b.text for b in blocks if b.kind == "code" and leak_reason(b) is None]
    everything = "\n".join(lines + code)
    if not _AUTH_WORDS.search(everything):
        return None
    header = "Authorization"
    m = _API_KEY_HEADER.search(everything)
    calls = [c for text in code for c in parse_curls(text.split("\n"))]
    scheme = _scheme(everything, calls, key_header=m is not None)
    named = next((h.group(1) for ln in lines if re.search(r"\bheaders?\b", ln, re.I)
                  for h in [_NAMED_HEADER.search(ln)] if h), None)
    if not scheme and named:  # "In request header, we need api-token"
        scheme = "api-key"
    if scheme == "api-key" and (m or named):
        header = m.group(1) if m else str(named)
    login = _login(endpoints)
    if not scheme and login is None:
        return None
    sentence = next((ln for ln in lines if _AUTH_WORDS.search(ln) and len(ln) > 20), "")
    tokens = set(_TOKEN_VALUE.findall(everything))
    users = {c.user.split(":", 1)[0] for c in calls if c.user}
    return AuthSpec(
        scheme=scheme or "token",
        header=header,
        login_method=login[0] if login else None,
        login_path=login[1] if login else None,
        description=sentence[:300],
        token_as_user=scheme == "basic" and bool(tokens & users),
        account=default_account(blocks) if scheme in ("basic", "digest") else None,
        name_key=_identifier_name(lines) if scheme == "basic" else None,
        bearer_too=scheme == "basic" and _BEARER.search(everything) is not None,
    )


# the scheme a document names, the first that matches winning (Bearer over a Basic mention)
_SCHEME_WORDS = ((_BEARER, "bearer"), (_DIGEST, "digest"), (_BASIC, "basic"),
                 (_TOKEN_SCHEME, "token"))


def _scheme(everything: str, calls: list, key_header: bool) -> str:
    """The scheme ('' when none is named); the calls' `-u` credentials outweigh words."""
    if _basic_calls(calls):
        return "basic"
    for rule, scheme in _SCHEME_WORDS:
        if rule.search(everything):
            return scheme
    if key_header or re.search(r"\bapi[\s_-]?key\b", everything, re.I):
        return "api-key"
    return ""


def _login(endpoints: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The POST endpoint one logs in at; "/auth/login" before "/auth/register": the path that
    names logging in wins."""
    posts = [(mth, p) for mth, p in endpoints if mth == "POST" and _LOGIN_PATH.search(p)]
    return next((e for e in posts if _LOGIN_WORD.search(e[1])), posts[0] if posts else None)


# "basic HTTP authentication with the project ID and private code"
_BASIC_WITH_ID = re.compile(r"\bbasic\b\W*(?:\s+\w+){0,4}\s+with\s+(?:the|its|your)\s+"
                            r"(?:\w+\s+)?(?:ID|identifier)\b", re.I)


def _identifier_name(lines: list[str]) -> str | None:
    """`id` where the document says the Basic name is a record's identifier."""
    text = " ".join(lines)
    return "id" if _BASIC_WITH_ID.search(text) else None


def _basic_calls(calls: list) -> bool:
    """Most of the documented calls that carry credentials send them as `-u name:password`
    (HTTP Basic), though a token may be mentioned too (one issued to Basic credentials)."""
    basic = sum(1 for c in calls if c.user and ":" in c.user)
    other = sum(1 for c in calls if not c.user and any(
        re.match(r"\s*authorization\s*:", h, re.I) for h in c.headers))
    return basic >= 2 and basic > 2 * other


_NAME_CELL = re.compile(r"(?:\w+_)?(?:user(?:name)?|login)", re.I)
_PASSWORD_CELL = re.compile(r"(?:\w+_)?pass(?:word)?", re.I)
_QUOTED = re.compile(r"""[`'"]([^`'"\s]{1,64})[`'"]""")


def default_account(blocks: list[Block]) -> tuple[str, str] | None:
    """The name and password a configuration table gives by default (`USERNAME | 'admin'`,
    `PASSWORD | hash of 'test'`): the account a service without sign-up answers to."""
    found: dict[str, str] = {}
    for block in blocks:
        for row in block.rows[1:] if block.kind == "table" else ():
            cells = [plain(c).strip() for c in row]
            if not cells:
                continue
            value = next((m.group(1) for c in cells[1:] if (m := _QUOTED.search(c))), None)
            for role, rule in (("name", _NAME_CELL), ("password", _PASSWORD_CELL)):
                if value is not None and rule.fullmatch(cells[0]):
                    found.setdefault(role, value)
    if "name" in found and "password" in found:
        return found["name"], found["password"]
    return None


_NEGOTIATED = re.compile(r"\bAccept:?\W{0,3}\s+(?:HTTP\s+|request\s+)?header", re.I)


def accept(blocks: list[Block]) -> str | None:
    """`application/json` where the document says the `Accept` header picks between JSON and
    another representation ("controlled by the ``Accept:`` HTTP header")."""
    text = " ".join(doc_text_lines(blocks))
    for m in _NEGOTIATED.finditer(text):
        if re.search(r"application/json|\bJSON\b", text[max(0, m.start() - 300):m.end() + 300]):
            return "application/json"
    return None


_REQUIRED_CHECKED = re.compile(
    r"\bvalidat\w*\s+(?:of|for|on)\s+(?:all\s+|the\s+)?required\s+(?:fields|parameters|attributes)"
    r"|\brequired\s+(?:fields|parameters|attributes)\s+(?:are|is)\s+(?:validated|checked|enforced)",
    re.I)


def validates_required(blocks: list[Block]) -> str:
    """The sentence saying the service checks required fields, where the document says so
    for the service as a whole ("Basic validation for required fields")."""
    for line in doc_text_lines(blocks):
        if _REQUIRED_CHECKED.search(line):
            return line.strip()
    return ""


_ERROR_LABEL = re.compile(r"\berror|\bfailure|\bexception|错误|异常|失败", re.I)


def error_format(blocks: list[Block]) -> Any:
    """The first JSON block under a heading or label that talks about errors."""
    label = ""
    for b in blocks:
        if b.kind in ("heading", "text"):
            label = plain(b.text)
            continue
        if b.kind != "code" or not _ERROR_LABEL.search(label):
            continue
        s = b.text.strip()
        if s.startswith(("{", "[")):
            try:
                return json.loads(s)
            except ValueError:
                return s
    return None
