"""The durable, content-addressed response cache (table `llm_cache`, migration 0003).

Public API:
- `cache_key(request, schema) -> str`: sha256 over provider, model, messages (role and
  content), the output schema's JSON and the sampling settings that change the output
  (temperature, max_tokens). Stage, concurrency, retries and the prompt-cache marks do not
  change what a model answers, so they stay out (inspect_ai's rule).
- `ResponseCache(store)`: `get(key)`, `put(key, response, provider, model)`, `delete(key)`.
The SQL lives in the store (`pipeline.store_llm`); this module makes and reads the entries.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from pipeline.llm.base import LLMRequest, LLMResponse
from pipeline.llm.errors import redact
from pipeline.store import Store


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@functools.cache
def _schema_of(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()


def schema_json(schema: type[BaseModel] | None) -> Any:
    """The output schema's JSON Schema (a fresh copy: callers may change it). Generated once
    per model class: pydantic takes milliseconds per call, a share of every request's CPU."""
    return None if schema is None else copy.deepcopy(_schema_of(schema))


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@functools.cache
def _schema_text(schema: type[BaseModel]) -> str:
    return _dump(_schema_of(schema))


def key_prefix(request: LLMRequest) -> Any:
    """The key's hash state up to and through the messages (they follow `max_tokens` in the
    sorted JSON), the costly part (a whole document): the same for every reviewer of a case,
    so a round hashes each prompt's document once and `cache_key` finishes a copy per call."""
    messages = _dump([{"role": m.role, "content": m.content} for m in request.messages])
    text = '{"max_tokens":' + _dump(request.max_tokens) + ',"messages":' + messages
    return hashlib.sha256(text.encode("utf-8"))


def cache_key(request: LLMRequest, schema: type[BaseModel] | None, prefix: Any = None) -> str:
    """sha256 of `{"max_tokens", "messages", "model", "provider", "schema", "temperature"}`
    as sorted, compact JSON (the text of `json.dumps(..., sort_keys=True)`, hashed in two
    parts so that `prefix`, from `key_prefix`, can be shared)."""
    digest = (prefix if prefix is not None else key_prefix(request)).copy()
    rest = (',"model":' + _dump(request.model) + ',"provider":' + _dump(request.provider)
            + ',"schema":' + ("null" if schema is None else _schema_text(schema))
            + ',"temperature":' + _dump(request.temperature) + "}")
    digest.update(rest.encode("utf-8"))
    return digest.hexdigest()


class ResponseCache:
    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, key: str) -> LLMResponse | None:
        return self.get_many({key}).get(key)

    def get_many(self, keys: set[str]) -> dict[str, LLMResponse]:
        """The entries of `keys` that are cached and readable (one query per 500 keys)."""
        out: dict[str, LLMResponse] = {}
        for key, text in self.store.cached_responses(keys).items():
            try:
                out[key] = LLMResponse.model_validate_json(text)
            except ValueError:
                continue  # written by an incompatible version: a miss
        return out

    def put(self, key: str, response: LLMResponse, provider: str, model: str) -> None:
        self.store.save_llm_call(cached=self.row(key, response, provider, model))

    @staticmethod
    def row(key: str, response: LLMResponse, provider: str, model: str) -> tuple[Any, ...]:
        """The entry's values, serialised and redacted before the store's lock is taken."""
        return (key, provider, model, redact(response.model_dump_json()), now())

    def delete(self, key: str) -> None:
        self.store.delete_cached(key)

    def __contains__(self, key: str) -> bool:
        return self.store.is_cached(key)
