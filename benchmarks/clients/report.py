#!/usr/bin/env python3
"""Prints the clients benchmark's table from the two languages' JSON of one run: every
mode with its baseline of the same run and the ratio, then the targets of issue 28
(DESIGN.md: a static read ≤ 5 µs in Python and ≤ 2 µs in Node, through the OpenFeature
client faster than flagd-core in-process through the same client, a dynamic call
≤ 1.3× a raw pipe round trip).

    report.py PYTHON_JSON NODE_JSON [--json OUT]
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROUND_TRIPS = "round trips"


def baseline(row: Dict) -> Optional[str]:
    """The mode of the same language and group a row is compared with."""
    mode, group = row["mode"], row["group"]
    if group == ROUND_TRIPS:
        if mode in ("raw pipe", "raw pipe, asyncio"):
            return None
        return "raw pipe, asyncio" if "Async" in mode else "raw pipe"
    if row["language"] != "python":
        return None
    if mode.startswith("flagd-core"):
        return None
    return ("flagd-core provider, OpenFeature client" if mode.endswith("OpenFeature client")
            else "flagd-core, direct")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("python_json")
    parser.add_argument("node_json")
    parser.add_argument("--json")
    options = parser.parse_args()
    python = json.loads(Path(options.python_json).read_text())
    node = json.loads(Path(options.node_json).read_text())
    rows: List[Dict] = python["rows"] + node["rows"]
    index = {(row["language"], row["group"], row["mode"]): row for row in rows}

    def p50(language: str, group: str, mode: str) -> float:
        return index[(language, group, mode)]["p50"]

    print("Clients benchmark: Python %s (%d rounds, %d round trips and %d reads a mode a round), Node %s "
          "(%d rounds); release build; answers checked equal to flagd-core's for %d resolutions"
          % (python["python"], python["rounds"], python["roundTrips"], python["reads"], node["node"],
             node["rounds"], python["checked"]))
    print()
    print("| language | workload | mode | p50 µs | p99 µs | mean µs | compared with | p50 ratio |")
    print("|---|---|---|---:|---:|---:|---|---:|")
    for row in rows:
        against = baseline(row)
        ratio = ""
        if against is not None:
            base = index.get((row["language"], row["group"], against))
            if base is not None:
                ratio = "%.2f×" % (row["p50"] / base["p50"])
                row["baseline"], row["ratio"] = against, row["p50"] / base["p50"]
        workload = ("evaluateFlag, a context per call (10,000 targeting keys)" if row["group"] == ROUND_TRIPS
                    else row["group"])
        digits = 2 if row["p50"] < 10 else 1
        print("| %s | %s | %s | %.*f | %.*f | %.*f | %s | %s |" % (
            row["language"], workload, row["mode"], digits, row["p50"], digits, row["p99"], digits, row["mean"],
            against or "", ratio))

    targets: List[Tuple[str, str, bool]] = []
    for group in ("attribute rule, one user", "25/75 rollout, one user"):
        value = p50("python", group, "BuntingProvider static")
        targets.append(("Python static read ≤ 5 µs (%s)" % group, "%.2f µs" % value, value <= 5))
        value = p50("node", group, "BuntingProvider static")
        targets.append(("Node static read ≤ 2 µs (%s)" % group, "%.2f µs" % value, value <= 2))
        ours = p50("python", group, "BuntingProvider static, OpenFeature client")
        theirs = p50("python", group, "flagd-core provider, OpenFeature client")
        targets.append(("OpenFeature client over the static provider faster than over flagd-core (%s)" % group,
                        "%.1f vs %.1f µs (%.2f×)" % (ours, theirs, ours / theirs), ours < theirs))
    for language, floor in (("python", "raw pipe + json"), ("node", "raw pipe + JSON")):
        ours, base = p50(language, ROUND_TRIPS, floor), p50(language, ROUND_TRIPS, "raw pipe")
        targets.append(("%s: the least a client does (encode, write, read, decode) beside the raw pipe (no target)"
                        % language.capitalize(), "%.1f vs %.1f µs (%.2f×)" % (ours, base, ours / base), True))
    for language, mode, raw in (("python", "BuntingProvider dynamic", "raw pipe"),
                                ("python", "Bunting.evaluate_flag", "raw pipe"),
                                ("node", "BuntingProvider dynamic", "raw pipe"),
                                ("node", "client.evaluateFlag", "raw pipe")):
        ours, base = p50(language, ROUND_TRIPS, mode), p50(language, ROUND_TRIPS, raw)
        targets.append(("%s %s ≤ 1.3× the raw pipe" % (language.capitalize(), mode),
                        "%.1f vs %.1f µs (%.2f×)" % (ours, base, ours / base), ours / base <= 1.3))
    ours, base = p50("python", ROUND_TRIPS, "AsyncBuntingProvider dynamic"), p50("python", ROUND_TRIPS,
                                                                               "raw pipe, asyncio")
    targets.append(("Python AsyncBuntingProvider dynamic beside the raw pipe on asyncio (no target)",
                    "%.1f vs %.1f µs (%.2f×)" % (ours, base, ours / base), True))
    print()
    print("| target | measured | |")
    print("|---|---|---|")
    for name, measured, met in targets:
        print("| %s | %s | %s |" % (name, measured, "met" if met else "missed"))
    if options.json:
        Path(options.json).write_text(json.dumps({"rows": rows, "targets": [
            {"target": name, "measured": measured, "met": met} for name, measured, met in targets]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
