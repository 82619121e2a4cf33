"""ownpaste — an independent re-implementation (Starlette + uvicorn, in-memory store).

Written from the task README alone.  State lives in memory behind a lock; a fresh
start has no pastes.  Writes (and private reads) need HTTP Digest authentication
(realm ``ownpaste``, user ``ownpaste``, password ``test`` unless overridden by the
environment variables listed in NOTES.md).
"""

import base64
import hashlib
import hmac
import html
import json
import math
import os
import re
import secrets
import string
import threading
import time

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import (
    get_all_lexers,
    get_lexer_by_name,
    get_lexer_for_filename,
    guess_lexer,
    guess_lexer_for_filename,
)
from pygments.util import ClassNotFound
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

VERSION = "0.3.alt"
API_VERSION = "1"


def _env_int(name, default):
    try:
        return int(os.environ.get(name, default))
    except (TypeError, ValueError):
        return default


CONFIG = {
    "PYGMENTS_STYLE": os.environ.get("OWNPASTE_PYGMENTS_STYLE", "friendly"),
    "PYGMENTS_LINENOS": os.environ.get("OWNPASTE_PYGMENTS_LINENOS", "1") not in ("0", "false", "False"),
    "PER_PAGE": max(1, _env_int("OWNPASTE_PER_PAGE", 20)),
    "REALM": os.environ.get("OWNPASTE_REALM", "ownpaste"),
    "USERNAME": os.environ.get("OWNPASTE_USERNAME", "ownpaste"),
    "PASSWORD": os.environ.get("OWNPASTE_PASSWORD", "test"),
    "IP_BLOCK_HITS": max(1, _env_int("OWNPASTE_IP_BLOCK_HITS", 10)),
    "IP_BLOCK_TIMEOUT": max(0, _env_int("OWNPASTE_IP_BLOCK_TIMEOUT", 60)),
}

# ---------------------------------------------------------------------------
# Languages (every Pygments alias -> lexer name)
# ---------------------------------------------------------------------------

LANGUAGES = {}
for _name, _aliases, _patterns, _mimes in get_all_lexers():
    for _alias in _aliases:
        LANGUAGES.setdefault(_alias, _name)


def guess_language(file_name, content):
    lexer = None
    if file_name:
        try:
            lexer = guess_lexer_for_filename(file_name, content)
        except ClassNotFound:
            try:
                lexer = get_lexer_for_filename(file_name)
            except ClassNotFound:
                lexer = None
    if lexer is None:
        try:
            lexer = guess_lexer(content)
        except ClassNotFound:
            lexer = None
    if lexer is None or not lexer.aliases or lexer.aliases[0] not in LANGUAGES:
        return "text"
    return lexer.aliases[0]


# ---------------------------------------------------------------------------
# Store
# ---------------------------------------------------------------------------

LOCK = threading.Lock()
PASTES = {}  # paste_id -> dict
NEXT_ID = [1001]
_PRIVATE_ALPHABET = string.ascii_letters + string.digits


def _new_private_id():
    while True:
        pid = "".join(secrets.choice(_PRIVATE_ALPHABET) for _ in range(22))
        if pid.isdigit():
            continue
        if any(p["private_id"] == pid for p in PASTES.values()):
            continue
        return pid


def _preview(content):
    return "\n".join(content.split("\n")[:5])


def paste_full(p):
    return {
        "paste_id": p["paste_id"],
        "language": p["language"],
        "language_name": LANGUAGES.get(p["language"], p["language"]),
        "file_name": p["file_name"],
        "pub_timestamp": p["pub_timestamp"],
        "private": p["private"],
        "private_id": p["private_id"],
        "file_content": p["file_content"],
    }


def paste_summary(p):
    return {
        "paste_id": p["paste_id"],
        "language": p["language"],
        "language_name": LANGUAGES.get(p["language"], p["language"]),
        "file_name": p["file_name"],
        "pub_timestamp": p["pub_timestamp"],
        "private": p["private"],
        "private_id": p["private_id"],
        "file_content_preview": _preview(p["file_content"]),
    }


def find_paste(ident):
    """Look a paste up by numeric public id or by private id (caller holds LOCK)."""
    if ident.isdigit():
        try:
            return PASTES.get(int(ident))
        except ValueError:
            return None
    for p in PASTES.values():
        if p["private_id"] is not None and p["private_id"] == ident:
            return p
    return None


# ---------------------------------------------------------------------------
# Responses / negotiation
# ---------------------------------------------------------------------------


class Fail(Exception):
    def __init__(self, status, message, headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def ok_json(data=None, status=200, headers=None):
    body = {"status": "ok"}
    if data:
        body.update(data)
    return JSONResponse(body, status_code=status, headers=headers)


def fail_json(status, message, headers=None):
    return JSONResponse({"status": "fail", "error": message}, status_code=status, headers=headers)


def _accept_q(accept, mime):
    """Quality for `mime` under an Accept header (most specific matching range wins)."""
    best_spec, best_q = -1, 0.0
    main = mime.split("/")[0]
    for part in accept.split(","):
        part = part.strip()
        if not part:
            continue
        fields = [f.strip() for f in part.split(";")]
        rng = fields[0].lower()
        q = 1.0
        for f in fields[1:]:
            if f.lower().startswith("q="):
                try:
                    q = float(f[2:])
                except ValueError:
                    q = 0.0
        if rng == mime:
            spec = 2
        elif rng == main + "/*":
            spec = 1
        elif rng == "*/*" or rng == "*":
            spec = 0
        else:
            continue
        if spec > best_spec:
            best_spec, best_q = spec, q
    return best_q


def wants_html(request):
    accept = request.headers.get("accept")
    if not accept:
        return False
    return _accept_q(accept, "text/html") > _accept_q(accept, "application/json")


_CSS = None


def _css():
    global _CSS
    if _CSS is None:
        _CSS = HtmlFormatter(style=CONFIG["PYGMENTS_STYLE"]).get_style_defs(".highlight")
    return _CSS


def page(title, body, status=200, headers=None):
    doc = (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)} - ownpaste</title>"
        f"<style>body{{font-family:sans-serif;margin:2em}}pre{{margin:0}}{_css()}</style>"
        "</head><body>"
        "<p><a href=\"/\">ownpaste</a> | <a href=\"/paste/\">pastes</a></p>"
        f"<h1>{html.escape(title)}</h1>{body}</body></html>"
    )
    return HTMLResponse(doc, status_code=status, headers=headers)


def fail_response(request, status, message, headers=None, html_ok=False):
    if html_ok and wants_html(request):
        return page(f"Error {status}", f"<p class=\"error\">{html.escape(message)}</p>", status, headers)
    return fail_json(status, message, headers)


# ---------------------------------------------------------------------------
# HTTP Digest authentication + IP blocker
# ---------------------------------------------------------------------------

_SECRET = secrets.token_bytes(32)
_OPAQUE = hashlib.md5(_SECRET + b"opaque").hexdigest()
_FAILURES = {}  # ip -> [timestamps]
_BLOCKED = {}  # ip -> blocked until
_FAILED_NONCES = {}  # ip -> {nonce: timestamp}; a challenge answered wrongly counts once


def _md5(s):
    return hashlib.md5(s.encode("utf-8")).hexdigest()


def _make_nonce():
    ts = str(int(time.time()))
    rnd = secrets.token_hex(8)
    sig = hmac.new(_SECRET, f"{ts}:{rnd}".encode(), hashlib.sha256).hexdigest()[:32]
    return base64.b64encode(f"{ts}:{rnd}:{sig}".encode()).decode()


def _nonce_valid(nonce):
    try:
        ts, rnd, sig = base64.b64decode(nonce.encode(), validate=True).decode().split(":")
    except Exception:
        return False
    good = hmac.new(_SECRET, f"{ts}:{rnd}".encode(), hashlib.sha256).hexdigest()[:32]
    return hmac.compare_digest(sig, good)


def _challenge_headers():
    return {
        "WWW-Authenticate": (
            f'Digest realm="{CONFIG["REALM"]}", nonce="{_make_nonce()}", '
            f'opaque="{_OPAQUE}", qop="auth", algorithm=MD5'
        )
    }


_PARAM_RE = re.compile(r'\s*([A-Za-z0-9_-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^,\s]*)\s*,?')


def _parse_digest(value):
    params = {}
    pos = 0
    while pos < len(value):
        m = _PARAM_RE.match(value, pos)
        if not m or m.end() == pos:
            break
        key = m.group(1).lower()
        if m.group(3) is not None:
            val = re.sub(r"\\(.)", r"\1", m.group(3))
        else:
            val = m.group(2)
        params[key] = val
        pos = m.end()
    return params


def _check_digest(request):
    """None: no credentials; True: valid; (False, nonce): wrong credentials."""
    header = request.headers.get("authorization")
    if not header:
        return None  # no attempt
    scheme, _, rest = header.partition(" ")
    if scheme.lower() != "digest":
        return False, None
    p = _parse_digest(rest)
    ok = _verify_digest(request, p)
    return True if ok else (False, p.get("nonce"))


def _verify_digest(request, p):
    for key in ("username", "realm", "nonce", "uri", "response"):
        if key not in p:
            return False
    if p["username"] != CONFIG["USERNAME"] or p["realm"] != CONFIG["REALM"]:
        return False
    if not _nonce_valid(p["nonce"]):
        return False
    algorithm = p.get("algorithm", "MD5").upper()
    ha1 = _md5(f'{p["username"]}:{p["realm"]}:{CONFIG["PASSWORD"]}')
    if algorithm == "MD5-SESS":
        ha1 = _md5(f'{ha1}:{p["nonce"]}:{p.get("cnonce", "")}')
    elif algorithm != "MD5":
        return False
    ha2 = _md5(f'{request.method}:{p["uri"]}')
    qop = p.get("qop")
    if qop:
        if qop != "auth" or "nc" not in p or "cnonce" not in p:
            return False
        expected = _md5(f'{ha1}:{p["nonce"]}:{p["nc"]}:{p["cnonce"]}:{qop}:{ha2}')
    else:
        expected = _md5(f'{ha1}:{p["nonce"]}:{ha2}')
    return hmac.compare_digest(expected, p["response"].lower())


def _client_ip(request):
    return request.client.host if request.client else "unknown"


def require_auth(request):
    """Raise Fail unless the request carries valid digest credentials."""
    ip = _client_ip(request)
    now = time.time()
    with LOCK:
        until = _BLOCKED.get(ip)
        if until is not None:
            if now < until:
                raise Fail(
                    403,
                    "too many failed login attempts; this address is blocked for a while",
                    {"Retry-After": str(max(1, int(math.ceil(until - now))))},
                )
            del _BLOCKED[ip]
    result = _check_digest(request)
    if result is True:
        with LOCK:
            _FAILURES.pop(ip, None)
            _FAILED_NONCES.pop(ip, None)
        return
    if result is not None:
        nonce = result[1]
        with LOCK:
            seen = _FAILED_NONCES.setdefault(ip, {})
            if nonce is not None and nonce in seen:
                pass  # the same challenge answered wrongly again: not a new attempt
            else:
                if nonce is not None:
                    seen[nonce] = now
                    if len(seen) > 1000:
                        for old in sorted(seen, key=seen.get)[:500]:
                            del seen[old]
                window = CONFIG["IP_BLOCK_TIMEOUT"]
                hits = [t for t in _FAILURES.get(ip, []) if now - t < window] if window else []
                hits.append(now)
                if len(hits) >= CONFIG["IP_BLOCK_HITS"]:
                    _FAILURES.pop(ip, None)
                    _BLOCKED[ip] = now + CONFIG["IP_BLOCK_TIMEOUT"]
                else:
                    _FAILURES[ip] = hits
        raise Fail(401, "invalid credentials", _challenge_headers())
    raise Fail(401, "authentication required", _challenge_headers())


def is_authenticated(request):
    try:
        require_auth(request)
        return True
    except Fail:
        return False


# ---------------------------------------------------------------------------
# Input validation
# ---------------------------------------------------------------------------


async def read_json_object(request):
    raw = await request.body()
    if not raw.strip():
        raise Fail(400, "a JSON object is required in the request body")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Fail(400, "request body is not valid JSON")
    if not isinstance(data, dict):
        raise Fail(400, "request body must be a JSON object")
    return data


def _norm_language(value):
    if not isinstance(value, str):
        raise Fail(400, "field 'language' must be a string or null")
    lang = value.strip().lower()
    if lang not in LANGUAGES:
        raise Fail(400, f"unsupported language alias: {value!r}")
    return lang


def _check_content(value):
    if not isinstance(value, str):
        raise Fail(400, "field 'file_content' must be a string")
    if value == "":
        raise Fail(400, "field 'file_content' must not be empty")
    return value


def _check_file_name(value):
    if value is not None and not isinstance(value, str):
        raise Fail(400, "field 'file_name' must be a string or null")
    return value


def _check_private(value):
    if not isinstance(value, bool):
        raise Fail(400, "field 'private' must be a boolean")
    return value


# ---------------------------------------------------------------------------
# Handlers
# ---------------------------------------------------------------------------


def handle_fail(func):
    async def wrapper(request):
        html_ok = getattr(func, "html_ok", False) and request.method in ("GET", "HEAD")
        try:
            return await func(request)
        except Fail as exc:
            return fail_response(request, exc.status, exc.message, exc.headers, html_ok)

    wrapper.__name__ = func.__name__
    return wrapper


def _html_capable(func):
    func.html_ok = True
    return func


@handle_fail
@_html_capable
async def index(request):
    data = {"version": VERSION, "api_version": API_VERSION, "language": dict(LANGUAGES)}
    if wants_html(request):
        rows = "".join(
            f"<li><code>{html.escape(a)}</code>: {html.escape(n)}</li>" for a, n in sorted(LANGUAGES.items())
        )
        body = (
            f"<p>ownpaste version {html.escape(VERSION)}, API version {API_VERSION}.</p>"
            f"<h2>Languages</h2><ul>{rows}</ul>"
        )
        return page("ownpaste", body)
    return ok_json(data)


def _parse_int_param(request, name, default):
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw.strip())
    except ValueError:
        raise Fail(400, f"query parameter '{name}' must be an integer")


@handle_fail
@_html_capable
async def paste_collection(request):
    if request.method == "POST":
        return await create_paste(request)
    page_no = _parse_int_param(request, "page", 1)
    if page_no < 1:
        raise Fail(400, "query parameter 'page' must be 1 or greater")
    private = _parse_int_param(request, "private", 0) == 1
    if private:
        require_auth(request)
    per_page = CONFIG["PER_PAGE"]
    with LOCK:
        items = [p for p in PASTES.values() if private or not p["private"]]
        items.sort(key=lambda p: p["paste_id"])  # oldest first
        total = len(items)
        pages = max(1, math.ceil(total / per_page))
        start = (page_no - 1) * per_page
        chunk = [paste_summary(p) for p in items[start:start + per_page]]
    data = {"page": page_no, "pages": pages, "per_page": per_page, "total": total, "pastes": chunk}
    if wants_html(request):
        rows = []
        for p in chunk:
            link = f"/paste/{p['private_id'] if p['private'] else p['paste_id']}/"
            title = p["file_name"] or f"paste #{p['paste_id']}"
            rows.append(
                f"<li><a href=\"{html.escape(link)}\">{html.escape(title)}</a> "
                f"({html.escape(p['language'])}{', private' if p['private'] else ''})"
                f"<pre>{html.escape(p['file_content_preview'])}</pre></li>"
            )
        q = "&private=1" if private else ""
        nav = []
        if page_no > 1:
            nav.append(f"<a href=\"/paste/?page={page_no - 1}{q}\">previous</a>")
        if page_no < pages:
            nav.append(f"<a href=\"/paste/?page={page_no + 1}{q}\">next</a>")
        body = (
            f"<p>Page {page_no} of {pages}, {total} paste(s).</p><ul>{''.join(rows)}</ul>"
            f"<p>{' | '.join(nav)}</p>"
        )
        return page("Pastes", body)
    return ok_json(data)


async def create_paste(request):
    require_auth(request)
    data = await read_json_object(request)
    if "file_content" not in data or data["file_content"] is None:
        raise Fail(400, "field 'file_content' is required")
    content = _check_content(data["file_content"])
    file_name = _check_file_name(data.get("file_name"))
    private = data.get("private")
    private = False if private is None else _check_private(private)
    language = data.get("language")
    if language is None or (isinstance(language, str) and language.strip() == ""):
        language = guess_language(file_name, content)
    else:
        language = _norm_language(language)
    with LOCK:
        pid = NEXT_ID[0]
        NEXT_ID[0] += 1
        paste = {
            "paste_id": pid,
            "language": language,
            "file_name": file_name,
            "pub_timestamp": int(time.time()),
            "private": private,
            "private_id": _new_private_id() if private else None,
            "file_content": content,
        }
        PASTES[pid] = paste
        out = paste_summary(paste)
    location = f"/paste/{out['private_id'] if private else pid}/"
    return ok_json(out, status=201, headers={"Location": location})


@handle_fail
@_html_capable
async def paste_item(request):
    ident = request.path_params["ident"]
    if request.method == "PATCH":
        return await update_paste(request, ident)
    if request.method == "DELETE":
        return await delete_paste(request, ident)
    with LOCK:
        p = find_paste(ident)
        snapshot = paste_full(p) if p else None
    if snapshot is None:
        raise Fail(404, "paste not found")
    if snapshot["private"] and ident.isdigit():
        require_auth(request)
        with LOCK:
            p = find_paste(ident)
            snapshot = paste_full(p) if p else None
        if snapshot is None:
            raise Fail(404, "paste not found")
    if wants_html(request):
        try:
            lexer = get_lexer_by_name(snapshot["language"])
        except ClassNotFound:
            lexer = get_lexer_by_name("text")
        formatter = HtmlFormatter(style=CONFIG["PYGMENTS_STYLE"], linenos=CONFIG["PYGMENTS_LINENOS"])
        code = highlight(snapshot["file_content"], lexer, formatter)
        ts = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(snapshot["pub_timestamp"]))
        title = snapshot["file_name"] or f"paste #{snapshot['paste_id']}"
        body = (
            f"<p>Language: {html.escape(snapshot['language_name'])} &middot; published {ts}"
            f"{' &middot; private' if snapshot['private'] else ''}</p>{code}"
        )
        return page(title, body)
    return ok_json(snapshot)


async def update_paste(request, ident):
    require_auth(request)
    with LOCK:
        exists = find_paste(ident) is not None
    if not exists:
        raise Fail(404, "paste not found")
    data = await read_json_object(request)
    changes = {}
    if "file_content" in data:
        if data["file_content"] is None:
            raise Fail(400, "field 'file_content' must not be null")
        changes["file_content"] = _check_content(data["file_content"])
    if "file_name" in data:
        changes["file_name"] = _check_file_name(data["file_name"])
    if "private" in data:
        if data["private"] is None:
            raise Fail(400, "field 'private' must not be null")
        changes["private"] = _check_private(data["private"])
    reguess = False
    if "language" in data:
        lang = data["language"]
        if lang is None or (isinstance(lang, str) and lang.strip() == ""):
            reguess = True
        else:
            changes["language"] = _norm_language(lang)
    with LOCK:
        p = find_paste(ident)
        if p is None:
            raise Fail(404, "paste not found")
        for key in ("file_content", "file_name", "language"):
            if key in changes:
                p[key] = changes[key]
        if reguess:
            p["language"] = guess_language(p["file_name"], p["file_content"])
        if "private" in changes:
            if changes["private"] and not p["private"]:
                p["private"] = True
                p["private_id"] = _new_private_id()
            elif not changes["private"] and p["private"]:
                p["private"] = False
                p["private_id"] = None
        out = paste_summary(p)
    return ok_json(out)


async def delete_paste(request, ident):
    require_auth(request)
    with LOCK:
        p = find_paste(ident)
        if p is None:
            raise Fail(404, "paste not found")
        del PASTES[p["paste_id"]]
    return ok_json({"paste_id": p["paste_id"]})


# ---------------------------------------------------------------------------
# App
# ---------------------------------------------------------------------------


async def http_error(request, exc):
    if exc.status_code == 405:
        msg = "method not allowed"
    elif exc.status_code == 404:
        msg = "resource not found"
    else:
        msg = exc.detail or "error"
    html_ok = request.method in ("GET", "HEAD")
    return fail_response(request, exc.status_code, msg, getattr(exc, "headers", None), html_ok)


async def server_error(request, exc):
    return fail_json(500, "internal server error")


routes = [
    Route("/", index, methods=["GET"]),
    Route("/paste/", paste_collection, methods=["GET", "POST"]),
    Route("/paste", paste_collection, methods=["GET", "POST"]),
    Route("/paste/{ident}/", paste_item, methods=["GET", "PATCH", "DELETE"]),
    Route("/paste/{ident}", paste_item, methods=["GET", "PATCH", "DELETE"]),
]

app = Starlette(
    routes=routes,
    exception_handlers={HTTPException: http_error, 500: server_error, Exception: server_error},
)
app.router.redirect_slashes = False


if __name__ == "__main__":
    import uvicorn

    uvicorn.run(
        app,
        host=os.environ.get("BIND", "0.0.0.0"),
        port=int(os.environ.get("PORT", "9212")),
        proxy_headers=False,
        log_level=os.environ.get("LOG_LEVEL", "warning"),
    )
