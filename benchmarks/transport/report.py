#!/usr/bin/env python3
"""Turns the transport benchmark's raw lines (one loadgen result each) into the
table of medians, ratios and DESIGN.md targets, and the JSON summary.

Usage: report.py RESULTS.jsonl SUMMARY.json [--method M] [--params P] [--rounds N]
       [--requests N] [--round-trips N] [--cold-runs N] [--seconds S] [--strict]
"""
import argparse
import json
import platform
import statistics
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("summary")
    ap.add_argument("--method", default="status")
    ap.add_argument("--params", default="{}")
    ap.add_argument("--rounds", type=int)
    ap.add_argument("--requests", type=int)
    ap.add_argument("--round-trips", type=int)
    ap.add_argument("--cold-runs", type=int)
    ap.add_argument("--seconds", type=float)
    ap.add_argument("--busy-before", type=float, help="percent of CPU busy before the run")
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()

    everything = [json.loads(line) for line in open(args.results) if line.strip()]
    lines = [r for r in everything if "data" in r]
    foreign = {r["round"]: r["foreign_busy_percent"] for r in everything if r["server"] == "machine"}

    def values(server, mode, framing, key, pinned=False):
        return [
            r["data"][key]
            for r in lines
            if r["server"] == server
            and r["data"]["mode"] == mode
            and r["data"]["framing"] == framing
            and r["pinned"] == pinned
        ]

    def med(server, mode, framing, key, pinned=False):
        v = values(server, mode, framing, key, pinned)
        return statistics.median(v) if v else None

    def paired_ratio(mode, framing, key, pinned=False):
        """Median over rounds of Bunting/baseline within the same round."""
        def by_round(server):
            return {
                r["round"]: r["data"][key]
                for r in lines
                if r["server"] == server
                and r["data"]["mode"] == mode
                and r["data"]["framing"] == framing
                and r["pinned"] == pinned
            }
        b, c = by_round("bunting"), by_round("baseline")
        ratios = [b[k] / c[k] for k in b if k in c and c[k]]
        return statistics.median(ratios) if ratios else None

    # (label, unit, mode, key, pinned, framing, scale, higher_is_better, target)
    # target: ("ratio>=", x) on Bunting/baseline, or ("<=", x) on Bunting's value.
    rows = []
    for fr in ("ndjson", "lsp"):
        rows += [
            (f"throughput {fr}", "req/s", "throughput", "rps", False, fr, 1, True, ("ratio>=", 0.80)),
            (f"server CPU per request {fr}", "us", "throughput", "server_cpu_us_per_request", False, fr, 1, False, None),
        ]
    for fr in ("ndjson", "lsp"):
        for pinned, where in ((True, "1 CPU"), (False, "2 CPUs")):
            for key, name in (("p50_us", "p50"), ("p99_us", "p99"), ("p999_us", "p99.9")):
                target = ("<=", 100.0) if pinned and key == "p99_us" else None
                rows.append((f"ping-pong {name} {fr}, {where}", "us", "pingpong", key, pinned, fr, 1, False, target))
    for fr in ("ndjson", "lsp"):
        rows += [
            (f"cold start median {fr}", "ms", "coldstart", "median_ms", False, fr, 1, False, ("<=", 10.0)),
            (f"cold start p90 {fr}", "ms", "coldstart", "p90_ms", False, fr, 1, False, None),
        ]
    for fr in ("ndjson", "lsp"):
        rows += [
            (f"idle RSS (VmRSS) {fr}", "MB", "throughput", "rss_idle_kb", False, fr, 1 / 1024, False, ("<=", 16.0)),
            (f"RSS after throughput run {fr}", "MB", "throughput", "rss_after_kb", False, fr, 1 / 1024, False, None),
            (f"peak RSS (VmHWM) after run {fr}", "MB", "throughput", "hwm_after_kb", False, fr, 1 / 1024, False, None),
        ]

    def fmt(x, unit):
        if x is None:
            return "-"
        if unit == "req/s":
            return f"{x:,.0f}"
        if unit == "MB":
            return f"{x:.1f}"
        return f"{x:.1f}" if x >= 10 else f"{x:.2f}"

    table = []
    misses = []
    for label, unit, mode, key, pinned, fr, scale, higher, target in rows:
        b = med("bunting", mode, fr, key, pinned)
        c = med("baseline", mode, fr, key, pinned)
        b = b * scale if b is not None else None
        c = c * scale if c is not None else None
        ratio = paired_ratio(mode, fr, key, pinned)
        verdict = ""
        target_text = ""
        if target:
            kind, limit = target
            if kind == "ratio>=":
                target_text = f"ratio >= {limit:.2f}"
                ok = ratio is not None and ratio >= limit
            else:
                target_text = f"<= {limit:g} {unit}"
                ok = b is not None and b <= limit
            verdict = "ok" if ok else "MISS"
            if not ok:
                misses.append(label)
        table.append({
            "metric": f"{label} ({unit})",
            "bunting": b,
            "baseline": c,
            "ratio": ratio,
            "better": "higher" if higher else "lower",
            "target": target_text or None,
            "verdict": verdict or None,
            "rounds_bunting": [v * scale for v in values("bunting", mode, fr, key, pinned)],
            "rounds_baseline": [v * scale for v in values("baseline", mode, fr, key, pinned)],
            "unit": unit,
        })

    flush_each = [r["data"]["rps"] for r in lines if r["server"] == "baseline-flush-each"]

    w = max(len(t["metric"]) for t in table)
    head = f"{'metric':<{w}}  {'Bunting':>9}  {'baseline':>9}  {'Bunting/base':>12}  {'target (DESIGN.md)':<19} "
    print()
    print(head)
    print("-" * len(head))
    for t in table:
        ratio = f"{t['ratio']:.2f} {'^' if t['better'] == 'higher' else 'v'}" if t["ratio"] is not None else "-"
        print(f"{t['metric']:<{w}}  {fmt(t['bunting'], t['unit']):>9}  {fmt(t['baseline'], t['unit']):>9}  "
              f"{ratio:>12}  {(t['target'] or ''):<19} {t['verdict'] or ''}")
    print()
    print("Bunting/base: the median over rounds of Bunting's value divided by the baseline's in the same round;")
    print("  ^ = higher is better for Bunting (throughput), v = lower is better (time, CPU, memory).")
    print(f"Medians of {args.rounds} rounds; method {args.method!r}, params {args.params}; "
          f"{args.requests:,} pipelined requests, {args.round_trips:,} round trips, {args.cold_runs} cold starts.")
    tp = [t for t in table if t["metric"].startswith("throughput")]
    for t in tp:
        print(f"{t['metric']} per round: Bunting " + ", ".join(f"{v:,.0f}" for v in t["rounds_bunting"])
              + "; baseline " + ", ".join(f"{v:,.0f}" for v in t["rounds_baseline"]))
    if flush_each:
        print(f"Reference: the baseline writing each reply by itself (--flush-each): "
              f"{statistics.median(flush_each):,.0f} req/s ndjson.")
    if args.busy_before is not None:
        per_round = ", ".join(f"{foreign[k]}%" for k in sorted(foreign))
        print(f"Machine: {_cpus()} CPUs; {args.busy_before:.0f}% busy in the second before measuring; "
              f"other processes' share of the CPUs by round: {per_round}.")
        if args.busy_before > 10 or any(v > 5 for v in foreign.values()):
            print("  WARNING: other load on the machine; absolute numbers are unreliable, the paired ratios less so.")
    if misses:
        print(f"Targets missed: {', '.join(misses)}.")
    else:
        print("All targets met.")

    summary = {
        "method": args.method,
        "params": args.params,
        "rounds": args.rounds,
        "requests": args.requests,
        "round_trips": args.round_trips,
        "cold_runs": args.cold_runs,
        "seconds": args.seconds,
        "ratio": "median over rounds of Bunting/baseline in the same round",
        "machine": {
            "busy_percent_before": args.busy_before,
            "foreign_busy_percent_by_round": foreign,
            "cpus": _cpus(),
            "kernel": platform.release(),
            "cpu_model": _cpu_model(),
        },
        "table": table,
        "baseline_flush_each_rps": statistics.median(flush_each) if flush_each else None,
        "targets_missed": misses,
        "raw": lines,
    }
    with open(args.summary, "w") as f:
        json.dump(summary, f, indent=1)
    print(f"Written: {args.summary}  ({args.seconds:.0f} s of measuring)")
    return 1 if args.strict and misses else 0


def _cpus():
    try:
        return int(subprocess.run(["nproc"], capture_output=True, text=True).stdout)
    except Exception:
        return None


def _cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


if __name__ == "__main__":
    sys.exit(main())
