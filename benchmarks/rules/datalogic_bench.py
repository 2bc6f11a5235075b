#!/usr/bin/env python3
"""The datalogic-py side of the BuntingRules benchmark.

Usage: datalogic_bench.py DIR [ROUND]

Reads the workload bunting-rules-bench wrote to DIR (rules-N.json,
contexts.ndjson, workload.json) and measures datalogic-py on it the fastest
way its API offers: every rule compiled once, every context parsed once into
a DataHandle (with flagd's $flagd properties added), and only
Session.evaluate_many(rules, handle) timed: one native call per user for all
rules. Writes DIR/datalogic-ROUND.json and prints the numbers.
"""

import json
import statistics
import sys
import time
from importlib.metadata import version

import datalogic_py


def main() -> None:
    directory = sys.argv[1]
    round_number = sys.argv[2] if len(sys.argv) > 2 else "1"
    with open(f"{directory}/workload.json", encoding="utf-8") as handle:
        workload = json.load(handle)
    with open(f"{directory}/contexts.ndjson", encoding="utf-8") as handle:
        contexts = [json.loads(line) for line in handle if line.strip()]

    engine = datalogic_py.Engine()
    session = engine.session()
    results = {"version": version("datalogic-py")}
    for count in workload["flagCounts"]:
        with open(f"{directory}/rules-{count}.json", encoding="utf-8") as handle:
            rules = [engine.compile(rule) for rule in json.load(handle)]
        handles = []
        for context in contexts:
            data = dict(context)
            data["$flagd"] = {"flagKey": "bench", "timestamp": workload["timestamp"]}
            handles.append(datalogic_py.DataHandle(data))

        for data in handles[:500]:  # warm-up, untimed
            session.evaluate_many(rules, data)
        times = []
        clock = time.perf_counter_ns
        total_start = clock()
        for data in handles:
            start = clock()
            session.evaluate_many(rules, data)
            times.append(clock() - start)
        total = (clock() - total_start) / 1e9
        rate = count * len(handles) / total
        results[f"evaluationsPerSecond-{count}"] = rate
        times.sort()
        median = statistics.median(times) / 1e9
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] / 1e9
        results[f"resolveAllMedian-{count}"] = median
        results[f"resolveAllP99-{count}"] = p99
        print(f"datalogic-py {count} flags: {rate / 1e6:.2f} M evaluations/s; "
              f"all {count} rules for one user: median {median * 1e6:.1f} µs, p99 {p99 * 1e6:.1f} µs")

    with open(f"{directory}/datalogic-{round_number}.json", "w", encoding="utf-8") as handle:
        json.dump(results, handle)


if __name__ == "__main__":
    main()
