"""Drives `bunting serve` over pipes for benchmarks/storage/run.

Throughput: one server per round; after subscribing and a first refresh,
N logImpression requests (one card each) are written as fast as the pipe
takes them by one thread while this one reads the output. The clock starts
at the first write; "ENQUEUED" stops when the N-th ENQUEUED event has been
read, "FLUSHED" when the N-th FLUSHED has (a flush request follows the
impressions, and --flush-interval is 0.1 s so batches go out meanwhile;
--max-queued-events holds the whole burst).
Output lines are counted, not parsed, so the client costs little.

Restart: spawn -> the reply to a `status` written at once, on a storage
directory holding 10,000 queued events (closed cleanly, or left by SIGKILL
so the write-ahead log must be recovered: a fresh copy each time), next to
an empty store and to :memory:.
"""
import argparse, json, os, shutil, signal, statistics, subprocess, sys, tempfile, threading, time

DEFINITIONS = {
    "channels": {"featureFlags": True, "banners": {"enabled": True}, "contentCards": {"enabled": True}},
    "flags": {},
    "banners": [],
    "contentCards": [{"id": "c1", "type": "classic", "title": "One", "created": 1764374400, "extras": {"feed": "inbox"}}],
}


def request(id_, method, params=None):
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


class Server:
    def __init__(self, bunting, storage, work, sink=True, flush_interval="0.1", extra=()):
        command = [bunting, "serve", "--framing", "ndjson", "--storage", storage,
                   "--definitions", os.path.join(work, "definitions.json"), "--flush-interval", flush_interval, *extra]
        if sink:
            command += ["--sink", os.path.join(work, "events.ndjson")]
        self.stderr = open(os.path.join(work, "server-stderr.log"), "ab")
        self.started = time.perf_counter()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0)
        self.pending = b""

    def write(self, data):
        self.process.stdin.write(data)

    def lines(self):
        """Yields output lines as they arrive."""
        while True:
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
            if not chunk:
                return
            parts = (self.pending + chunk).split(b"\n")
            self.pending = parts.pop()
            yield from parts

    def wait_for(self, needle):
        for line in self.lines():
            if needle in line:
                return line
        raise SystemExit(f"drive: the server ended before {needle!r}; see server-stderr.log")

    def close(self, kill=False):
        if kill:
            self.process.send_signal(signal.SIGKILL)
        else:
            self.process.stdin.close()
            for _ in self.lines():
                pass
        self.process.wait()
        self.stderr.close()


def throughput(bunting, storage, work, events):
    # The queue must hold the whole burst: the loop stores events faster than
    # batches come back from the sink, and a full queue drops (and never flushes) the oldest.
    server = Server(bunting, storage, work, extra=("--max-queued-events", str(events + 1000)))
    server.write(request(1, "subscribe", {"channel": "contentCards"}) + request(2, "changeUser", {"userId": "bench"}))
    server.wait_for(b'"DATA_UPDATED"')
    burst = b"".join(request(10 + i, "logImpression", {"channel": "contentCards", "id": "c1"}) for i in range(events))
    burst += request("flush", "flush")
    writer = threading.Thread(target=server.write, args=(burst,))
    started = time.perf_counter()
    writer.start()
    enqueued = flushed = 0
    enqueued_at = None
    for line in server.lines():
        if b'"ENQUEUED"' in line:
            enqueued += 1
            if enqueued == events:
                enqueued_at = time.perf_counter()
        elif b'"FLUSHED"' in line:
            flushed += 1
            if flushed == events:
                break
        elif b'"ERROR"' in line or b'"error"' in line:
            server.close(kill=True)
            raise SystemExit(f"drive: the server reported a problem: {line[:300]!r}")
    flushed_at = time.perf_counter()
    writer.join()
    server.close()
    if enqueued_at is None or flushed < events:
        raise SystemExit(f"drive: only {enqueued} ENQUEUED and {flushed} FLUSHED of {events}")
    return events / (enqueued_at - started), events / (flushed_at - started)


def fill_queue(bunting, storage, work, count, kill):
    """Leaves `count` queued events in `storage` (no sink), closed cleanly or by SIGKILL."""
    server = Server(bunting, storage, work, sink=False)
    server.write(request(1, "subscribe", {"channel": "contentCards"}) + request(2, "changeUser", {"userId": "bench"}))
    server.wait_for(b'"DATA_UPDATED"')
    server.write(b"".join(request(10 + i, "logImpression", {"channel": "contentCards", "id": "c1"}) for i in range(count)))
    seen = 0
    for line in server.lines():
        if b'"ENQUEUED"' in line:
            seen += 1
            if seen == count:
                break
    server.close(kill=kill)


def first_reply(bunting, storage, work, template=None):
    """Milliseconds from spawn to the reply to `status`; checks the queue it reports."""
    if template:
        shutil.rmtree(storage, ignore_errors=True)
        shutil.copytree(template, storage)
    server = Server(bunting, storage, work, sink=False)
    server.write(request(1, "status"))
    line = next(server.lines())
    elapsed = (time.perf_counter() - server.started) * 1000
    server.close(kill=template is not None)
    return elapsed, json.loads(line)["result"]["pendingAnalytics"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bunting", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--restarts", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="3,000 events, one round, 5 restarts")
    options = parser.parse_args()
    bunting = os.path.abspath(options.bunting)
    work = tempfile.mkdtemp(prefix="bunting-storage-bench-")
    with open(os.path.join(work, "definitions.json"), "w") as file:
        json.dump(DEFINITIONS, file)
    if options.quick:
        options.events, options.rounds, options.restarts = 3000, 1, 5
    results = {"benchmark": "storage", "events": options.events, "rounds": options.rounds,
               "restarts": options.restarts, "quick": options.quick}
    try:
        print(f"throughput: {options.events} card impressions, {options.rounds} rounds each...", file=sys.stderr)
        rates = {"sqlite": [], "memory": []}
        for round_ in range(options.rounds):
            # Alternating order: drift on a busy machine weighs on both alike.
            order = ("sqlite", "memory") if round_ % 2 == 0 else ("memory", "sqlite")
            for name in order:
                storage = ":memory:" if name == "memory" else os.path.join(work, f"state-{round_}")
                rates[name].append(throughput(bunting, storage, work, options.events))
                print(f"  round {round_ + 1} {name}: {rates[name][-1][0]:,.0f} ENQUEUED/s, "
                      f"{rates[name][-1][1]:,.0f} FLUSHED/s", file=sys.stderr)
        for name, values in rates.items():
            results[name] = {"enqueued_per_s": statistics.median(r[0] for r in values),
                             "flushed_per_s": statistics.median(r[1] for r in values),
                             "rounds": values}
        # Paired within each round.
        results["enqueued_ratio"] = statistics.median(a[0] / b[0] for a, b in zip(rates["sqlite"], rates["memory"]))
        results["flushed_ratio"] = statistics.median(a[1] / b[1] for a, b in zip(rates["sqlite"], rates["memory"]))

        print(f"restarts: {options.restarts} each...", file=sys.stderr)
        queued = 10000
        clean, killed = os.path.join(work, "queued-clean"), os.path.join(work, "queued-killed")
        fill_queue(bunting, clean, work, queued, kill=False)
        fill_queue(bunting, killed, work, queued, kill=True)
        empty = os.path.join(work, "empty")
        cases = {
            "memory": lambda: first_reply(bunting, ":memory:", work),
            "sqlite_empty": lambda: first_reply(bunting, empty, work),
            "sqlite_queued": lambda: first_reply(bunting, clean, work),
            "sqlite_queued_after_kill": lambda: first_reply(bunting, os.path.join(work, "copy"), work, template=killed),
        }
        for case in cases.values():
            case()  # warm the page cache
        runs = {name: [] for name in cases}
        for _ in range(options.restarts):
            # Interleaved, one of each in turn, for the same reason.
            for name, case in cases.items():
                runs[name].append(case())
        for name in cases:
            expected = queued if "queued" in name else 0
            if any(pending != expected for _, pending in runs[name]):
                raise SystemExit(f"drive: {name}: the restarted server reported {runs[name][0][1]} queued events, "
                                 f"not {expected}")
            results.setdefault("restart_ms", {})[name] = statistics.median(ms for ms, _ in runs[name])
    finally:
        shutil.rmtree(work, ignore_errors=True)

    sqlite, memory, restart = results["sqlite"], results["memory"], results["restart_ms"]
    rows = []

    def row(metric, value, baseline, ratio, target=None, ok=None):
        rows.append({"metric": metric, "sqlite": value, "memory": baseline, "ratio": ratio, "target": target,
                     "verdict": None if ok is None else ("ok" if ok else "MISS")})

    row("logImpression -> ENQUEUED (events/s)", sqlite["enqueued_per_s"], memory["enqueued_per_s"],
        results["enqueued_ratio"], "ratio >= 0.50", results["enqueued_ratio"] >= 0.5)
    row("logImpression -> FLUSHED, NDJSON sink (events/s)", sqlite["flushed_per_s"], memory["flushed_per_s"],
        results["flushed_ratio"])
    row("restart, 10,000 queued -> first reply (ms)", restart["sqlite_queued"], restart["memory"],
        restart["sqlite_queued"] / restart["memory"], "<= 10 ms", restart["sqlite_queued"] <= 10)
    row("restart after SIGKILL, 10,000 queued (ms)", restart["sqlite_queued_after_kill"], restart["memory"],
        restart["sqlite_queued_after_kill"] / restart["memory"], "<= 10 ms", restart["sqlite_queued_after_kill"] <= 10)
    row("restart, empty store -> first reply (ms)", restart["sqlite_empty"], restart["memory"],
        restart["sqlite_empty"] / restart["memory"])
    results["table"] = rows
    results["targets_missed"] = [r["metric"] for r in rows if r["verdict"] == "MISS"]
    with open(os.path.join(options.out, "storage.json"), "w") as file:
        json.dump(results, file, indent=2)

    print(f"storage benchmark: release build, {options.events} card impressions (median of {options.rounds}, "
          f"alternating), restarts median of {options.restarts} (interleaved)")
    w = max(len(r["metric"]) for r in rows)
    print(f"{'metric':<{w}}  {'sqlite':>10}  {':memory:':>10}  {'ratio':>6}  target")
    print("-" * (w + 50))
    for r in rows:
        fmt = (lambda x: f"{x:,.0f}") if "events/s" in r["metric"] else (lambda x: f"{x:.2f}")
        print(f"{r['metric']:<{w}}  {fmt(r['sqlite']):>10}  {fmt(r['memory']):>10}  {r['ratio']:>6.2f}  "
              f"{r['target'] or '':<14} {r['verdict'] or ''}")
    print("ratio = sqlite / :memory: (paired by round for rates). Restart times run from spawn (Python's")
    print("subprocess) to the reply to `status`; the :memory: column is a plain cold start with the same client.")
    misses = results["targets_missed"]
    print("Targets missed: " + "; ".join(misses) + "." if misses else "All targets met.")
    print(f"Written: {os.path.join(options.out, 'storage.json')}")


if __name__ == "__main__":
    main()
