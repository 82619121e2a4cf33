"""The Area Chair web app. Every page but /login needs a session; every POST needs the
session's CSRF token; untrusted test code is only ever rendered escaped (pygments escapes,
jinja2 autoescapes) under a nonce-only Content-Security-Policy."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from pipeline.chair.core import ChairError, Verdict, parse_scores
from pipeline.chair.service import (
    Submission,
    claim,
    counts,
    decide,
    load_case,
    queue,
    rubric_ranges,
)
from pipeline.store import Store
from pipeline.web.auth import (
    LOGIN_COOKIE,
    SESSION_AGE_S,
    SESSION_COOKIE,
    Sessions,
    check_login,
    csrf_ok,
    load_secret,
    session_current,
)
from pipeline.web.pages import case_context, queue_context

TEMPLATES = Path(__file__).resolve().parent / "templates"
OPEN_PATHS = {"/login"}


def create_app(data_dir: Path, *, secure_cookies: bool = False) -> FastAPI:
    site = _Site.open(data_dir, secure_cookies)
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    app.middleware("http")(_guard(site))
    _add_session_routes(app, site)
    _add_case_routes(app, site)
    app.state.store = site.store
    return app


@dataclass
class _Site:
    """What every route shares (one per app): the routes are closures over it."""

    data_dir: Path
    store: Store
    sessions: Sessions
    env: Environment
    secure_cookies: bool
    publishing: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def open(cls, data_dir: Path, secure_cookies: bool) -> _Site:
        state_dir = data_dir / ".repogenesis"
        store = Store.open(state_dir / "state.db")
        sessions = Sessions(load_secret(state_dir))
        env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(
            default=True, default_for_string=True))
        env.filters["q"] = lambda s: quote(str(s), safe="")
        return cls(data_dir, store, sessions, env, secure_cookies)

    def render(self, request: Request, name: str, status: int = 200,
               **ctx: Any) -> HTMLResponse:
        ctx |= {"user": getattr(request.state, "user", None), "nonce": request.state.nonce,
                "csrf": getattr(request.state, "csrf", "")}
        return HTMLResponse(self.env.get_template(name).render(**ctx), status_code=status)

    def cookie(self, response: Response, name: str, value: str, max_age: int) -> None:
        response.set_cookie(name, value, max_age=max_age, httponly=True, samesite="strict",
                            secure=self.secure_cookies, path="/")


def _guard(site: _Site) -> Callable[..., Any]:
    """The middleware: a nonce per response, and no page but /login without a session."""

    async def guard(request: Request, call_next):  # type: ignore[no-untyped-def]
        request.state.nonce = secrets.token_urlsafe(16)
        session = site.sessions.read(request.cookies.get(SESSION_COOKIE))
        if session is not None and not session_current(site.store, session):
            session = None
        if session is not None:
            request.state.user, request.state.csrf = session["u"], session["c"]
        if request.url.path not in OPEN_PATHS and session is None:
            if request.method == "GET":
                response: Response = RedirectResponse("/login", status_code=303)
            else:
                response = Response("log in first", status_code=401)
            return _secure(response, request.state.nonce)
        return _secure(await call_next(request), request.state.nonce)

    return guard


async def _checked_form(request: Request) -> Any:
    """The posted form, or None when its CSRF token is not the session's."""
    form = await request.form()
    session = {"c": getattr(request.state, "csrf", "")}
    return form if csrf_ok(session, str(form.get("csrf", ""))) else None


def _refused_csrf() -> Response:
    return Response("missing or wrong CSRF token; reload the page", status_code=403)


def _add_session_routes(app: FastAPI, site: _Site) -> None:
    """Log in and out."""

    @app.get("/login")
    def login_page(request: Request, error: str = "") -> Response:
        value, cookie = site.sessions.login_token()
        response = site.render(request, "login.html", error=error, login_csrf=value)
        site.cookie(response, LOGIN_COOKIE, cookie, 3600)
        return response

    @app.post("/login")
    async def login(request: Request) -> Response:
        form = await request.form()
        name, token = str(form.get("name", "")), str(form.get("token", ""))
        if not site.sessions.check_login_token(request.cookies.get(LOGIN_COOKIE),
                                               str(form.get("csrf", ""))):
            return Response("missing or wrong CSRF token; reload the login page",
                            status_code=403)
        if not check_login(site.store, name, token):
            return RedirectResponse("/login?error=unknown+name+or+token", status_code=303)
        response = RedirectResponse("/", status_code=303)
        site.cookie(response, SESSION_COOKIE,
                    site.sessions.make(name, site.store.chair_token_hash(name) or ""),
                    SESSION_AGE_S)
        response.delete_cookie(LOGIN_COOKIE, path="/")
        return response

    @app.post("/logout")
    async def logout(request: Request) -> Response:
        if await _checked_form(request) is None:
            return _refused_csrf()
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response


def _add_case_routes(app: FastAPI, site: _Site) -> None:
    """The queue, a case's page, and deciding on it."""
    from pipeline.reports.release import publish_data

    store, data_dir = site.store, site.data_dir

    @app.get("/")
    def queue_page(request: Request, task: str = "", state: str = "waiting", q: str = "",
                   done: str = "") -> Response:
        try:
            items = queue(store, task_id=task or None, state=state, search=q or None)
        except ChairError as exc:
            return site.render(request, "error.html", 400, message=str(exc))
        return site.render(request, "queue.html", **queue_context(store, items, task, state, q),
                           counts=counts(store), done=done)

    @app.get("/case/{case_id:path}")
    def case_page(request: Request, case_id: str) -> Response:
        try:
            view = load_case(store, case_id)
        except ChairError as exc:
            return site.render(request, "error.html", 404, message=str(exc))
        holder = claim(store, case_id, request.state.user) if view.state == "waiting" else None
        order = [i.view.case.case_id for i in queue(store)]
        return site.render(request, "case.html", **case_context(store, data_dir, view, order),
                           holder=holder)

    @app.post("/case/{case_id:path}/decide")
    async def decide_post(request: Request, case_id: str) -> Response:
        form = await _checked_form(request)
        if form is None:
            return _refused_csrf()
        try:
            decide(store, data_dir, case_id, _submission(form, request.state.user))
        except ValueError as exc:  # ChairError, an unknown verdict or a bad number
            return site.render(request, "error.html", 409, message=str(exc),
                               back=f"/case/{quote(case_id, safe='')}")
        with site.publishing:  # the decision is committed already; the splits follow it
            publish_data(data_dir, store)
        return RedirectResponse(f"/?done={quote(case_id, safe='')}", status_code=303)


def _submission(form: Any, chair: str) -> Submission:
    """The decision a case page posted; ValueError for an unknown verdict or a bad number."""
    verdict = Verdict(str(form.get("verdict", "")))
    scores, note = None, str(form.get("note", "")).strip()
    if verdict is Verdict.ACCEPT:
        scores = parse_scores(",".join(str(form.get(k, "")) for k in "cvrl"), rubric_ranges())
    last = int(str(form.get("last", "")))
    return Submission(verdict, chair=chair, scores=scores, note=note,
                      expected_version=str(form.get("version", "")), expected_last=last)


def _secure(response: Response, nonce: str) -> Response:
    response.headers["Content-Security-Policy"] = (
        f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; connect-src 'self'")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response
