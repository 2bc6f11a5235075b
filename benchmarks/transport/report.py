#!/usr/bin/env python3
"""Turns the transport benchmark's raw lines (one loadgen result each) into the
table of medians, ratios and DESIGN.md targets, and the JSON summary.

Usage: report.py RESULTS.jsonl SUMMARY.json [--method M] [--params P] [--rounds N]
       [--requests N] [--round-trips N] [--cold-runs N] [--cold-flags N] [--seconds S]
       [--busy-before PERCENT] [--strict]
"""
import argparse
import json
import platform
import statistics
import subprocess
import sys

PEERS = ("py-stdlib", "py-datalogic")


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
    ap.add_argument("--cold-flags", type=int)
    ap.add_argument("--seconds", type=float)
    ap.add_argument("--busy-before", type=float, help="percent of CPU busy before the run")
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()

    everything = [json.loads(line) for line in open(args.results) if line.strip()]
    lines = [r for r in everything if "data" in r]
    foreign = {r["round"]: r["foreign_busy_percent"] for r in everything if r["server"] == "machine"}

    def by_round(server, mode, framing, key, pinned):
        return {
            r["round"]: r["data"][key]
            for r in lines
            if r["server"] == server
            and r["data"]["mode"] == mode
            and (framing is None or r["data"]["framing"] == framing)
            and r["pinned"] == pinned
            and key in r["data"]
        }

    def paired(a, b, combine):
        """Median over rounds of combine(a, b) within the same round."""
        v = [combine(a[k], b[k]) for k in a if k in b and b[k]]
        return statistics.median(v) if v else None

    def med(d):
        return statistics.median(d.values()) if d else None

    # (label, unit, mode, key, pinned, framing, scale, higher_is_better, target)
    # target: ("ratio>=" | "ratio<=", x) on Bunting/C in the same round, ("<=", x) on
    # Bunting's value, ("above<=", x) on what Bunting's cold start takes above `bunting version`'s
    # start and exit, paired start by start (loadgen --floor).
    rows = []
    for fr in ("ndjson", "lsp"):
        rows += [
            (f"ping-pong p50 {fr}, 1 CPU", "us", "pingpong", "p50_us", True, fr, 1, False, ("ratio<=", 1.20)),
            (f"ping-pong p99 {fr}, 1 CPU", "us", "pingpong", "p99_us", True, fr, 1, False, ("ratio<=", 2.00)),
            (f"ping-pong p99.9 {fr}, 1 CPU", "us", "pingpong", "p999_us", True, fr, 1, False, None),
            (f"server CPU per round trip {fr}, 1 CPU", "us", "pingpong", "server_cpu_us_per_round_trip", True, fr, 1,
             False, None),
            (f"server context switches per round trip {fr}", "", "pingpong", "server_switches_per_round_trip", True,
             fr, 1, False, None),
        ]
    for fr in ("ndjson", "lsp"):
        rows += [
            (f"ping-pong p50 {fr}, 2 CPUs", "us", "pingpong", "p50_us", False, fr, 1, False, None),
            (f"ping-pong p99 {fr}, 2 CPUs", "us", "pingpong", "p99_us", False, fr, 1, False, None),
        ]
    for fr in ("ndjson", "lsp"):
        rows += [
            (f"pipelined throughput {fr}", "req/s", "throughput", "rps", False, fr, 1, True, ("ratio>=", 1.00)),
            (f"server CPU per request {fr}, pipelined", "us", "throughput", "server_cpu_us_per_request", False, fr,
             1, False, ("ratio<=", 1.20)),
            (f"server context switches per request {fr}, pipelined", "", "throughput", "server_switches_per_request",
             False, fr, 1, False, None),
        ]
    for fr in ("ndjson", "lsp"):
        rows += [
            (f"spawn -> first reply {fr}, {args.cold_flags} flags never seen, :memory:, median", "ms", "coldstart",
             "median_ms", False, fr, 1, False, ("<=", 5.0)),
            (f"  above `bunting version` start+exit {fr}", "ms", "coldstart", "median_ms", False, fr, 1, False,
             ("above<=", 1.5)),
            (f"spawn -> first reply {fr}, p90", "ms", "coldstart", "p90_ms", False, fr, 1, False, None),
            (f"spawn -> first reply {fr}, a document noted before (--cache-dir), median", "ms", "coldstart",
             "median_ms", False, fr, 1, False, None),
        ]
    rows.append(("spawn -> exit, `bunting version`, median", "ms", "startexit", "median_ms", False, None, 1, False,
                 None))
    for fr in ("ndjson", "lsp"):
        rows += [
            (f"idle RSS (VmRSS) {fr}", "MB", "throughput", "rss_idle_kb", False, fr, 1 / 1024, False,
             ("<=", 16.0)),
            (f"RSS right after the pipelined burst {fr}", "MB", "throughput", "rss_after_kb", False, fr, 1 / 1024,
             False, None),
            (f"RSS once the burst is over, above idle {fr}", "MB", "throughput", "rss_settled_kb", False, fr,
             1 / 1024, False, ("above-idle<=", 2.0)),
        ]

    def fmt(x, unit):
        if x is None:
            return "-"
        if unit == "req/s":
            return f"{x:,.0f}"
        if unit == "MB":
            return f"{x:.1f}"
        return f"{x:.1f}" if abs(x) >= 10 else f"{x:.2f}"

    version_ms = by_round("bunting-version", "startexit", None, "median_ms", False)
    table = []
    misses = []
    for label, unit, mode, key, pinned, fr, scale, higher, target in rows:
        bunting_server = "bunting-version" if mode == "startexit" else "bunting"
        if "noted before" in label:
            bunting_server = "bunting-noted"  # a note in --cache-dir says the document loads
        b_rounds = by_round(bunting_server, mode, fr, key, pinned)
        c_rounds = by_round("baseline", mode, fr, key, pinned)
        if target and target[0] == "above<=":
            # Each cold start less the `bunting version` start paired with it
            # (loadgen --floor), median; from results without pairs, the
            # round's medians less `bunting version`'s measured apart.
            paired_above = by_round(bunting_server, mode, fr, "above_floor_median_ms", pinned)
            b_rounds = paired_above or {k: v - version_ms[k] for k, v in b_rounds.items() if k in version_ms}
            c_rounds = {}
        if target and target[0] == "above-idle<=":
            # What the server kept of the burst (each side against its own idle, same round).
            b_idle = by_round(bunting_server, mode, fr, "rss_idle_kb", pinned)
            c_idle = by_round("baseline", mode, fr, "rss_idle_kb", pinned)
            b_rounds = {k: v - b_idle[k] for k, v in b_rounds.items() if k in b_idle}
            c_rounds = {k: v - c_idle[k] for k, v in c_rounds.items() if k in c_idle}
        b = med(b_rounds)
        c = med(c_rounds)
        ratio = paired(b_rounds, c_rounds, lambda x, y: x / y)
        peers = {p: med(by_round(p, mode, fr, key, pinned)) for p in PEERS}
        verdict = None
        target_text = None
        if target:
            kind, limit = target
            if kind == "ratio>=":
                target_text = f"ratio >= {limit:.2f}"
                ok = ratio is not None and ratio >= limit
            elif kind == "ratio<=":
                target_text = f"ratio <= {limit:.2f}"
                ok = ratio is not None and ratio <= limit
            else:
                target_text = f"<= {limit:g} {unit}"
                ok = b is not None and b * scale <= limit
            if kind == "above-idle<=":
                ratio = None  # a difference, not a ratio
            verdict = "ok" if ok else "MISS"
            if not ok:
                misses.append(label.strip())
        table.append({
            "metric": f"{label} ({unit})" if unit else label,
            "bunting": None if b is None else b * scale,
            "baseline": None if c is None else c * scale,
            "ratio": ratio,
            "py_stdlib": None if peers["py-stdlib"] is None else peers["py-stdlib"] * scale,
            "py_datalogic": None if peers["py-datalogic"] is None else peers["py-datalogic"] * scale,
            "better": "higher" if higher else "lower",
            "target": target_text,
            "verdict": verdict,
            "rounds_bunting": [v * scale for v in b_rounds.values()],
            "rounds_baseline": [v * scale for v in c_rounds.values()],
            "unit": unit,
        })

    flush_each = [r["data"]["rps"] for r in lines if r["server"] == "baseline-flush-each"]

    w = max(len(t["metric"]) for t in table)
    head = (f"{'metric':<{w}}  {'Bunting':>9}  {'C':>9}  {'Bunting/C':>10}  {'py-stdlib':>9}  {'py-datalog':>10}  "
            f"{'target':<14} ")
    print()
    print(head)
    print("-" * len(head))
    for t in table:
        ratio = f"{t['ratio']:.2f} {'^' if t['better'] == 'higher' else 'v'}" if t["ratio"] is not None else "-"
        print(f"{t['metric']:<{w}}  {fmt(t['bunting'], t['unit']):>9}  {fmt(t['baseline'], t['unit']):>9}  "
              f"{ratio:>10}  {fmt(t['py_stdlib'], t['unit']):>9}  {fmt(t['py_datalogic'], t['unit']):>10}  "
              f"{(t['target'] or ''):<14} {t['verdict'] or ''}")
    print()
    print("Bunting/C: the median over rounds of Bunting's value divided by the C program's in the same round;")
    print("  ^ = higher is better for Bunting (throughput), v = lower is better (time, CPU, memory).")
    print("C = baseline.c (jansson, one thread); py-stdlib = Python's json module answering the same bytes;")
    print("py-datalogic = Python evaluating the flag's rule with datalogic-py (ping-pong only).")
    print(f"Medians of {args.rounds} rounds; method {args.method!r}, params {args.params}; "
          f"{args.requests:,} pipelined requests, {args.round_trips:,} round trips, {args.cold_runs} cold starts.")
    for t in table:
        if t["metric"].startswith("pipelined throughput"):
            print(f"{t['metric']} per round: Bunting " + ", ".join(f"{v:,.0f}" for v in t["rounds_bunting"])
                  + "; C " + ", ".join(f"{v:,.0f}" for v in t["rounds_baseline"]))
    if flush_each:
        print(f"Reference: the C program writing each reply by itself (--flush-each): "
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
        "benchmark": "transport",
        "method": args.method,
        "params": args.params,
        "rounds": args.rounds,
        "requests": args.requests,
        "round_trips": args.round_trips,
        "cold_runs": args.cold_runs,
        "cold_flags": args.cold_flags,
        "seconds": args.seconds,
        "ratio": "median over rounds of Bunting/C in the same round",
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
