#!/usr/bin/env python3
"""The Python side of the BuntingExperiments benchmark.

Usage: growthbook_bench.py DIR [ROUND]

Reads the workload bunting-experiments-bench wrote to DIR (payload-N.json,
users.ndjson, workload.json) and times the PyPI `growthbook` package in
process, the fastest way its API offers: one GrowthBook instance per
payload (no client key, so no network), `set_attributes` per user, then
`eval_feature` for every feature key. Writes DIR/python-ROUND.json and
prints the numbers.
"""

import json
import logging
import statistics
import sys
import time
from importlib.metadata import version

from growthbook import GrowthBook


def main() -> None:
    logging.disable(logging.CRITICAL)
    directory = sys.argv[1]
    round_number = sys.argv[2] if len(sys.argv) > 2 else "1"
    with open(f"{directory}/workload.json", encoding="utf-8") as handle:
        workload = json.load(handle)
    with open(f"{directory}/users.ndjson", encoding="utf-8") as handle:
        users = [json.loads(line) for line in handle if line.strip()]

    results = {"version": version("growthbook")}
    clock = time.perf_counter_ns
    for count in workload["featureCounts"]:
        with open(f"{directory}/payload-{count}.json", encoding="utf-8") as handle:
            payload = json.load(handle)
        gb = GrowthBook(features=payload["features"], saved_groups=payload.get("savedGroups") or {})
        keys = list(payload["features"].keys())

        def evaluate_all(user):
            gb.set_attributes(user)
            on = 0
            for key in keys:
                if gb.eval_feature(key).on:
                    on += 1
            return on

        for user in users[:200]:  # warm-up, untimed
            evaluate_all(user)
        times = []
        for user in users:
            start = clock()
            evaluate_all(user)
            times.append(clock() - start)
        times.sort()
        median = statistics.median(times) / 1e9
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] / 1e9
        rate = count * len(users) / (sum(times) / 1e9)
        results[f"median-{count}"] = median
        results[f"p99-{count}"] = p99
        results[f"featuresPerSecond-{count}"] = rate
        print(f"python {count} features: every feature for one user: median {median * 1e6:.1f} µs, "
              f"p99 {p99 * 1e6:.1f} µs; {rate / 1e6:.3f} M features/s")
    with open(f"{directory}/python-{round_number}.json", "w", encoding="utf-8") as handle:
        json.dump(results, handle)


if __name__ == "__main__":
    main()
