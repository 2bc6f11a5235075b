"""Drives a release `bunting serve` over stdio and reads its memory from /proc.

Measures, for a generated document and for the bundled example (the
baseline, same binary, same run):
  - idle RSS after start-up,
  - RSS after a user is evaluated with every channel subscribed,
  - the time from sending `changeUser` to the last DATA_UPDATED (median of runs).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def document(flags, cards):
    return {
        "flags": {
            f"flag-{i}": {
                "state": "ENABLED",
                "variants": {
                    "on": {"enabled": True, "properties": {"n": {"type": "number", "value": i}}},
                    "off": {"enabled": False},
                },
                "defaultVariant": "off",
                "targeting": {"if": [{"in": [{"var": "country"}, ["NO", "SE", "DK"]]},
                                     {"fractional": [["on", 50], ["off", 50]]}, "off"]},
            }
            for i in range(flags)
        },
        "banners": [
            {"id": f"banner-{i}", "placementId": f"p-{i % 50}", "html": f"<p>{i}</p>", "priority": i,
             "properties": {}, "targeting": {">=": [{"var": "age"}, i % 40]}}
            for i in range(min(cards, 1000))
        ],
        "contentCards": [
            {"id": f"card-{i}", "type": "classic", "title": f"Card {i}", "description": "A card to fill the cache.",
             "extras": {"feed": "inbox"}, "created": 1700000000 + i,
             "targeting": {"starts_with": [{"var": "country"}, "N"]}}
            for i in range(cards)
        ],
    }


class Server:
    def __init__(self, binary, definitions, storage):
        args = [binary, "serve", "--storage", storage]
        if definitions:
            args += ["--definitions", definitions]
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.buffer = b""
        self.next_id = 1

    def send(self, method, params=None):
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.next_id += 1
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        return message["id"]

    def read(self):
        while b"\n" not in self.buffer:
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
            if not chunk:
                raise RuntimeError("server closed stdout")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def wait_reply(self, request_id):
        while True:
            message = self.read()
            if message.get("id") == request_id:
                return message

    def wait_events(self, kind, count):
        seen = 0
        while seen < count:
            message = self.read()
            if message.get("method") == "event" and message["params"]["type"] == kind:
                seen += 1

    def rss_kb(self):
        fields = {}
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def measure(binary, definitions, runs):
    # A fresh storage directory, as a deployment has; the store writes each
    # user's caches to SQLite instead of keeping a copy in memory.
    storage = tempfile.mkdtemp(prefix="bunting-engine-bench-")
    server = Server(binary, definitions, storage)
    server.wait_reply(server.send("status"))
    idle = server.rss_kb()
    for channel in ("featureFlags", "banners", "contentCards"):
        server.wait_reply(server.send("subscribe", {"channel": channel}))
        server.wait_events("CACHE_REPLAY", 1)
    times = []
    for run in range(runs):
        started = time.perf_counter()
        server.send("changeUser", {"userId": f"user-{run}", "attributes": {"country": "NO", "age": 30}})
        server.wait_events("DATA_UPDATED", 3)
        times.append((time.perf_counter() - started) * 1000)
    loaded = server.rss_kb()
    server.close()
    return idle, loaded, statistics.median(times)


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as directory:
        big = os.path.join(directory, "big.json")
        with open(big, "w") as file:
            json.dump(document(10_000, 10_000), file)
        thousand = os.path.join(directory, "thousand.json")
        with open(thousand, "w") as file:
            json.dump(document(1_000, 0), file)
        base_idle, base_loaded, base_time = measure(binary, None, 20)
        big_idle, big_loaded, big_time = measure(binary, big, 5)
        _, _, thousand_time = measure(binary, thousand, 20)

    def mb(kb):
        return kb / 1024

    print(f"{'metric':<58}{'Bunting':>10}{'baseline':>10}{'ratio':>8}  target")
    print(f"{'idle RSS, MB (baseline: the bundled example)':<58}{mb(big_idle[0]):>10.1f}{mb(base_idle[0]):>10.1f}{big_idle[0] / base_idle[0]:>8.2f}  <= 16 MB without definitions")
    print(f"{'RSS with 10,000 flags + 10,000 cards loaded, MB':<58}{mb(big_loaded[0]):>10.1f}{mb(base_loaded[0]):>10.1f}{big_loaded[0] / base_loaded[0]:>8.2f}  <= 64 MB")
    print(f"{'peak RSS (VmHWM) with them, MB':<58}{mb(big_loaded[1]):>10.1f}{mb(base_loaded[1]):>10.1f}{big_loaded[1] / base_loaded[1]:>8.2f}")
    print(f"{'changeUser -> 3 x DATA_UPDATED, 1,000 flags, median ms':<58}{thousand_time:>10.2f}{base_time:>10.2f}{thousand_time / base_time:>8.2f}  evaluation <= 1 ms")
    print(f"{'changeUser -> 3 x DATA_UPDATED, 10,000 + 10,000, median ms':<58}{big_time:>10.2f}{base_time:>10.2f}{big_time / base_time:>8.2f}")
    print("The changeUser time is end to end over stdio: reading the definitions file on a worker,")
    print("evaluating every channel, and writing three snapshots; the baseline is the bundled example.")


main()
