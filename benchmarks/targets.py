#!/usr/bin/env python3
"""Prints every DESIGN.md target row of the benchmarks' JSON results
(.build/bench/{transport,engine,storage,stream}.json) in one table and writes them
to .build/bench/targets.json.

    targets.py [DIR]
"""
import json
import os
import sys


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else ".build/bench"
    rows = []
    for name, value_key, base_key in (("transport", "bunting", "baseline"), ("engine", "bunting", "baseline"),
                                      ("storage", "sqlite", "memory"), ("stream", "stream", "polling")):
        path = os.path.join(directory, f"{name}.json")
        if not os.path.exists(path):
            rows.append({"benchmark": name, "metric": "(not run)", "verdict": None})
            continue
        for r in json.load(open(path))["table"]:
            if r.get("verdict"):
                rows.append({"benchmark": name, "metric": r["metric"].strip(), "value": r.get(value_key),
                             "baseline": r.get(base_key), "ratio": r.get("ratio"), "target": r["target"],
                             "verdict": r["verdict"]})

    def fmt(x):
        if x is None:
            return "-"
        return f"{x:,.0f}" if abs(x) >= 1000 else (f"{x:.1f}" if abs(x) >= 10 else f"{x:.2f}")

    w = max(len(r["metric"]) for r in rows)
    print(f"{'benchmark':<10} {'metric':<{w}}  {'value':>9}  {'baseline':>9}  {'ratio':>6}  target")
    for r in rows:
        print(f"{r['benchmark']:<10} {r['metric']:<{w}}  {fmt(r.get('value')):>9}  {fmt(r.get('baseline')):>9}  "
              f"{fmt(r.get('ratio')):>6}  {r.get('target') or '':<24} {r.get('verdict') or ''}")
    met = sum(r["verdict"] == "ok" for r in rows)
    print(f"{met} of {sum(r['verdict'] is not None for r in rows)} targets met.")
    with open(os.path.join(directory, "targets.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
