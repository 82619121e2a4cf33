"""One loopback HTTP server speaking the OpenAI, Anthropic and Gemini wire protocols.

    with FakeProviderServer() as server:
        os.environ.update(server.env())          # point the real SDKs at it
        server.faults.add(Fault("429", retry_after=1), at=0, provider="openai")
        ...
        assert not server.invalid                # every request was a valid protocol request

Every request is validated against its protocol and recorded (`server.requests`). Model output
comes from `responder(provider, request_json) -> dict | str`; the default answers a
deterministic instance of the requested JSON schema (or a short text without one).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from . import anthropic_proto, gemini_proto, openai_proto
from .common import Recorded, Reply, tokens
from .faults import Fault, FaultScript
from .schema_gen import Choice, example

Responder = Callable[[str, dict], "dict | list | str"]
FAKE_KEYS = {
    "OPENAI_API_KEY": "sk-fake-openai-0000",
    "ANTHROPIC_API_KEY": "sk-ant-fake-0000",
    "GEMINI_API_KEY": "fake-gemini-key-0000",
}
_SECRET_HEADERS = {"authorization", "x-api-key", "x-goog-api-key"}


def sdk_env(base_url: str, *, keys: bool = True) -> dict[str, str]:
    """Environment variables that point the three SDKs at a server speaking all three
    protocols at `base_url` (and, with `keys`, give them fake keys)."""
    env = {
        "OPENAI_BASE_URL": f"{base_url}/v1",
        "ANTHROPIC_BASE_URL": base_url,
        "GOOGLE_GEMINI_BASE_URL": base_url,
    }
    if keys:
        env.update(FAKE_KEYS)
    return env


class FakeProviderServer:
    def __init__(
        self,
        responder: Responder | None = None,
        *,
        int_choice: Choice = "min",
        batch_polls: int = 1,
        host: str = "127.0.0.1",
        latency_s: float = 0.0,
        call_log: str | None = None,
    ) -> None:
        self.responder = responder
        # "<arrival> <reply sent> <provider>" per model call (epoch s), appended with one
        # write each: a benchmark's view from the server's side, several servers to one file
        self._call_log = (os.open(call_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                          if call_log else None)
        self.latency_s = latency_s  # every model call waits this long (a provider's latency)
        self.int_choice = int_choice
        self.batch_polls = batch_polls  # retrieves that still report "running" before done
        # False: refuse json_schema response formats, like llama.cpp (a test sets it after start)
        self.openai_json_schema = True
        self.faults = FaultScript()
        self.requests: list[Recorded] = []
        self.state: dict[str, Any] = {"files": {}, "openai_batches": {}, "anthropic_batches": {},
                                      "gemini_batches": {}}
        self._seen_prefixes: set[str] = set()
        self._in_flight: dict[str, int] = {}
        self.max_in_flight: dict[str, int] = {}  # per provider: model calls open at once
        # public: the protocol modules hold it while they read or change `state`
        self.lock = threading.RLock()
        self._host = host
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # lifecycle -----------------------------------------------------------------------------
    def start(self) -> FakeProviderServer:
        server = self

        class Handler(_Handler):
            fake = server

        self._httpd = _Server((self._host, 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,),
                                        daemon=True, name="fake-provider-server")
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        with self.lock:  # a handler still running must not write to a closed descriptor
            if self._call_log is not None:
                os.close(self._call_log)
                self._call_log = None

    def __enter__(self) -> FakeProviderServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self.port}"

    def env(self, *, keys: bool = True) -> dict[str, str]:
        """Environment variables that point the three SDKs at this server."""
        return sdk_env(self.base_url, keys=keys)

    # convenience for tests -------------------------------------------------------------------
    def fault(self, kind: str, *, at: int | list[int] | None = None, provider: str | None = None,
              endpoint: str = "call", times: int | None = None, **kw: Any) -> None:
        self.faults.add(Fault(kind, **kw), at=at, provider=provider, endpoint=endpoint,
                        times=times)

    def random_faults(self, rate: float, kinds: tuple[str, ...] = ("429", "500", "malformed"),
                      *, seed: int = 0, provider: str | None = None,
                      endpoint: str = "call") -> None:
        self.faults.add_random(rate, [Fault(k) for k in kinds], seed=seed, provider=provider,
                               endpoint=endpoint)

    def calls(self, provider: str | None = None) -> list[Recorded]:
        with self.lock:
            return [r for r in self.requests
                    if r.endpoint == "call" and provider in (None, r.provider)]

    @property
    def invalid(self) -> list[Recorded]:
        """Requests that broke their protocol (not the ones cut short by a client that went
        away mid-request: see `cut`)."""
        with self.lock:
            return [r for r in self.requests if r.problems and r.endpoint != "cut"]

    @property
    def cut(self) -> list[Recorded]:
        """Requests whose body never fully arrived (the client was killed or hung up)."""
        with self.lock:
            return [r for r in self.requests if r.endpoint == "cut"]

    def reset(self) -> None:
        with self.lock:
            self.requests.clear()
            self._seen_prefixes.clear()
            self.max_in_flight.clear()
        self.faults.clear()

    # model output ------------------------------------------------------------------------------
    def produce(self, provider: str, request: dict, schema: dict | None) -> Any:
        """The answer value: responder output, else a schema instance, else a short text."""
        if self.responder is not None:
            return self.responder(provider, request)
        if schema is not None:
            return example(schema, choice=self.int_choice)
        return f"fake {provider} answer from {request.get('model', 'model')}"

    def cached_tokens(self, provider: str, prefix: str) -> int:
        """Tokens of `prefix` if the same prefix was sent before (implicit prompt caching)."""
        if not prefix:
            return 0
        digest = hashlib.sha256(f"{provider}\0{prefix}".encode()).hexdigest()
        with self.lock:
            if digest in self._seen_prefixes:
                return tokens(prefix)
            self._seen_prefixes.add(digest)
            return 0

    def opened(self, provider: str, step: int) -> None:
        """Count a model call in (+1) or out (-1); keeps the most open at once."""
        with self.lock:
            now = self._in_flight.get(provider, 0) + step
            self._in_flight[provider] = now
            self.max_in_flight[provider] = max(now, self.max_in_flight.get(provider, 0))

    def log_call(self, provider: str, arrived: float) -> None:
        line = f"{arrived:.6f} {time.time():.6f} {provider}\n".encode()
        with self.lock:
            if self._call_log is not None:
                os.write(self._call_log, line)

    def record(self, rec: Recorded) -> Recorded:
        with self.lock:
            rec.index = len(self.requests)
            self.requests.append(rec)
        return rec


def _route(method: str, path: str, headers: dict[str, str]) -> tuple[str, Any] | None:
    """(provider, handler) for a request path; None for unknown routes."""
    if "x-goog-api-key" in headers or "/v1beta/" in path or ":generateContent" in path \
            or ":batchGenerateContent" in path:
        return "gemini", gemini_proto.handle
    if path.startswith("/v1/messages"):
        return "anthropic", anthropic_proto.handle
    if path.startswith(("/v1/chat/completions", "/v1/responses", "/v1/files", "/v1/batches")):
        return "openai", openai_proto.handle
    return None


def _is_model_call(path: str) -> bool:
    """Chat, responses, messages and generateContent requests (not batch or file ones)."""
    return path in ("/v1/chat/completions", "/v1/responses", "/v1/messages") \
        or path.endswith(":generateContent")


def _parse_body(raw: bytes, content_type: str) -> tuple[Any, list[str]]:
    """The JSON body (None if not JSON) and the problem a broken one makes."""
    if not raw or "json" not in content_type:
        return None, []
    try:
        return json.loads(raw), []
    except json.JSONDecodeError as exc:
        return None, [f"body is not JSON: {exc}"]


class _Server(ThreadingHTTPServer):
    # the default backlog of 5 refuses connections when a client opens dozens at once
    request_queue_size = 1024


class _Handler(BaseHTTPRequestHandler):
    fake: FakeProviderServer
    protocol_version = "HTTP/1.1"
    # one write per reply (headers and body buffered, flushed after each request), sent at
    # once: otherwise Nagle and the client's delayed ACK add up to 40 ms to every call
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        return

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_DELETE(self) -> None:
        self._serve("DELETE")

    def _serve(self, method: str) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        arrived = time.time()
        if len(raw) < length:  # the client went away mid-request (e.g. a killed build)
            self.fake.record(Recorded(
                index=0, provider="", endpoint="cut", method=method, path=self.path,
                headers={}, body=None, problems=[f"body cut short: {len(raw)} of {length} bytes"]))
            self.close_connection = True
            return
        split = urlsplit(self.path)
        headers = self._request_headers(split.query)
        route = _route(method, split.path, headers)
        if route is None:
            self._send(Reply(404, {"error": {"message": f"no route {method} {split.path}"}}))
            return
        provider, handle = route
        body, problems = _parse_body(raw, headers.get("content-type", ""))
        rec = Recorded(
            index=0, provider=provider, endpoint="call", method=method, path=split.path,
            headers={k: ("<present>" if k in _SECRET_HEADERS else v) for k, v in headers.items()},
            body=body, problems=problems,
        )
        self.fake.record(rec)  # recorded on arrival: a client that gave up still counts
        reply = self._answer(handle, rec, headers, raw, split.query)
        rec.status = reply.status
        self._send(reply)
        if _is_model_call(split.path):
            self.fake.log_call(provider, arrived)

    def _request_headers(self, query: str) -> dict[str, str]:
        """Lower-cased headers; a `key=` query counts as Gemini's key header for routing."""
        headers = {k.lower(): v for k, v in self.headers.items()}
        if "key=" in (query or "") and "x-goog-api-key" not in headers:
            headers["x-goog-api-key"] = "<query>"
        return headers

    def _answer(self, handle: Any, rec: Recorded, headers: dict[str, str], raw: bytes,
                query: str) -> Reply:
        """The protocol handler's reply, counted in flight (and delayed) if a model call."""
        model_call = _is_model_call(rec.path)
        if model_call:
            self.fake.opened(rec.provider, +1)
        try:
            if self.fake.latency_s > 0 and model_call:
                time.sleep(self.fake.latency_s)
            reply = handle(self.fake, rec, headers, raw, query)
        except Exception as exc:  # a bug in the fake itself: report it as a 500
            reply = Reply(500, {"error": {"message": f"fake server error: {exc!r}"}})
            rec.problems.append(f"fake server exception: {exc!r}")
        finally:
            if model_call:
                self.fake.opened(rec.provider, -1)
        return reply

    def _send(self, reply: Reply) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.send_response(reply.status)
            self.send_header("content-type", reply.content_type)
            self.send_header("content-length", str(len(reply.raw)))
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(reply.raw)


