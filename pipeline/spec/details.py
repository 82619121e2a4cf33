"""Per-endpoint details read from the endpoint's own part of the document.

The part of the document an endpoint owns: from its mention to the next mention of a
different endpoint, never past the end of the section (heading) it was mentioned in.
Code blocks there are request or response bodies depending on the label just above
them ("Request body", "Response (201)", "返回示例"); field tables become parameters and
schemas; status codes come from lines such as "`404 Not Found` - no such item".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from pipeline.records import Endpoint, Param
from pipeline.spec.bullets import bullet_params
from pipeline.spec.curl import Curl, answer_json, needs_file, parse_curls, parse_httpie
from pipeline.spec.inline import (
    backticked_codes,
    bare_json_spans,
    default_required,
    joined,
    json_spans,
    keys_of,
    prose_params,
)
from pipeline.spec.leaks import leak_reason
from pipeline.spec.markdown import Block, plain, plain_lines
from pipeline.spec.schema import auth_marker, field_table, parse_json

_PHRASES = {s.value: s.phrase for s in HTTPStatus}
_RESP = re.compile(r"respon|return(?:s|ed)?\b|output|result|success|reply|example\s+response|"
                   r"返回|响应|出参|结果|成功", re.I)
_ERR = re.compile(r"\berror|\bfail|invalid|not\s+found|错误|失败|异常", re.I)
_REQ = re.compile(r"request|body|payload|input|param|received\b|请求|入参|参数|提交", re.I)
_CODE_NUM = re.compile(r"(?<![\w.$/=-])([1-5]\d{2})(?![\w%/-]|\.\d)")
_STATUS_BEFORE = re.compile(
    r"(?:status|code|http|状态码?|响应码|返回码|错误码|返回|响应)\W{0,6}$"
    r"|(?:respond|return|fail|answer)s?\s+(?:with\s+)?(?:an?\s+)?(?:http\s+)?\W{0,3}$",
    re.I,
)
_STATUS_LINE = re.compile(r"status|\bcodes?\b|respon|\bhttp\b|状态|响应|错误码"
                          r"|^\W*(?:errors?|failures?|错误|异常)\s*[:：]", re.I)
_ZH_CLAUSE_TAIL = re.compile(r"(?:时|则|会|将)?(?:返回|响应|状态码|为|是)?\W*$")
_PARAM_LABEL = re.compile(
    r"param|query|path|body|field|header|argument|\binput\b|参数|字段|请求头|输入", re.I)
_BODY_METHODS = ("POST", "PUT", "PATCH")
_LOWERED = re.compile(r"\b(ID|identifier|slug|username|login|handle)\b[^.]{0,60}?\bnormali[sz]ed\b"
                      r"[^.]{0,80}?\blower[- ]?case", re.I)
_RESPONSE_LINE = re.compile(r"^\W*(?:output|response|returns?|输出|响应|返回)\b[^:：]{0,30}[:：]",
                            re.I)


@dataclass
class Details:
    summary: str = ""
    params: list[Param] = field(default_factory=list)
    request_schema: dict[str, Any] | None = None
    request_example: Any = None
    request_form: bool = False
    request_files: dict[str, str] = field(default_factory=dict)  # a multipart form's files
    response_schema: dict[str, Any] | None = None
    response_example: Any = None
    response_examples: dict[int, Any] = field(default_factory=dict)
    status_codes: dict[int, str] = field(default_factory=dict)
    auth_required: bool | None = None
    rate_limit: str = ""
    same_as: dict[str, str] = field(default_factory=dict)  # role -> "create article"
    location_header: bool = False


_SAME_AS = re.compile(r"(?P<label>[^:：]{1,40})[:：]\s*(?:the\s+)?same\s+as\s+(?:the\s+|for\s+)?"
                      r"(?P<ref>[^.;。，,]{2,60})|(?P<zlabel>[^:：]{1,20})[:：]\s*同(?P<zref>[^。，,]{2,30})",
                      re.I)


def same_as_in(line: str) -> tuple[str, str] | None:
    """'Input Schema: Same as create article' → ('request', 'create article')."""
    m = _SAME_AS.search(line)
    if not m:
        return None
    label = m.group("label") or m.group("zlabel") or ""
    role = _role(label)
    ref = (m.group("ref") or m.group("zref") or "").strip(" `*")
    return (role, ref) if role and ref else None


_RATE = re.compile(r"rate[\s-]*limit(?:s|ed|ing)?\s*[:：]\s*(?P<a>.+)"
                   r"|(?P<b>\b\d+\s+(?:requests?|calls?)\s+(?:per|a|an|every|/)\s*\w+.*)"
                   r"|(?:限流|频率限制|调用频率|访问频率)\s*[:：]?\s*(?P<c>.+)", re.I)


def rate_limit_in(line: str) -> str:
    """'Rate limit: 10 requests per minute' → '10 requests per minute' ('' when none)."""
    m = _RATE.search(line)
    if not m:
        return ""
    return (m.group("a") or m.group("b") or m.group("c") or "").strip(" .。;；*`")[:120]


def status_codes_in(line: str, table_status: bool = False,
                    forced: set[int] | frozenset[int] = frozenset()) -> dict[int, str]:
    """Status codes a line documents, with their meaning (`forced`: codes known to be ones)."""
    found: dict[int, str] = {}
    for m in _CODE_NUM.finditer(line):
        code = int(m.group(1))
        if code not in _PHRASES:
            continue
        after = line[m.end():].strip(" `*)]:：-–—=→|\t")
        phrase = _PHRASES[code]
        before = line[: m.start()]
        starts = not re.sub(r"^[\s\-*+|#`(\[]*(?:\d+[.)]\s*)?", "", before)
        keyword_line = code >= 200 and (
            _STATUS_LINE.search(line) is not None
            or re.match(r"\s*[`*]*\s*(?:with|if|when|on|for|and|\(|—|–|-|:|=)", line[m.end():])
            is not None
        )
        if not (after.lower().startswith(phrase.lower()) or starts or table_status
                or keyword_line or _STATUS_BEFORE.search(before) or code in forced):
            continue
        clause = re.split(r"[，。；,;、\n]", before)[-1].strip()
        if re.search(r"[\u4e00-\u9fff]", clause) and not re.match(r"\w", after):
            meaning = _ZH_CLAUSE_TAIL.sub("", clause)
            if not _clean_meaning(meaning) and re.match(r"\s*[，,]", line[m.end():]):
                # "响应 `200`，返回笔记。": the meaning follows
                meaning = re.split(r"[，。；,;（(]", line[m.end():].lstrip(" `，,"))[0]
        else:
            meaning = re.split(r"(?<=[.;。；])\s|[，。；]|(?=\s[1-5]\d{2}\b)", after, maxsplit=1)[0]
        found.setdefault(code, _clean_meaning(meaning) or phrase)
    return found


def _clean_meaning(meaning: str) -> str:
    meaning = re.sub(r"^(?:(?:and|:|—|–|-)\s+)+", "", meaning.strip(" .;,`*|"))
    if re.match(r"(?:with\s+|and\s+)?[{\[]", meaning) or re.fullmatch(
            r"(?:errors?|responses?|returns?|with|and|错误|响应|返回|成功返回)\W*", meaning, re.I):
        return ""
    return meaning.strip(" .;,`*|")[:120]


def _sentences(raw: str) -> list[str]:
    """A paragraph as sentences (soft line breaks joined)."""
    text = plain(joined(raw))
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9(])|(?<=[。！？])", text) if s.strip()]


def _role(label: str) -> str | None:
    if _RESP.search(label) or _ERR.search(label):
        return "response"
    if _REQ.search(label):
        return "request"
    return None


def _label_status(label: str) -> int | None:
    codes = status_codes_in(label) or {
        int(c): "" for c in _CODE_NUM.findall(label) if int(c) in _PHRASES
    }
    return next(iter(codes), None)


def _merge_params(details: Details, params: list[Param]) -> None:
    known = {(p.name, p.location): p for p in details.params}
    for p in params:
        old = known.get((p.name, p.location))
        if old is None:
            details.params.append(p)
            known[(p.name, p.location)] = p
            continue
        old.required = p.required if old.required is None else old.required
        old.type = old.type or p.type
        old.description = old.description or p.description
        old.constraints = {**p.constraints, **old.constraints}


def _location(label: str, method: str, role: str | None) -> str:
    low = label.lower()
    if "path" in low or "路径参数" in label:
        return "path"
    if "query" in low or "查询" in label:
        return "query"
    if "header" in low or "请求头" in label:
        return "header"
    return "body" if method in _BODY_METHODS or role == "response" else "query"


def _label_required(label: str) -> bool | None:
    """What a table's label says of all its fields ("all optional"), when it says so."""
    if re.search(r"\ball\s+optional|\(optional\)|可选|选填", label, re.I):
        return False
    if re.search(r"\ball\s+required|\(required\)", label, re.I):
        return True
    return None


# "A `Location` header contains the URI of the new user"
_LOCATION = re.compile(r"\bLocation`?\s+(?:response\s+)?header\b|\bheader\s+`?Location\b")
_AUTH_HEADER = re.compile(r"\s*(authorization|x-[\w-]*(key|token))\s*:", re.I)


def _add_status(d: Details, code: int, text: str) -> None:
    """A code stated again for another reason ("400 if already registered", "400 if
    full") keeps both reasons."""
    old = d.status_codes.get(code)
    if old is None:
        d.status_codes[code] = text
    elif text and old and text.lower() not in old.lower() and old.lower() not in text.lower():
        d.status_codes[code] = f"{old}; {text}"


def apply_call(d: Details | Endpoint, cmd: Curl, method: str) -> None:
    """What a documented call shows about its endpoint: the body it sends, that it carries
    credentials, the fields a `jq` reads, and (a transcript) the status and body that came
    back. Fills only what is still empty: the endpoint's own words speak first."""
    _apply_sent(d, cmd)
    if cmd.method != method:  # another call in the section: its answer is not this one's
        return
    _apply_answer(d, cmd)


def _apply_sent(d: Details | Endpoint, cmd: Curl) -> None:
    """What the command line itself shows, whichever call of the section it is."""
    if (cmd.user is not None or any(_AUTH_HEADER.match(h) for h in cmd.headers)) and \
            d.auth_required is None:
        d.auth_required = True
    files = cmd.files
    if cmd.data is not None and d.request_example is None and not needs_file(d.params, files):
        form = cmd.form
        value = parse_json(cmd.data) if form is None else form
        if value is not None:
            d.request_example = value
            d.request_form = form is not None
            d.request_files = files
    if cmd.reads and d.response_schema is None and d.response_example is None:
        d.response_schema = {"type": "object", "properties": {k: {} for k in cmd.reads}}


def _apply_answer(d: Details | Endpoint, cmd: Curl) -> None:
    """What came back, shown under the command (a transcript or the bare answer)."""
    code = cmd.answer_status
    value = answer_json(cmd.answer)
    if code is None:  # an answer shown without its status: the call's success
        if value is not None and d.response_example is None and d.response_schema is None:
            d.response_example = value
        return
    if code == 201 and any(h.lower() == "location" for h in cmd.answer_headers):
        d.location_header = True
    d.status_codes.setdefault(code, _PHRASES.get(code, ""))
    if value is not None:
        d.response_examples.setdefault(code, value)
        if code < 300 and d.response_example is None and d.response_schema is None:
            d.response_example = value


_BLUEPRINT_MESSAGE = re.compile(r"(?:Request|Response\s+\d{3})\b")
_BLUEPRINT_PART = re.compile(r"(?:Body|Headers|Schema)\s*$")


class _Reader:
    def __init__(self, method: str, details: Details) -> None:
        self.method = method
        self.d = details
        self.label = ""
        self.paragraph = ""  # the whole text block just read (for labels such as "Response 200:")
        self.unlabelled = 0
        self.message = ""  # API Blueprint: the `+ Request` / `+ Response 201` item read last

    def text(self, block: Block) -> None:
        lines = plain_lines(block.text)
        if block.kind == "heading":
            self.label = " ".join(lines)
            self.paragraph = ""
        self._statuses(block, lines)
        if self.method in _BODY_METHODS and _LOCATION.search(block.text):
            self.d.location_header = True
        for ln in lines:
            self._line_facts(ln)
        if block.kind == "text":
            self._paragraph(block, lines)

    def _statuses(self, block: Block, lines: list[str]) -> None:
        """A paragraph is read sentence by sentence: a code's meaning ends with its sentence."""
        forced = backticked_codes(block.text)
        for ln in lines if block.kind == "heading" else _sentences(block.text):
            for k, v in status_codes_in(ln, forced=forced).items():
                _add_status(self.d, k, v)

    def _line_facts(self, ln: str) -> None:
        """Facts a single line states wherever it stands: auth, rate limit, "same as"."""
        self._auth(ln)
        if not self.d.rate_limit:
            self.d.rate_limit = rate_limit_in(ln)
        same = same_as_in(ln)
        if same:
            self.d.same_as.setdefault(*same)

    def _paragraph(self, block: Block, lines: list[str]) -> None:
        """A text block (not a heading): it may label what follows and hold parameters,
        calls and inline JSON of its own."""
        self.paragraph = joined(block.text)
        if not self._bullet_params(block) and lines and lines[-1]:
            self.label = lines[-1]
        if lines and _BLUEPRINT_MESSAGE.match(lines[0]):
            self.message = lines[0]
        elif self.message and _BLUEPRINT_PART.match(self.label):
            self.label = f"{self.message} {self.label}"  # `+ Body` of that message
        for c in parse_curls(lines) + parse_httpie(lines):
            self._curl(c)
        if not _RESPONSE_LINE.match(lines[0] if lines else ""):
            # "Output: an HTML page with a form field `choice`" names no request parameter
            _merge_params(self.d, prose_params(block.text, self.method))
        for context, value in json_spans(block.text) + bare_json_spans(block.text):
            self._inline_json(context, value)
        self._lowered(joined(block.text))

    def _lowered(self, text: str) -> None:
        """"the ID is normalized (remove special characters, change to lowercase)": the sent
        field it names is stored in lower case (`constraints["normalized"]`)."""
        m = _LOWERED.search(text)
        sent = self.d.request_example if isinstance(self.d.request_example, dict) else {}
        if m is None or not sent:
            return
        word = m.group(1).lower()
        key = next((k for k in sent if k.lower() == word or (
            word in ("id", "identifier") and k.lower() == "id")), None)
        if key is not None:
            typ = "string" if isinstance(sent[key], str) else None
            _merge_params(self.d, [Param(name=key, location="body", description=m.group(0),
                                         type=typ, constraints={"normalized": "lowercase"})])

    def _inline_json(self, context: str, value: Any) -> None:
        role, code = _role(context), _label_status(context)
        body = self.method in _BODY_METHODS
        if isinstance(value, str):  # '{"title": ..., "year": ...}': keys only
            if body and role == "request":
                flag = default_required(self.paragraph)
                _merge_params(self.d, [Param(name=k, location="body", type=t, required=flag)
                                       for k, t in keys_of(value).items()])
            return
        if role is None and code is None:
            return
        if role == "request" and not body:
            return
        self._store(role or "response", value, code)

    def _auth(self, text: str) -> None:
        flag = auth_marker(text)
        if flag is not None and self.d.auth_required is None:
            self.d.auth_required = flag

    def _bullet_params(self, block: Block) -> bool:
        """Parameters written as '`name` (type, required): text'; True when any were found."""
        labelled = _PARAM_LABEL.search(self.label) is not None
        if not labelled and self.method in _BODY_METHODS:
            return False
        role = _role(self.label)
        params = bullet_params(block.text, self.label, labelled,
                               _location(self.label, self.method, role))
        if role != "response":
            _merge_params(self.d, params)
        return bool(params)

    def table(self, block: Block) -> None:
        self.paragraph = ""
        header = [plain(c).strip() for c in block.rows[0]] if block.rows else []
        self._table_rows(block, header)
        self._field_table(block, header)

    def _table_rows(self, block: Block, header: list[str]) -> None:
        """Status codes and auth stated row by row, whatever else the table is."""
        table_status = any(re.search(r"status|code|状态|响应码", h, re.I) for h in header)
        for row in block.rows[1:]:
            line = " | ".join(plain(c).strip() for c in row)
            for k, v in status_codes_in(line, table_status).items():
                self.d.status_codes.setdefault(k, v)
            if len(row) == 2:
                self._auth(line.replace(" | ", ": "))

    def _field_table(self, block: Block, header: list[str]) -> None:
        """A table of fields: the request's parameters, or the response's schema."""
        parsed = field_table(block.rows)
        if parsed is None:
            return
        params, schema = parsed
        hdr = " ".join(header)
        label = hdr if re.search(r"query|path|header|param|参数", hdr, re.I) else self.label
        role = "request" if label is hdr else _role(self.label)
        if role is None and self.d.response_schema is not None:
            role = "response"  # "The `pastes` list will have objects with the following format"
        loc = _location(label, self.method, role)
        if role == "response":
            self.d.response_schema = self.d.response_schema or schema
            return
        default = _label_required(label)
        for p in params:
            if p.location == "query" and loc != "query":
                p.location = loc  # type: ignore[assignment]
            if p.required is None:
                p.required = default
        _merge_params(self.d, params)
        if loc == "body" and self.d.request_schema is None:
            self.d.request_schema = schema

    def _curl(self, cmd: Curl) -> None:
        apply_call(self.d, cmd, self.method)

    def code(self, block: Block) -> None:
        if leak_reason(block) is not None:
            return
        text = block.text.strip()
        curls = parse_curls(text.split("\n")) or parse_httpie(text.split("\n"))
        for c in curls:
            self._curl(c)
        if curls:
            return
        if re.search(r"^\s*(?:Authorization|X-[\w-]*(?:Key|Token)):\s*\S", text, re.M | re.I):
            self._auth("auth: required")
        first = text.split("\n", 1)[0]
        if re.match(r"HTTP(?:/\d(?:\.\d)?)?\s+\d{3}\b", first):  # "HTTP 200 OK" too
            self._http_answer(text, first)
        elif re.match(r"[A-Z]+\s+/\S*\s+HTTP/", first):
            head, _, body = text.partition("\n\n")
            self._curl(Curl(self.method, "", 0, tuple(head.split("\n")[1:]), body or None))
        elif (value := parse_json(text)) is not None:
            self._json_block(block, value)

    def _http_answer(self, text: str, first: str) -> None:
        """A raw HTTP answer ("HTTP/1.1 201 Created", headers, blank line, body)."""
        code = int(first.split()[1])
        self.d.status_codes.setdefault(code, " ".join(first.split()[2:]) or "")
        body = text.split("\n\n", 1)[1] if "\n\n" in text else ""
        if not body.strip() and not first.startswith("HTTP/"):
            body = text.split("\n", 1)[1] if "\n" in text else ""  # no blank line
        value = parse_json(body)
        if isinstance(value, str) and not first.startswith("HTTP/"):
            value = None  # `{ "New Question created" }`: no JSON, no example
        self._store("response", value, code)

    def _json_block(self, block: Block, value: Any) -> None:
        """A JSON block: its label (or the paragraph above) says whether it is sent or
        answered; unlabelled, a body method's first block is taken for the request."""
        label = f"{self.label} {block.info}"
        first = (_sentences(self.paragraph) or [""])[0]
        if (_role(label) is None or _label_status(label) is None) and _RESP.search(first):
            label = f"{label} {first}"  # "Response `200`: the totals, rounded (see below)."
        self.paragraph = ""
        role = _role(label)
        if role is None:
            self.unlabelled += 1
            body_first = self.method in _BODY_METHODS and self.unlabelled == 1
            role = "request" if body_first and self.d.request_example is None else "response"
        if role == "request" and self.method not in _BODY_METHODS and not re.search(
            r"request|body|payload|请求", label, re.I
        ):
            role = "response"  # "Query parameters:" above a JSON block of a GET
        self._store(role, value, _label_status(label))

    def _store(self, role: str, value: Any, code: int | None) -> None:
        if value is None:
            return
        is_schema = isinstance(value, dict) and "properties" in value and "type" in value
        if role == "request":
            if is_schema:
                self.d.request_schema = self.d.request_schema or value
            elif self.d.request_example is None:
                self.d.request_example = value
            return
        if code is not None:
            self.d.response_examples.setdefault(code, value)
            self.d.status_codes.setdefault(code, _PHRASES.get(code, ""))
        if is_schema:
            self.d.response_schema = self.d.response_schema or value
        elif self.d.response_example is None and (code is None or code < 300):
            self.d.response_example = value


def read_details(method: str, blocks: list[Block], details: Details) -> Details:
    """Fill `details` from the blocks an endpoint owns (in order)."""
    reader = _Reader(method, details)
    for block in blocks:
        if block.kind in ("heading", "text"):
            reader.text(block)
        elif block.kind == "table":
            reader.table(block)
        else:
            reader.code(block)
    return details

