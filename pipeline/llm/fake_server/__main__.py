"""Run the fake provider server on its own (a process apart from the client it serves).

    python -m pipeline.llm.fake_server --latency-ms 300 --error-rate 0.0 --seed 0 \
                                       [--play-models data/raw] [--log FILE]

Prints one JSON line `{"base_url": ..., "env": {...}}` once it listens on 127.0.0.1, then
serves until stdin closes or SIGTERM. `--play-models RAW` answers like models that write the
offline generator's tests for the tasks under RAW and review from the evidence
(`models.OfflineModels`), so a whole `build` can run against it; without it, answers are
schema-shaped examples. Why a separate process: a benchmark that shares one
interpreter with the server measures the server's share of the GIL, not the pipeline.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path

from .models import OfflineModels
from .server import FakeProviderServer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.llm.fake_server")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="delay of every call")
    parser.add_argument("--error-rate", type=float, default=0.0,
                        help="share of calls answered with 429/500/malformed (seeded)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--play-models", type=Path, default=None, metavar="RAW",
                        help="answer as models writing tests for the tasks under RAW")
    parser.add_argument("--log", default=None, metavar="FILE",
                        help="append '<arrival> <reply sent> <provider>' per model call")
    args = parser.parse_args(argv)
    if not 0.0 <= args.error_rate < 1.0 or args.latency_ms < 0:
        parser.error("--error-rate must be in [0, 1) and --latency-ms >= 0")
    if args.play_models is not None and not args.play_models.is_dir():
        parser.error(f"--play-models {args.play_models}: no such folder (give a data/raw)")
    responder = OfflineModels(args.play_models) if args.play_models is not None else None
    server = FakeProviderServer(responder, latency_s=args.latency_ms / 1000,
                                call_log=args.log).start()
    if args.error_rate:
        server.random_faults(args.error_rate, seed=args.seed)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    print(json.dumps({"base_url": server.base_url, "env": server.env()}), flush=True)
    try:
        done.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
