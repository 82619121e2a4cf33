"""Provider interface: request/response models shared by every adapter and the client wrapper."""

from __future__ import annotations

import os
import re
import socket
from typing import Literal, Protocol, runtime_checkable

import httpx2
from pydantic import BaseModel, Field, ValidationError

from .errors import MissingKeyError


class Message(BaseModel):
    role: Literal["system", "user", "assistant"]
    content: str
    # True marks the end of the shared prefix (Anthropic cache_control: ephemeral on this block;
    # other providers cache implicitly and ignore it).
    cache: bool = False


class LLMRequest(BaseModel):
    provider: str
    model: str
    messages: list[Message]
    temperature: float | None = None
    max_tokens: int = 4096
    stage: str = ""


class Usage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0


class LLMResponse(BaseModel):
    text: str
    parsed: dict | None = None
    finish: Literal["stop", "length", "refused", "error"]
    usage: Usage = Field(default_factory=Usage)
    model: str
    response_id: str | None = None


class BatchItem(BaseModel):
    custom_id: str
    request: LLMRequest


class BatchResult(BaseModel):
    custom_id: str
    response: LLMResponse | None = None
    error: str | None = None


class BatchStatus(BaseModel):
    batch_id: str
    state: Literal["running", "done", "failed", "cancelled", "expired"]
    results: list[BatchResult] = Field(default_factory=list)


@runtime_checkable
class Provider(Protocol):
    name: str

    def complete(self, request: LLMRequest, schema: type[BaseModel] | None) -> LLMResponse:
        """One call. Structured output via the SDK's schema support when `schema` is given;
        `parsed` is then a plain dict. Output cut by the token limit gives finish="length"
        (never raises for that). Transport/API failures raise errors.ProviderError."""
        ...

    def submit_batch(self, items: list[BatchItem], schema: type[BaseModel] | None) -> str:
        """Submit a provider batch job; returns the provider's batch id (store it to resume)."""
        ...

    def poll_batch(self, batch_id: str, schema: type[BaseModel] | None) -> BatchStatus:
        """Poll a batch; when done, results are matched to items by custom_id."""
        ...


# helpers shared by the adapters ------------------------------------------------------------------
DEFAULT_TIMEOUT_S = 120.0


# The client's per-provider semaphore is the bound on calls in flight; the connection pool
# must not be a second, lower one (httpx2's default keeps only 20 alive, so at a concurrency
# of 32 every round would reopen connections).
POOL_CONNECTIONS = 512


# The request goes out as two writes (headers, then body): with Nagle's algorithm on, the
# body waits for the server's delayed ACK of the headers, up to 40 ms more per call.
SOCKET_OPTIONS = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def http_client(timeout_s: float = DEFAULT_TIMEOUT_S) -> httpx2.Client:
    """The explicit httpx2 client every adapter hands to its SDK."""
    limits = httpx2.Limits(max_connections=POOL_CONNECTIONS,
                           max_keepalive_connections=POOL_CONNECTIONS)
    return httpx2.Client(timeout=httpx2.Timeout(timeout_s, connect=min(10.0, timeout_s)),
                         limits=limits, transport=httpx2.HTTPTransport(
                             limits=limits, socket_options=SOCKET_OPTIONS))


def env_key(provider: str, *names: str, given: str | None = None) -> str:
    """The API key from the first set variable; a clear error naming the variable otherwise."""
    if given:
        return given
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    raise MissingKeyError(provider, names)


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def validate_output(text: str | None, schema: type[BaseModel] | None) -> dict | None:
    """`text` validated against `schema`, as a plain dict; None if it does not validate.
    (The wrapper re-validates `text` itself to get the error message for a re-ask.)"""
    if schema is None or not text:
        return None
    match = _FENCE.match(text)
    try:
        model = schema.model_validate_json(match.group(1) if match else text)
    except (ValidationError, ValueError):
        return None
    return model.model_dump(mode="json")


def check_one_model(items: list[BatchItem], provider: str) -> str:
    models = {item.request.model for item in items}
    if len(models) != 1:
        raise ValueError(f"{provider} batch jobs take one model per job, got {sorted(models)}")
    ids = [item.custom_id for item in items]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{provider} batch: custom ids must be unique")
    return models.pop()
