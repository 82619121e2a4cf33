"""Network namespaces with only loopback, held by an fd (no holder process, nothing to reap).

A namespace is created by a short-lived thread that unshares its network namespace, brings
`lo` up and opens `/proc/thread-self/ns/net`; the pipeline keeps that fd, so the namespace lives
exactly as long as the sandbox (or the pipeline, if it is SIGKILLed) plus whatever still runs
in it. Namespaces are per thread in Linux, so the pipeline itself can act inside one from a
worker thread (`call_in_netns`): the service readiness probe does that, and so does
`Forwarder`, which relays TCP between a loopback port on the host and the same port inside the
namespace (for the pipeline's own requests to a sandboxed service). Only loopback is used.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import socket
import struct
import threading
from collections.abc import Callable
from typing import TypeVar

from .ports import LOOPBACK

CLONE_NEWNET = 0x40000000
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
T = TypeVar("T")

_libc = ctypes.CDLL(None, use_errno=True)


def _errcheck(rc: int, what: str) -> None:
    if rc != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _in_thread(body: Callable[[], T]) -> T:
    """Run `body` in a fresh thread (whose namespaces die with it) and return its result."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = body()
        except BaseException as exc:  # re-raised in the caller
            box["error"] = exc

    t = threading.Thread(target=run, name="repogenesis-netns", daemon=True)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        raw = fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack("16sH14x", b"lo", 0))
        flags = struct.unpack("16sH14x", raw)[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def new_netns() -> int:
    """A new network namespace with `lo` up; returns an fd the caller must close."""

    def body() -> int:
        _errcheck(_libc.unshare(CLONE_NEWNET), "unshare(CLONE_NEWNET)")
        fd = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        try:
            _loopback_up()
        except BaseException:
            os.close(fd)
            raise
        return fd

    return _in_thread(body)


def call_in_netns(fd: int | None, fn: Callable[..., T], *args: object, **kwargs: object) -> T:
    """`fn(*args, **kwargs)` run from a thread inside namespace `fd` (None: right here)."""
    if fd is None:
        return fn(*args, **kwargs)

    def body() -> T:
        _errcheck(_libc.setns(fd, CLONE_NEWNET), "setns(CLONE_NEWNET)")
        return fn(*args, **kwargs)

    return _in_thread(body)


def _listener(port: int) -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((LOOPBACK, port))
        s.listen(128)
    except BaseException:
        s.close()
        raise
    return s


def _connect(port: int) -> socket.socket:
    return socket.create_connection((LOOPBACK, port), timeout=5.0)


class Forwarder:
    """Relay TCP from 127.0.0.1:`port` in one namespace to 127.0.0.1:`port` in another.

    `listen_ns`/`connect_ns` are namespace fds, None meaning the pipeline's own. Binding
    happens in the constructor, so a taken port raises OSError (EADDRINUSE) right away.
    """

    def __init__(self, port: int, listen_ns: int | None, connect_ns: int | None) -> None:
        self.port = port
        self._connect_ns = connect_ns
        self._server = call_in_netns(listen_ns, _listener, port)
        self._socks: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept_loop, name=f"forward-{port}", daemon=True).start()

    def _accept_loop(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _track(self, *socks: socket.socket) -> bool:
        with self._lock:
            if self._closed:
                return False
            self._socks.update(socks)
            return True

    def _serve(self, client: socket.socket) -> None:
        try:
            upstream = call_in_netns(self._connect_ns, _connect, self.port)
        except OSError:
            client.close()  # nothing listens there (yet): the client sees a closed connection
            return
        upstream.settimeout(None)
        if not self._track(client, upstream):
            client.close()
            upstream.close()
            return
        t = threading.Thread(target=self._pump, args=(upstream, client), daemon=True)
        t.start()
        self._pump(client, upstream)
        t.join()
        with self._lock:
            self._socks.difference_update((client, upstream))
        client.close()
        upstream.close()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            socks = list(self._socks)
        with contextlib.suppress(OSError):
            self._server.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        with contextlib.suppress(OSError):
            self._server.close()
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
