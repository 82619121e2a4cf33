"""One error type for every provider, with a retry decision the client wrapper can act on.

`classify(exc, provider)` maps the exceptions of the openai, anthropic and google-genai SDKs (and
raw transport errors) onto `ProviderError`. Retryable: 408/409/429/5xx/529, connection errors,
timeouts, malformed response bodies. Not retryable: spend limits, auth, 4xx validation.
Messages are redacted: no API key ever appears in them.
"""

from __future__ import annotations

import json
import os
import re
import time
from email.utils import parsedate_to_datetime
from typing import Any

_KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")
_KEY_PATTERNS = re.compile(
    r"(sk-[A-Za-z0-9_\-]{6,}|AIza[0-9A-Za-z_\-]{10,}|(?i:bearer)\s+[A-Za-z0-9._\-]{6,}"
    r"|(?<=key=)[^&\s\"']+|(?<=x-api-key: )\S+|(?<=x-goog-api-key: )\S+)"
)
# Anthropic error codes (body error.details.error_code) that are 429s but must not be retried.
_NO_RETRY_CODES = {
    "insufficient_quota",  # openai: out of credit, a 429 that waiting does not fix
    "contract_spend_limit_reached",
    "enforced_spend_limit_reached",
    "ramp_limit_exceeded",
    "linked_organization_spend_limit_reached",
    "linked_organization_billing_unavailable",
}
_NO_RETRY_CLASSES = (
    "ContractSpendLimitReachedError",
    "EnforcedSpendLimitReachedError",
    "RampLimitExceededError",
    "LinkedOrganizationSpendLimitReachedError",
    "LinkedOrganizationBillingUnavailableError",
    "PaymentRequiredError",
    "OrganizationOnHoldError",
)


class ProviderError(Exception):
    """A failed provider call. `kind` is a short label for the ledger outcome."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        retryable: bool,
        status: int | None = None,
        retry_after_s: float | None = None,
        kind: str = "error",
    ) -> None:
        self.message = redact(message)
        super().__init__(self.message)
        self.provider = provider
        self.retryable = retryable
        self.status = status
        self.retry_after_s = retry_after_s
        self.kind = kind
        self.cause_type: str | None = None  # the SDK exception class it came from

    def __repr__(self) -> str:
        return (
            f"ProviderError(provider={self.provider!r}, kind={self.kind!r}, status={self.status}, "
            f"retryable={self.retryable}, retry_after_s={self.retry_after_s})"
        )


class MissingKeyError(RuntimeError):
    """A configured provider without its API key: names the variable(s) to set."""

    def __init__(self, provider: str, variables: tuple[str, ...] | list[str]) -> None:
        self.provider = provider
        self.variables = tuple(variables)
        names = " or ".join(self.variables)
        super().__init__(f"{provider} provider needs an API key: set {names}")


def redact(text: str) -> str:
    """Remove API keys (the configured ones and anything key-shaped) from a message."""
    for var in _KEY_VARS:
        value = os.environ.get(var)
        if value and len(value) >= 4:
            text = text.replace(value, "***")
    return _KEY_PATTERNS.sub("***", text)


def parse_retry_after(headers: Any) -> float | None:
    """Seconds to wait from `retry-after-ms` or `Retry-After` (seconds or HTTP date)."""
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000.0)
    except (TypeError, ValueError):
        pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, IndexError):
        return None


def _gemini_retry_delay(body: Any) -> float | None:
    """google.rpc.RetryInfo in a Gemini error body: {"retryDelay": "30s"}."""
    if isinstance(body, list) and body:
        body = body[0]
    details = (body or {}).get("error", {}).get("details") if isinstance(body, dict) else None
    for item in details or []:
        delay = item.get("retryDelay") if isinstance(item, dict) else None
        if isinstance(delay, str) and delay.endswith("s"):
            try:
                return float(delay[:-1])
            except ValueError:
                return None
    return None


def _status_kind(status: int) -> tuple[bool, str]:
    if status == 429:
        return True, "rate_limit"
    if status == 529:
        return True, "overloaded"
    if status >= 500:
        return True, "server"
    if status in (408, 409):
        return True, "conflict" if status == 409 else "timeout"
    if status in (401, 403):
        return False, "auth"
    if status == 402:
        return False, "spend_limit"
    return False, "bad_request"


def _body_message(body: Any, fallback: str) -> str:
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
    return fallback


def _from_status(
    exc: Exception, provider: str, status: int, headers: Any, body: Any
) -> ProviderError:
    retryable, kind = _status_kind(status)
    code = None
    if isinstance(body, dict):
        err = body.get("error", body)  # openai passes the inner error object
        if isinstance(err, dict):
            code = (err.get("details") or {}).get("error_code") if isinstance(
                err.get("details"), dict
            ) else None
            if err.get("code") == "insufficient_quota" or err.get("type") == "insufficient_quota":
                code = "insufficient_quota"
            if err.get("type") == "overloaded_error":
                retryable, kind = True, "overloaded"
    if type(exc).__name__ in _NO_RETRY_CLASSES or code in _NO_RETRY_CODES:
        retryable, kind = False, "spend_limit"
    retry_after = parse_retry_after(headers) if retryable else None
    if retryable and retry_after is None:
        retry_after = _gemini_retry_delay(body)
    if headers is not None and retryable and str(headers.get("x-should-retry", "")) == "false":
        retryable = False
    msg = f"{provider} HTTP {status} ({kind}): {_body_message(body, str(exc))}"
    return ProviderError(
        msg[:2000], provider=provider, retryable=retryable, status=status,
        retry_after_s=retry_after, kind=kind,
    )


def classify(exc: BaseException, provider: str) -> ProviderError:
    """Map any SDK / transport exception onto a ProviderError with a retry decision.
    Adapters raise it `from None`: the SDK exception (whose text may echo a key) is not chained;
    its class name is kept in `cause_type`."""
    if isinstance(exc, ProviderError):
        return exc
    err = _classify(exc, provider)
    err.cause_type = type(exc).__name__
    return err


def _classify(exc: BaseException, provider: str) -> ProviderError:
    mod = type(exc).__module__ or ""
    found = None
    if mod.startswith(("openai", "anthropic")):
        found = _from_stainless(exc, provider)
    elif mod.startswith("google.genai"):
        found = _from_genai(exc, provider)
    return found if found is not None else _from_transport(exc, provider)


def _from_stainless(exc: BaseException, provider: str) -> ProviderError | None:
    """openai / anthropic errors (the same Stainless layout); None for a transport error."""
    name = type(exc).__name__
    status = getattr(exc, "status_code", None)
    response = getattr(exc, "response", None)
    if isinstance(status, int):
        body = getattr(exc, "body", None)
        return _from_status(exc, provider, status, getattr(response, "headers", None), body)
    if name == "APITimeoutError":
        return ProviderError(f"{provider}: request timed out", provider=provider,
                             retryable=True, kind="timeout")
    if name == "APIConnectionError":
        return ProviderError(f"{provider}: connection error: {exc}", provider=provider,
                             retryable=True, kind="connection")
    if name == "APIResponseValidationError":
        return ProviderError(f"{provider}: malformed response: {exc}", provider=provider,
                             retryable=True, kind="malformed")
    return None


def _from_genai(exc: BaseException, provider: str) -> ProviderError | None:
    """google-genai errors; None for a transport error."""
    code = getattr(exc, "code", None)
    if isinstance(code, int) and code > 0:
        response = getattr(exc, "response", None)
        body = {"error": getattr(exc, "details", None)}
        if isinstance(getattr(exc, "details", None), dict) and "error" in exc.details:
            body = exc.details
        return _from_status(exc, provider, code, getattr(response, "headers", None), body)
    if type(exc).__name__ == "UnknownApiResponseError":
        return ProviderError(f"{provider}: malformed response: {exc}", provider=provider,
                             retryable=True, kind="malformed")
    return None


def _from_transport(exc: BaseException, provider: str) -> ProviderError:
    """Raw transport errors (httpx2 / httpx), JSON decoding of a malformed body, the rest."""
    name = type(exc).__name__
    mod = type(exc).__module__ or ""
    if "Timeout" in name or isinstance(exc, TimeoutError):
        return ProviderError(f"{provider}: request timed out", provider=provider,
                             retryable=True, kind="timeout")
    if mod.startswith(("httpx", "httpcore")) or isinstance(exc, ConnectionError):
        return ProviderError(f"{provider}: connection error: {name}: {exc}", provider=provider,
                             retryable=True, kind="connection")
    if isinstance(exc, json.JSONDecodeError):
        return ProviderError(f"{provider}: malformed response body: {exc}", provider=provider,
                             retryable=True, kind="malformed")
    return ProviderError(f"{provider}: {name}: {exc}", provider=provider, retryable=False,
                         kind="unknown")
