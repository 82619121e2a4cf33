"""curl command lines in a document: method, URL, headers and body (hand-written, shlex)."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

from pipeline.records import Param

_DATA_FLAGS = {"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--json"}
_VALUE_FLAGS = {"-H", "--header", "-u", "--user", "-o", "--output", "-A", "--user-agent",
                "-b", "--cookie", "-e", "--referer", "-w", "--write-out", "-m", "--max-time",
                "--connect-timeout", "-T", "--upload-file", "-c", "--cookie-jar"}


@dataclass(frozen=True)
class Curl:
    method: str
    url: str
    line_index: int  # index of the line the command starts on
    headers: tuple[str, ...] = field(default=())
    data: str | None = None
    # fields of the answer the command line reads (`| jq -r .access_token`): the document
    # shows the answer has them
    reads: tuple[str, ...] = field(default=())
    user: str | None = None  # `-u name:password`: HTTP Basic credentials
    # a transcript (`curl -i ...` followed by what came back): the status line's code and the
    # body after the headers, as written
    answer_status: int | None = None
    answer: str | None = None
    answer_headers: tuple[str, ...] = field(default=())  # header names, as written
    # each `-F name=value` in order (a multipart form); a value starting `@` or `<` is a file
    parts: tuple[tuple[str, str], ...] = field(default=())

    @property
    def multipart(self) -> bool:
        return bool(self.parts)

    @property
    def form(self) -> dict[str, Any] | None:
        """The body as form fields when it is sent form-encoded (`-d "a=1&b=2"` with a form
        Content-Type, or plainly `key=value` pairs, as curl sends them), else None; a key
        given more than once holds the list of its values. A multipart form's text fields
        count too (its files do not: a test sends the fields, not the files the example names)."""
        if self.multipart:
            return _fields((k, v) for k, v in self.parts if not v.startswith(("@", "<")))
        if self.data is None or self.data.lstrip().startswith(("{", "[")):
            return None
        typed = any(re.match(r"\s*content-type\s*:\s*application/x-www-form-urlencoded", h,
                             re.I) for h in self.headers)
        if not (typed or _FORM.match(self.data.strip())):
            return None
        return _fields(parse_qsl(self.data.strip(), keep_blank_values=True))

    @property
    def files(self) -> dict[str, str]:
        """The multipart form's file parts: name -> the file as written (`-F
        icon=@path/icon.svg` gives `path/icon.svg`)."""
        return {k: v[1:] for k, v in self.parts if v.startswith(("@", "<"))}


def needs_file(params: list[Param], files: dict[str, str]) -> bool:
    """Whether a part the document requires is a file: the upload is then the record itself
    (its name and content are what the service checks and keeps, two uploads of the one
    example file clash), which a template's small file of the named type does not stand for,
    so the form's text fields are no usable example."""
    return any(p.required and p.name in files for p in params)


def _fields(pairs: Iterable[tuple[str, str]]) -> dict[str, Any] | None:
    fields: dict[str, Any] = {}
    for key, value in pairs:
        old = fields.get(key)  # a key sent again (`ids=3&ids=5`) sends each value
        fields[key] = value if old is None else [*(old if isinstance(old, list) else [old]),
                                                 value]
    return fields or None


_FORM = re.compile(r"^[A-Za-z_][\w.-]*=[^&=\s]*(?:&[A-Za-z_][\w.-]*=[^&=\s]*)*$")
_JQ_READ = re.compile(r"\|\s*jq\s+(?:-\w+\s+)*['\"]?\.(\w+)")


def _commands(lines: list[str]) -> list[tuple[int, int, str]]:
    """Join backslash-continued lines; return (start index, end index, command) per curl."""
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(lines):
        m = re.search(r"(?:^|[\s$>`(])(curl\s.*)$", lines[i])
        if not m:
            i += 1
            continue
        start, cmd = i, m.group(1)
        while i + 1 < len(lines):
            if cmd.rstrip().endswith(("\\", "^")):
                i += 1
                cmd = cmd.rstrip()[:-1] + " " + lines[i].strip()
                continue
            body = _quoted_to_end(cmd, lines[i + 1:i + 1 + _QUOTED_LINES])
            if body is None:
                break
            cmd, i = cmd + body[0], i + body[1]
        out.append((start, i, cmd))
        i += 1
    return out


_SCALAR = re.compile(r'^\s*(?:-?\d+(?:\.\d+)?|"[^"\n]*")\s*$')
_STATUS_LINE = re.compile(r"^\s*HTTP/\d(?:\.\d)?\s+(\d{3})\b")
_PROMPT = re.compile(r"^\s*(?:\$|>|#|\(\w+\)\s*\$)\s")


def _transcript(lines: list[str]) -> tuple[int | None, str | None, tuple[str, ...]]:
    """What a command's output lines show came back: the status line's code (it must come
    first), the headers' names and the body after their blank line, up to the next prompt."""
    rest = [ln for ln in lines]
    while rest and not rest[0].strip():
        rest = rest[1:]
    if not rest:
        return None, None, ()
    m = _STATUS_LINE.match(rest[0])
    if m is None:  # the answer printed under the command, without a status line
        return None, _bare_answer(rest), ()
    text, names = _headed_answer(rest[1:])
    return int(m.group(1)), text, names


def _bare_answer(rest: list[str]) -> str | None:
    """Output without a status line counts only when it looks like an answer: a lone id or
    name (`35`, `"yay"`), or JSON; anything else is prose or another command's output."""
    if _SCALAR.match(rest[0]) and (len(rest) == 1 or not rest[1].strip()
                                   or _PROMPT.match(rest[1])):
        return rest[0].strip()  # a bare id or name (`35`, `"yay"`)
    if not rest[0].lstrip().startswith(("{", "[")):
        return None
    return "\n".join(_until_prompt(rest)).strip() or None


def _headed_answer(after_status: list[str]) -> tuple[str | None, tuple[str, ...]]:
    """The body after the headers' blank line and the headers' names, as `curl -i` prints
    them under the status line."""
    body: list[str] = []
    names: list[str] = []
    in_body = False
    for ln in _until_prompt(after_status):
        if in_body:
            body.append(ln)
        elif not ln.strip():
            in_body = True
        elif header := re.match(r"\s*([A-Za-z][\w-]*):\s", ln):
            names.append(header.group(1))
    text = "\n".join(body).strip()
    return text or None, tuple(names)


def _until_prompt(lines: list[str]) -> list[str]:
    """The output ends where the next command is typed."""
    out: list[str] = []
    for ln in lines:
        if _PROMPT.match(ln) or "curl " in ln:
            break
        out.append(ln)
    return out


_QUOTED_LINES = 60  # a body longer than this is not an example someone types


def _quoted_to_end(cmd: str, following: list[str]) -> tuple[str, int] | None:
    """The lines that close a quote `cmd` leaves open (`-d '{` then the JSON over several
    lines, then `}'`), and how many they are; None when no quote is open or none closes it."""
    if not _open_quote(cmd):
        return None
    text = ""
    for n, line in enumerate(following, start=1):
        text += "\n" + line
        if not _open_quote(cmd + text):
            return text, n
    return None


def _open_quote(cmd: str) -> bool:
    try:
        shlex.split(re.split(r"\s(?:\||&&|;)\s", cmd)[0], comments=False)
    except ValueError:
        return True
    return False


def _tokens(cmd: str) -> list[str]:
    cmd = re.split(r"\s(?:\||&&|;)\s", cmd)[0]
    try:
        return shlex.split(cmd, comments=False)
    except ValueError:
        return cmd.split()


@dataclass
class _Options:
    """What a command's flags set, gathered token by token."""

    method: str | None = None
    url: str | None = None
    headers: list[str] = field(default_factory=list)
    data: str | None = None
    user: str | None = None
    parts: list[tuple[str, str]] = field(default_factory=list)


_URL_START = re.compile(r"^(?:https?://|localhost|127\.0\.0\.1|0\.0\.0\.0|\$\{?\w+\}?/|\{\{)")


def _options(toks: list[str]) -> _Options:
    """The flags after `curl`; a flag that takes a value consumes the next token too."""
    opts = _Options()
    i = 1
    while i < len(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if _take_valued(opts, toks[i], nxt):
            i += 2
            continue
        _take_single(opts, toks[i])
        i += 1
    return opts


def _take_valued(opts: _Options, tok: str, nxt: str) -> bool:
    """Apply a flag whose value is the next token; False when `tok` is no such flag.
    Flags that matter nothing here (`-o out.json`) still consume their value."""
    if tok in ("-X", "--request"):
        opts.method = nxt.upper()
    elif tok in ("-F", "--form"):  # one field each: the form is all of them
        key, _, value = nxt.partition("=")
        opts.parts.append((key, value))
        opts.data = urlencode(opts.parts)
    elif tok in _DATA_FLAGS:
        opts.data = nxt
    elif tok in ("-H", "--header"):
        opts.headers.append(nxt)
    elif tok in ("-u", "--user"):
        opts.user = nxt
    elif tok == "--url":
        opts.url = nxt
    else:
        return tok in _VALUE_FLAGS
    return True


def _take_single(opts: _Options, tok: str) -> None:
    """Apply a token that stands alone: a glued flag (`-XPOST`, `--url=...`) or the URL."""
    if tok.startswith("-X") and len(tok) > 2:
        opts.method = tok[2:].upper()
    elif tok.startswith("--request="):
        opts.method = tok.split("=", 1)[1].upper()
    elif tok in ("-I", "--head"):
        opts.method = opts.method or "HEAD"
    elif tok.startswith("--url="):
        opts.url = tok.split("=", 1)[1]
    elif not tok.startswith("-") and opts.url is None and _URL_START.match(tok):
        opts.url = tok


def parse_curls(lines: list[str]) -> list[Curl]:
    """Every curl command in these lines (a code block's or a paragraph's)."""
    found: list[Curl] = []
    commands = _commands(lines)
    for n, (start, end, cmd) in enumerate(commands):
        opts = _options(_tokens(cmd))
        if opts.url is None:
            continue
        method = opts.method
        if method is None:
            method = "POST" if opts.data is not None else "GET"
        following = commands[n + 1][0] if n + 1 < len(commands) else len(lines)
        status, answer, names = _transcript(lines[end + 1:following])
        found.append(Curl(method, opts.url, start, tuple(opts.headers), opts.data,
                          tuple(_JQ_READ.findall(cmd)), opts.user, status, answer, names,
                          tuple(opts.parts)))
    return found


def answer_json(text: str | None) -> Any:
    """The JSON value a transcript's body starts with (prose may follow it), or the bare
    number or string it is, else None."""
    if text is not None and _SCALAR.match(text):
        return json.loads(text)
    if text is None or not text.lstrip().startswith(("{", "[")):
        return None
    try:
        return json.JSONDecoder().raw_decode(text.lstrip())[0]
    except ValueError:
        return None


_HTTPIE = re.compile(r"(?:^|[\s$>`(])(https?\s+(?:[A-Z]+\s+)?(?:https?://|localhost|127\.0\.0\.1"
                     r"|0\.0\.0\.0|:\d+/).*)$")
_HTTPIE_FIELD = re.compile(r"^(?P<key>[A-Za-z_][\w.-]*)(?P<op>:=|==|=|:)(?P<value>.*)$", re.S)


def parse_httpie(lines: list[str]) -> list[Curl]:
    """Every HTTPie command (`http [METHOD] URL [Header:value] [field=value] [field:=json]`)
    in these lines; the body is the JSON object its fields make, the method GET, or POST
    when fields are sent (HTTPie's own defaults)."""
    found: list[Curl] = []
    for index, line in enumerate(lines):
        m = _HTTPIE.search(line)
        if not m:
            continue
        toks = _tokens(m.group(1).split("`", 1)[0])[1:]
        method = None
        if toks and re.fullmatch(r"[A-Z]+", toks[0]):
            method, toks = toks[0], toks[1:]
        if not toks:
            continue
        url = toks[0]
        headers, fields = _httpie_items(toks[1:])
        if not method:
            method = "POST" if fields else "GET"
        data = json.dumps(fields) if fields else None
        found.append(Curl(method.upper(), url, index, tuple(headers), data))
    return found


def _httpie_items(toks: list[str]) -> tuple[list[str], dict[str, Any]]:
    """The request items after the URL: `Header:value` headers and the body's fields
    (`key=text`, `key:=json`); options and `key==value` query items add nothing."""
    headers: list[str] = []
    fields: dict[str, Any] = {}
    for tok in toks:
        item = _HTTPIE_FIELD.match(tok)
        if item is None or tok.startswith("-"):
            continue
        key, op, value = item.group("key"), item.group("op"), item.group("value")
        if op == ":":
            headers.append(f"{key}: {value.strip()}")
        elif op == "=":  # a bare whole number is the document's number (`year=2018`)
            fields[key] = int(value) if re.fullmatch(r"-?[1-9]\d{0,8}", value) else value
        elif op == ":=":
            try:
                fields[key] = json.loads(value)
            except ValueError:
                fields[key] = value
    return headers, fields
