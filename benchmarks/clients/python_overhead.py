#!/usr/bin/env python3
"""Per-call overhead of the Python client: ping-pong getFeatureFlag through `Bunting`
(threads) and `AsyncBunting` (asyncio), next to a bare loop that writes the request
to the pipe and reads the reply (readline for NDJSON, header + read for LSP), and
next to that loop with the reply read on a second thread and handed over through a
lock (the floor for any client with a reader thread), all against the same binary
in the same run, one request in flight at a time.

    python3 benchmarks/clients/python_overhead.py [--binary PATH] [--round-trips N] [--rounds N]

The binary defaults to $BUNTING_BIN, then `bunting` on the PATH, then
.build/release/bunting (build it with `swift build -c release --static-swift-stdlib
--product bunting`). Each round runs every mode once, in a rotating order; the
table pools the round trips of all rounds and gives each mode's p50 and p99 with
its ratio to the bare loop of the same framing.
"""

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python"))

from bunting import AsyncBunting, Bunting  # noqa: E402
from bunting._launch import find_binary  # noqa: E402

FLAG = "new-checkout"  # a flag of the bundled example definitions


def request(request_id: int, method: str, params: Dict) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params},
                      separators=(",", ":")).encode()


class RawPipe:
    """The baseline: the bytes of each request written, the reply read back, nothing else."""

    def __init__(self, binary: str, framing: str):
        self.framing = framing
        self.process = subprocess.Popen([binary, "serve", "--framing", framing, "--storage", ":memory:"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        bufsize=0)
        self.fd = self.process.stdin.fileno()
        self.out = os.fdopen(os.dup(self.process.stdout.fileno()), "rb", buffering=65536)
        self.send(request(1, "subscribe", {"channel": "featureFlags"}))
        self.send(request(2, "changeUser", {"userId": "ada"}))
        while True:  # the refresh's DATA_UPDATED: the flag is in the cache from then on
            message = json.loads(self.receive())
            if message.get("params", {}).get("type") == "DATA_UPDATED":
                break

    def send(self, body: bytes) -> None:
        frame = body + b"\n" if self.framing == "ndjson" else b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        os.write(self.fd, frame)

    def receive(self) -> bytes:
        if self.framing == "ndjson":
            return self.out.readline()
        length = 0
        while True:
            line = self.out.readline()
            if line in (b"\r\n", b""):
                break
            length = int(line.split(b":")[1])
        return self.out.read(length)

    def round_trips(self, count: int) -> List[int]:
        body = request(7, "getFeatureFlag", {"id": FLAG})
        frame = body + b"\n" if self.framing == "ndjson" else b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        write, fd, receive, clock = os.write, self.fd, self.receive, time.perf_counter_ns
        samples = []
        for _ in range(count):
            start = clock()
            write(fd, frame)
            reply = receive()
            samples.append(clock() - start)
        assert b'"enabled"' in reply, reply
        return samples

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)
        self.out.close()


class ThreadedPipe(RawPipe):
    """The least any client with a reader thread can do: the raw loop, but the reply is
    read by a second thread that hands it over through a lock, as Bunting's does."""

    def round_trips(self, count: int) -> List[int]:
        body = request(7, "getFeatureFlag", {"id": FLAG})
        frame = body + b"\n" if self.framing == "ndjson" else b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        replies: List[bytes] = []
        ready = threading.Lock()
        ready.acquire()

        def read() -> None:
            for _ in range(count):
                replies.append(self.receive())
                ready.release()

        reader = threading.Thread(target=read)
        reader.start()
        write, fd, clock = os.write, self.fd, time.perf_counter_ns
        samples = []
        for _ in range(count):
            start = clock()
            write(fd, frame)
            ready.acquire()
            samples.append(clock() - start)
        reader.join()
        assert b'"enabled"' in replies[-1], replies[-1]
        return samples


class SyncClient:
    def __init__(self, binary: str, framing: str):
        self.client = Bunting.spawn(binary, framing=framing, storage=":memory:")
        flags = self.client.subscribe("featureFlags")
        self.client.change_user("ada")
        flags.wait_for(type="DATA_UPDATED")

    def round_trips(self, count: int) -> List[int]:
        get, clock = self.client.get_feature_flag, time.perf_counter_ns
        samples = []
        for _ in range(count):
            start = clock()
            flag = get(FLAG)
            samples.append(clock() - start)
        assert flag["id"] == FLAG
        return samples

    def close(self) -> None:
        self.client.close()


class AsyncClient:
    """The asyncio client, on a loop of its own that lives as long as the client."""

    def __init__(self, binary: str, framing: str):
        self.loop = asyncio.new_event_loop()
        self.client = self.loop.run_until_complete(self._start(binary, framing))

    async def _start(self, binary: str, framing: str) -> AsyncBunting:
        client = await AsyncBunting.spawn(binary, framing=framing, storage=":memory:")
        flags = await client.subscribe("featureFlags")
        await client.change_user("ada")
        await flags.wait_for(type="DATA_UPDATED")
        return client

    async def _loop(self, count: int) -> List[int]:
        get, clock = self.client.get_feature_flag, time.perf_counter_ns
        samples = []
        for _ in range(count):
            start = clock()
            flag = await get(FLAG)
            samples.append(clock() - start)
        assert flag["id"] == FLAG
        return samples

    def round_trips(self, count: int) -> List[int]:
        return self.loop.run_until_complete(self._loop(count))

    def close(self) -> None:
        self.loop.run_until_complete(self.client.close())
        self.loop.close()


MODES: Dict[str, Callable] = {"raw pipe": RawPipe, "raw pipe + reader thread": ThreadedPipe,
                              "Bunting (threads)": SyncClient, "AsyncBunting": AsyncClient}


def percentile(samples: List[int], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] / 1000.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="the bunting binary (default: $BUNTING_BIN, PATH, .build/release)")
    parser.add_argument("--round-trips", type=int, default=20000, help="measured round trips per mode and round")
    parser.add_argument("--warmup", type=int, default=2000, help="round trips before measuring")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--framings", default="ndjson,lsp")
    options = parser.parse_args()
    binary = find_binary(options.binary)
    framings = options.framings.split(",")
    samples: Dict[tuple, List[int]] = {(framing, mode): [] for framing in framings for mode in MODES}
    names = list(MODES)
    for round_index in range(options.rounds):
        order = names[round_index % len(names):] + names[:round_index % len(names)]
        for framing in framings:
            for mode in order:
                runner = MODES[mode](binary, framing)
                try:
                    runner.round_trips(options.warmup)
                    gc.collect()
                    samples[(framing, mode)] += runner.round_trips(options.round_trips)
                finally:
                    runner.close()
        print("round %d of %d done" % (round_index + 1, options.rounds), file=sys.stderr)

    print("getFeatureFlag ping-pong, %d round trips x %d rounds per mode; binary %s; Python %s"
          % (options.round_trips, options.rounds, binary, sys.version.split()[0]))
    print()
    print("| framing | mode | p50 µs | p99 µs | mean µs | p50 ratio | p99 ratio |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for framing in framings:
        base = samples[(framing, "raw pipe")]
        base50, base99 = percentile(base, 0.50), percentile(base, 0.99)
        for mode in names:
            got = samples[(framing, mode)]
            p50, p99 = percentile(got, 0.50), percentile(got, 0.99)
            print("| %s | %s | %.1f | %.1f | %.1f | %.2f× | %.2f× |" % (
                framing, mode, p50, p99, statistics.fmean(got) / 1000.0, p50 / base50, p99 / base99))
    return 0


if __name__ == "__main__":
    sys.exit(main())
