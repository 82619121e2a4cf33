"""A provider stand-in that costs almost no CPU: the first call of each endpoint is answered by
the fake provider server (in this process), every later call gets that answer replayed after
the latency. One asyncio loop, no validation, no model playing.

    python bench/plain_server.py --latency-ms 300 [--log FILE]

Why: the fake server validates every request and plays the models, ~0.6-0.9 ms of CPU a call
on the cores the client uses; a real provider's CPU is not on them. With this server
`bench/providers.py --server plain` shows what the client alone costs a round. Prints one JSON
line `{"env": {...}}` once it listens on 127.0.0.1; `--log` gets one line per call,
`<arrival> <reply sent>` (epoch seconds); serves until stdin closes.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.llm.fake_server.server import FakeProviderServer, sdk_env  # noqa: E402

Reply = tuple[int, list[tuple[str, str]], bytes]
_HOP = {"connection", "transfer-encoding", "content-length", "date", "server"}


def ask_fake(port: int, method: str, path: str, headers: list[tuple[str, str]],
             body: bytes) -> Reply:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=dict(headers))
        resp = conn.getresponse()
        kept = [(k, v) for k, v in resp.getheaders() if k.lower() not in _HOP]
        return resp.status, kept, resp.read()
    finally:
        conn.close()


class Plain:
    def __init__(self, latency_s: float, fake_port: int, log: Path | None) -> None:
        self.latency_s = latency_s
        self.fake_port = fake_port
        self.replies: dict[str, Reply] = {}
        self.log = log.open("a", buffering=1) if log is not None else None

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
                method, target, _ = head[0].split(" ", 2)
                headers = [tuple(x.strip() for x in line.split(":", 1))
                           for line in head[1:] if ":" in line]
                length = next((int(v) for k, v in headers if k.lower() == "content-length"), 0)
                body = await reader.readexactly(length) if length else b""
                arrived = time.time()
                route = target.split("?", 1)[0]
                if route not in self.replies:  # the first call: the fake server's answer
                    self.replies[route] = await asyncio.to_thread(
                        ask_fake, self.fake_port, method, target, headers, body)
                await asyncio.sleep(self.latency_s)
                status, kept, raw = self.replies[route]
                lines = [f"HTTP/1.1 {status} OK", f"content-length: {len(raw)}",
                         *(f"{k}: {v}" for k, v in kept)]
                if self.log is not None:  # before the reply, so a client that has it sees the line
                    self.log.write(f"{arrived:.6f} {time.time():.6f}\n")
                writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + raw)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass  # the client left, or the server is closing
        finally:
            writer.close()


async def serve(latency_s: float, log: Path | None) -> None:
    with FakeProviderServer() as fake:
        plain = Plain(latency_s, fake.port, log)
        server = await asyncio.start_server(plain.handle, "127.0.0.1", 0, backlog=1024)
        base = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        print(json.dumps({"base_url": base, "env": sdk_env(base)}), flush=True)
        await asyncio.to_thread(sys.stdin.read)  # until the parent closes stdin
        server.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--log", type=Path, default=None)
    args = parser.parse_args()
    asyncio.run(serve(args.latency_ms / 1000, args.log))
    return 0


if __name__ == "__main__":
    sys.exit(main())
