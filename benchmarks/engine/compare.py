#!/usr/bin/env python3
"""Two or more builds side by side on one generated document, in alternating
rounds (the engine benchmark's `measure()`: load, six new users, memory 1.5 s
later, changes back to users seen before beside new ones): for telling what a
change did on a machine whose timings move between runs.

    benchmarks/engine/compare.py SHAPE ITEMS ROUNDS BINARY...

SHAPE is flags, cards or banners (documents.py). Per build and round it
prints the load's time, memory once loaded and with a user's caches (VmRSS,
and of it RssAnon and RssFile, the mapped files), VmHWM once loaded (the
peak while loading), and a returning user's change against a new one's.
"""
import json
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from documents import shaped  # noqa: E402
from measure import measure  # noqa: E402


def mb(kb):
    return round(kb / 1024, 1)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    shape, items, rounds, binaries = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(shaped(shape, items), f)
        document = f.name
    try:
        results = {binary: [] for binary in binaries}
        for round_ in range(rounds):
            for binary in binaries if round_ % 2 == 0 else binaries[::-1]:
                results[binary].append(measure(binary, document, 6, None))
    finally:
        os.unlink(document)
    for binary, runs in results.items():
        print(binary)
        print("  load (ms)              ", [round(r["start_to_loaded_s"] * 1000) for r in runs])
        print("  peak while loading (MB)", [mb(r["idle"]["VmHWM"]) for r in runs])
        print("  loaded RSS (MB)        ", [mb(r["idle"]["VmRSS"]) for r in runs])
        print("  with caches RSS (MB)   ", [mb(r["settled"]["VmRSS"]) for r in runs])
        print("    RssAnon / RssFile    ", [(mb(r["settled"]["RssAnon"]), mb(r["settled"]["RssFile"])) for r in runs])
        ratios = [statistics.median(r["change_back_ms"]) / statistics.median(r["change_new_beside_back_ms"])
                  for r in runs if r["change_back_ms"]]
        print("  new user (ms)          ", [round(statistics.median(r["change_user_ms"]), 1) for r in runs])
        print("  back / beside          ", [round(x, 2) for x in ratios],
              "median", round(statistics.median(ratios), 2) if ratios else "-")


if __name__ == "__main__":
    main()
