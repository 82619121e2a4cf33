"""Users, password hashing and bearer tokens (all in memory)."""

import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field

from fastapi import Header

from .errors import ApiError

TOKEN_TTL_SECONDS = 3600
_ITERATIONS = 60_000


@dataclass
class User:
    id: int
    username: str
    salt: bytes
    password_hash: bytes
    created_at: str
    tokens: set[str] = field(default_factory=set)


_lock = threading.Lock()
_users: dict[str, User] = {}
_tokens: dict[str, tuple[int, float]] = {}  # token -> (user id, expiry epoch seconds)
_next_user_id = 1


def _hash(password: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, _ITERATIONS)


def register(username: str, password: str, created_at: str) -> User:
    global _next_user_id
    salt = secrets.token_bytes(16)
    digest = _hash(password, salt)
    with _lock:
        if username in _users:
            raise ApiError(409, "USERNAME_TAKEN", f"用户名 {username} 已被占用")
        user = User(_next_user_id, username, salt, digest, created_at)
        _users[username] = user
        _next_user_id += 1
    return user


def login(username: str, password: str) -> str:
    user = _users.get(username)
    if user is None or not hmac.compare_digest(_hash(password, user.salt), user.password_hash):
        raise ApiError(401, "INVALID_CREDENTIALS", "用户名或密码错误")
    token = secrets.token_urlsafe(32)
    with _lock:
        _tokens[token] = (user.id, time.time() + TOKEN_TTL_SECONDS)
    return token


def logout(token: str) -> None:
    with _lock:
        _tokens.pop(token, None)


def _unauthorized(message: str) -> ApiError:
    return ApiError(401, "UNAUTHORIZED", message, headers={"WWW-Authenticate": "Bearer"})


def _token_from_header(authorization: str | None) -> str:
    if not authorization:
        raise _unauthorized("缺少 Authorization 请求头")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized("Authorization 请求头格式应为 Bearer <token>")
    return token.strip()


def user_by_id(user_id: int) -> User:
    for user in _users.values():
        if user.id == user_id:
            return user
    raise _unauthorized("令牌无效或已过期")


def _resolve(authorization: str | None) -> tuple[str, User]:
    token = _token_from_header(authorization)
    with _lock:
        entry = _tokens.get(token)
        if entry is None or entry[1] < time.time():
            _tokens.pop(token, None)
            raise _unauthorized("令牌无效或已过期")
        user_id = entry[0]
    return token, user_by_id(user_id)


async def current_token(authorization: str | None = Header(default=None)) -> str:
    return _resolve(authorization)[0]


async def current_user(authorization: str | None = Header(default=None)) -> User:
    return _resolve(authorization)[1]
