#!/usr/bin/env python3
"""Instruction counts of callgrind profiles: the total, and the functions whose
inclusive count grew most from profile A to profile B, per unit of work.

    diff.py A.out B.out UNITS [TOP]     (B minus A, divided by UNITS)
    diff.py - B.out 1 [TOP]             (B alone)

Function names are demangled with `swift demangle --simplified` when it is there.
"""
import re
import shutil
import subprocess
import sys

LINE = re.compile(r"^\s*([\d,]+) \([^)]*\)\s+(.*)$")


def inclusive(path):
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                          capture_output=True, text=True, check=True).stdout
    total, functions = 0, {}
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        count, name = int(m.group(1).replace(",", "")), m.group(2)
        if "PROGRAM TOTALS" in name:
            total = count
            continue
        # Recursion levels ('2) and the object file are folded into one name.
        name = re.sub(r"'\d+", "", name)
        name = re.sub(r"^\?\?\?:|^\S+\.[ch]:", "", name)
        functions[name] = max(functions.get(name, 0), count)
    return total, functions


def demangle(names):
    if not shutil.which("swift"):
        return names
    out = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True,
                         text=True).stdout.splitlines()
    return out if len(out) == len(names) else names


def main():
    a, b, units = sys.argv[1], sys.argv[2], float(sys.argv[3])
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 25
    total_b, fb = inclusive(b)
    total_a, fa = (0, {}) if a == "-" else inclusive(a)
    per = (total_b - total_a) / units
    print(f"total: {per:,.0f} instructions per unit ({total_b:,} - {total_a:,}) / {units:g}")
    # Wrappers that only pass the count on, and jansson's unnamed internals, say nothing.
    noise = ("partial apply", "thunk for", "@objc closure", "start_thread", "0x0")
    deltas = sorted(((fb[k] - fa.get(k, 0)) / units, k) for k in fb if not k.startswith(noise))
    deltas.reverse()
    names = demangle([k for _, k in deltas[:top]])
    for (d, _), name in zip(deltas[:top], names):
        share = 100 * d / per if per else 0
        print(f"{d:>14,.0f} {share:6.1f}%  {name[:150]}")


if __name__ == "__main__":
    main()
