"""Logins for the Area Chair app: one-time tokens kept only as hashes, a signed session
cookie, and a CSRF token bound to the session (every form and every POST carries it)."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

from pipeline.store import Store

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
SESSION_COOKIE = "rg_session"
LOGIN_COOKIE = "rg_login"
SESSION_AGE_S = 12 * 3600


def token_hash(token: str) -> str:
    """Tokens are 256 random bits, so one sha256 is enough (no password stretching needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_user(store: Store, name: str) -> str:
    """Create (or re-key) a chair; returns the token, which is never stored."""
    if not NAME_RE.match(name):
        raise ValueError(f"chair name {name!r}: use letters, digits, '.', '_' or '-' "
                         f"(at most 40)")
    token = secrets.token_urlsafe(32)
    store.add_chair_user(name, token_hash(token))
    return token


def check_login(store: Store, name: str, token: str) -> bool:
    stored = store.chair_token_hash(name) if NAME_RE.match(name or "") else None
    # compare against a dummy too, so an unknown name takes as long as a wrong token
    return hmac.compare_digest(stored or "0" * 64, token_hash(token or "")) and stored is not None


def load_secret(state_dir: Path) -> bytes:
    """The cookie-signing key, made once per data folder (mode 0600)."""
    path = state_dir / "chair.secret"
    if not path.is_file():
        state_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32))
    return path.read_text().strip().encode()


class Sessions:
    def __init__(self, secret: bytes) -> None:
        self._session = URLSafeTimedSerializer(secret, salt="chair-session")
        self._login = URLSafeTimedSerializer(secret, salt="chair-login")

    def make(self, user: str, token_digest: str) -> str:
        """A session bound to the token it was opened with: `add-user` again ends it."""
        return self._session.dumps({"u": user, "c": secrets.token_urlsafe(24),
                                    "k": token_digest[:16]})

    def read(self, cookie: str | None) -> dict[str, Any] | None:
        if not cookie:
            return None
        try:
            data = self._session.loads(cookie, max_age=SESSION_AGE_S)
        except BadSignature:
            return None
        return data if isinstance(data, dict) and {"u", "c", "k"} <= set(data) else None

    def login_token(self) -> tuple[str, str]:
        """(value for the login form, signed cookie holding it): double-submit CSRF for the
        only form shown without a session."""
        value = secrets.token_urlsafe(24)
        return value, self._login.dumps(value)

    def check_login_token(self, cookie: str | None, value: str | None) -> bool:
        if not cookie or not value:
            return False
        try:
            expected = self._login.loads(cookie, max_age=3600)
        except BadSignature:
            return False
        return hmac.compare_digest(str(expected), value)


def session_current(store: Store, session: dict[str, Any]) -> bool:
    """The chair still exists and still has the token the session was opened with."""
    stored = store.chair_token_hash(session["u"])
    return stored is not None and hmac.compare_digest(stored[:16], str(session["k"]))


def csrf_ok(session: dict[str, Any] | None, value: str | None) -> bool:
    return bool(session and value and hmac.compare_digest(session["c"], value))
