"""Drives a release `bunting serve` over stdio (storage on disk, a fresh
directory per server), subscribed to contentCards, and times changeUser to
its DATA_UPDATED for the three documents of card_documents.py: one server
per document side by side, each change made on each in turn, one run. Prints each side, the ratios, and the target
(templated / plain <= 1.5). See README.md here.

    measure.py BUNTING [--rounds N] [--changes N] [--instructions] [--out DIR]

With --instructions it also counts the instructions of a change with
callgrind (a run of N changes less a run of none), steady where times on a
busy machine are not.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engine"))
from measure import Server  # noqa: E402  (the engine benchmark's client: counts markers, parses nothing)

from card_documents import CARDS, document  # noqa: E402

NAMES = ["Ada", "Grace", "Alan", "Katherine", "Edsger", "Barbara", "Linus", "Margaret", "Dennis", "Frances"]
TIERS = ["bronze", "silver", "gold", "platinum"]


def users(count, seed):
    """A different user for every change: a first name (missing for some), a tier and points."""
    rng = random.Random(seed)
    made = []
    for index in range(count):
        attributes = {"country": "NO", "tier": rng.choice(TIERS), "points": rng.randrange(3000)}
        if rng.random() > 0.1:
            attributes["first_name"] = rng.choice(NAMES)
        made.append((f"user-{seed}-{index}-{time.monotonic_ns()}", attributes))
    return made


class Subject:
    """One server on one document, subscribed to contentCards."""

    def __init__(self, binary, definitions, stderr):
        self.storage = tempfile.mkdtemp(prefix="bunting-personalisation-bench-")
        self.server = Server(binary, definitions, self.storage, stderr)
        self.server.send("status")
        self.server.wait_for(b'"result"')
        self.server.send("subscribe", {"channel": "contentCards"})
        self.server.wait_for(b'"CACHE_REPLAY"')

    def change(self, user, attributes):
        begin = time.perf_counter()
        self.server.send("changeUser", {"userId": user, "attributes": attributes})
        self.server.wait_for(b'"DATA_UPDATED"')
        return (time.perf_counter() - begin) * 1000

    def snapshot(self):
        self.server.send("getSnapshot", {"channel": "contentCards"})
        chunks = b""
        while b'"unviewedCount"' not in chunks:
            chunks += os.read(self.server.process.stdout.fileno(), 1 << 20)
        return chunks

    def close(self):
        try:
            self.server.close()
        finally:
            shutil.rmtree(self.storage, ignore_errors=True)


def measure(binary, paths, changes, seed, stderr):
    """One round: a server per shape, side by side; each change goes to every
    server in turn (the order rotating), so that the machine's load at that
    moment weighs on all of them alike."""
    subjects = {shape: Subject(binary, path, stderr) for shape, path in paths.items()}
    try:
        times = {shape: [] for shape in subjects}
        shapes = list(subjects)
        for index, (user, attributes) in enumerate(users(changes, seed)):
            order = shapes[index % len(shapes):] + shapes[:index % len(shapes)]
            for shape in order:
                times[shape].append(subjects[shape].change(user, attributes))
        for shape, subject in subjects.items():
            if shape != "plain" and b"{{" in subject.snapshot():
                raise SystemExit(f"{shape}: the snapshot holds unrendered markup")
        return times
    finally:
        for subject in subjects.values():
            subject.close()


def instructions(binary, paths, changes, directory):
    """Instructions per changeUser, counted by callgrind (steady on a busy
    machine, where times are not): for each shape a run of `changes` changes
    less a run of none (loading the document, subscribing, ending)."""
    import re
    import subprocess
    # Valgrind cannot read the static build's debug information; the symbols stay.
    stripped = os.path.join(directory, "bunting-stripped")
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    counts = {}
    for shape, path in paths.items():
        runs = []
        for count in (0, changes):
            lines = [{"jsonrpc": "2.0", "id": 0, "method": "subscribe", "params": {"channel": "contentCards"}}]
            lines += [{"jsonrpc": "2.0", "id": i + 1, "method": "changeUser", "params": {"userId": user, "attributes": attributes}}
                      for i, (user, attributes) in enumerate(users(count, 0))]
            storage = tempfile.mkdtemp(prefix="bunting-personalisation-bench-")
            try:
                print(f"callgrind: {shape}, {count} changeUser", file=sys.stderr)
                done = subprocess.run(
                    ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", stripped, "serve",
                     "--definitions", path, "--storage", storage],
                    input="".join(json.dumps(line) + "\n" for line in lines).encode(), stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE, check=True)
            finally:
                shutil.rmtree(storage, ignore_errors=True)
            runs.append(int(re.search(rb"Collected : (\d+)", done.stderr).group(1)))
        counts[shape] = (runs[1] - runs[0]) / changes
    return counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bunting")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--changes", type=int, default=10, help="changeUser runs per server")
    parser.add_argument("--out", default=".build/bench")
    parser.add_argument("--instructions", action="store_true", help="also count instructions per change (callgrind)")
    options = parser.parse_args()

    shapes = ["plain", "templated", "distinct"]
    results = {shape: [] for shape in shapes}
    os.makedirs(options.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as directory, \
            open(os.path.join(options.out, "personalisation-stderr.log"), "w") as log:
        paths = {}
        for shape in shapes:
            paths[shape] = os.path.join(directory, f"{shape}.json")
            with open(paths[shape], "w") as file:
                json.dump(document(shape), file)
        for round_ in range(options.rounds):
            print(f"round {round_ + 1}/{options.rounds}: {options.changes} changeUser on each shape", file=sys.stderr)
            for shape, times in measure(options.bunting, paths, options.changes, round_, log).items():
                results[shape].append(times)
        counted = instructions(options.bunting, paths, options.changes, directory) if options.instructions else None

    def median(shape):
        return statistics.median(t for r in results[shape] for t in r)

    base = median("plain")
    rows = [
        (f"changeUser -> DATA_UPDATED, {CARDS:,} plain cards (ms)", base, None, None),
        (f"changeUser -> DATA_UPDATED, {CARDS:,} cards sharing two templates (ms)", median("templated"), median("templated") / base,
         "<= 1.5x"),
        (f"changeUser -> DATA_UPDATED, {CARDS:,} cards each with a title of its own (ms)", median("distinct"),
         median("distinct") / base, None),
    ]
    by_round = {shape: [statistics.median(r) / statistics.median(p) for r, p in zip(results[shape], results["plain"])]
                for shape in ("templated", "distinct")}
    # Each change beside the plain server's change for the same user, moments apart.
    paired = {shape: statistics.median(t / p for r, pr in zip(results[shape], results["plain"]) for t, p in zip(r, pr))
              for shape in ("templated", "distinct")}
    if counted:
        rows += [
            (f"instructions per changeUser, {CARDS:,} plain cards (M)", counted["plain"] / 1e6, None, None),
            (f"instructions per changeUser, {CARDS:,} cards sharing two templates (M)", counted["templated"] / 1e6,
             counted["templated"] / counted["plain"], "<= 1.5x"),
            (f"instructions per changeUser, {CARDS:,} cards each with a title of its own (M)", counted["distinct"] / 1e6,
             counted["distinct"] / counted["plain"], None),
        ]
    width = max(len(r[0]) for r in rows)
    print()
    print(f"{'metric':<{width}}  {'Bunting':>9}  {'ratio':>7}  target")
    print("-" * (width + 36))
    missed = []
    for metric, value, ratio, target in rows:
        verdict = ""
        if target:
            verdict = "ok" if ratio <= 1.5 else "MISS"
            if verdict == "MISS":
                missed.append(metric)
        print(f"{metric:<{width}}  {value:>9.2f}  {'' if ratio is None else f'{ratio:.2f}':>7}  {target or ''} {verdict}")
    print()
    print("ratio = the shape's median / the plain cards' median: the same binary, one server per shape side by side,")
    print("each change made on every server in turn (a new user with its own attributes each time), storage on disk;")
    print(f"medians over {options.rounds} rounds of {options.changes} changes. Median of the ratios of paired changes: " + "; ".join(
        f"{shape} {ratio:.2f}" for shape, ratio in paired.items()) + ". Round by round: " + "; ".join(
        f"{shape} " + " ".join(f"{r:.2f}" for r in ratios) for shape, ratios in by_round.items()))
    print("Targets missed: " + "; ".join(missed) + "." if missed else "All targets met.")
    path = os.path.join(options.out, "personalisation.json")
    with open(path, "w") as file:
        json.dump({"benchmark": "personalisation", "rounds": options.rounds, "changes": options.changes,
                   "rows": [{"metric": m, "bunting": v, "ratio": r, "target": t} for m, v, r, t in rows],
                   "by_round": by_round, "paired": paired, "raw": results, "targets_missed": missed}, file, indent=1)
    print(f"Written: {path}")


if __name__ == "__main__":
    main()
