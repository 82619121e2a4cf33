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
        if _SCALAR.match(rest[0]) and (len(rest) == 1 or not rest[1].strip()
                                       or _PROMPT.match(rest[1])):
            return None, rest[0].strip(), ()  # a bare id or name (`35`, `"yay"`)
        if not rest[0].lstrip().startswith(("{", "[")):
            return None, None, ()
        body = []
        for ln in rest:
            if _PROMPT.match(ln) or "curl " in ln:
                break
            body.append(ln)
        return None, "\n".join(body).strip() or None, ()
    body: list[str] = []
    names: list[str] = []
    in_body = False
    for ln in rest[1:]:
        if _PROMPT.match(ln) or "curl " in ln:
            break
        if in_body:
            body.append(ln)
        elif not ln.strip():
            in_body = True
        elif header := re.match(r"\s*([A-Za-z][\w-]*):\s", ln):
            names.append(header.group(1))
    text = "\n".join(body).strip()
    return int(m.group(1)), text or None, tuple(names)


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


def parse_curls(lines: list[str]) -> list[Curl]:
    """Every curl command in these lines (a code block's or a paragraph's)."""
    found: list[Curl] = []
    commands = _commands(lines)
    for n, (start, end, cmd) in enumerate(commands):
        toks = _tokens(cmd)
        method: str | None = None
        url: str | None = None
        headers: list[str] = []
        data: str | None = None
        user: str | None = None
        parts: list[tuple[str, str]] = []
        i = 1
        while i < len(toks):
            tok = toks[i]
            nxt = toks[i + 1] if i + 1 < len(toks) else ""
            if tok in ("-X", "--request"):
                method, i = nxt.upper(), i + 2
                continue
            if tok.startswith("-X") and len(tok) > 2:
                method = tok[2:].upper()
            elif tok.startswith("--request="):
                method = tok.split("=", 1)[1].upper()
            elif tok in ("-I", "--head"):
                method = method or "HEAD"
            elif tok in ("-F", "--form"):  # one field each: the form is all of them
                key, _, value = nxt.partition("=")
                parts.append((key, value))
                i += 2
                data = urlencode(parts)
                continue
            elif tok in _DATA_FLAGS:
                data, i = nxt, i + 2
                continue
            elif tok in _VALUE_FLAGS:
                if tok in ("-H", "--header"):
                    headers.append(nxt)
                elif tok in ("-u", "--user"):
                    user = nxt
                i += 2
                continue
            elif tok == "--url":
                url, i = nxt, i + 2
                continue
            elif tok.startswith("--url="):
                url = tok.split("=", 1)[1]
            elif not tok.startswith("-") and url is None and re.match(
                r"^(?:https?://|localhost|127\.0\.0\.1|0\.0\.0\.0|\$\{?\w+\}?/|\{\{)", tok
            ):
                url = tok
            i += 1
        if url is None:
            continue
        if method is None:
            method = "POST" if data is not None else "GET"
        following = commands[n + 1][0] if n + 1 < len(commands) else len(lines)
        status, answer, names = _transcript(lines[end + 1:following])
        found.append(Curl(method, url, start, tuple(headers), data,
                          tuple(_JQ_READ.findall(cmd)), user, status, answer, names,
                          tuple(parts)))
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
        url, headers, fields = toks[0], [], {}
        for tok in toks[1:]:
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
        if not method:
            method = "POST" if fields else "GET"
        data = json.dumps(fields) if fields else None
        found.append(Curl(method.upper(), url, index, tuple(headers), data))
    return found
