"""Drives a release `bunting serve` over stdio (storage on disk, a fresh
directory per server), subscribed to contentCards, and times changeUser to
its DATA_UPDATED for the three documents of card_documents.py, in alternating
order round by round, one run. Prints each side, the ratios, and the target
(templated / plain <= 1.5). See README.md here.

    measure.py BUNTING [--rounds N] [--changes N] [--out DIR]
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


def measure(binary, definitions, changes, seed, stderr):
    storage = tempfile.mkdtemp(prefix="bunting-personalisation-bench-")
    try:
        server = Server(binary, definitions, storage, stderr)
        server.send("status")
        server.wait_for(b'"result"')
        server.send("subscribe", {"channel": "contentCards"})
        server.wait_for(b'"CACHE_REPLAY"')
        times = []
        for user, attributes in users(changes, seed):
            begin = time.perf_counter()
            server.send("changeUser", {"userId": user, "attributes": attributes})
            server.wait_for(b'"DATA_UPDATED"')
            times.append((time.perf_counter() - begin) * 1000)
        # One snapshot, to check what was rendered.
        server.send("getSnapshot", {"channel": "contentCards"})
        chunks = b""
        while b'"unviewedCount"' not in chunks:
            chunks += os.read(server.process.stdout.fileno(), 1 << 20)
        server.close()
        return times, chunks
    finally:
        shutil.rmtree(storage, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bunting")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--changes", type=int, default=10, help="changeUser runs per server")
    parser.add_argument("--out", default=".build/bench")
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
            # Rotating order: drift on a busy machine weighs on every shape alike.
            order = shapes[round_ % 3:] + shapes[:round_ % 3]
            for shape in order:
                print(f"round {round_ + 1}/{options.rounds}: {shape}, {options.changes} changeUser", file=sys.stderr)
                times, snapshot = measure(options.bunting, paths[shape], options.changes, round_, log)
                results[shape].append(times)
                if shape != "plain" and b"{{" in snapshot:
                    raise SystemExit(f"{shape}: the snapshot holds unrendered markup")

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
    print("ratio = the shape's median / the plain cards' median, the same binary in the same run (shapes alternate")
    print(f"round by round); medians over {options.rounds} rounds of {options.changes} changes, a new user with its own")
    print("attributes each time; storage on disk. Round by round: " + "; ".join(
        f"{shape} " + " ".join(f"{r:.2f}" for r in ratios) for shape, ratios in by_round.items()))
    print("Targets missed: " + "; ".join(missed) + "." if missed else "All targets met.")
    path = os.path.join(options.out, "personalisation.json")
    with open(path, "w") as file:
        json.dump({"benchmark": "personalisation", "rounds": options.rounds, "changes": options.changes,
                   "rows": [{"metric": m, "bunting": v, "ratio": r, "target": t} for m, v, r, t in rows],
                   "by_round": by_round, "raw": results, "targets_missed": missed}, file, indent=1)
    print(f"Written: {path}")


if __name__ == "__main__":
    main()
