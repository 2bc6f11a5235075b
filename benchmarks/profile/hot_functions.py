#!/usr/bin/env python3
"""The functions of the `bunting` binary that the callgrind profiles name
(recorded with --demangle=no, so names are the symbols), one symbol a line
as lld's --symbol-ordering-file reads them, sorted so that the list changes
only where the code does.

    hot_functions.py [--keep LIST --binary BINARY] CALLGRIND.out...

With --keep, the names of LIST (the list before) that BINARY still defines
are kept too: what runs depends a little on timing (the output writer's
thread runs only while the pipe is full), so one run of the workloads can
miss a function another run met; a name the code no longer has goes.
"""
import re
import subprocess
import sys

# callgrind's compressed names: "fn=(12) name" defines id 12, "fn=(12)" reuses it.
NAME = re.compile(r"^(ob|fn|cob|cfn)=\((\d+)\)(?: (.*))?$")
RECURSION = re.compile(r"'\d+$")


def functions(path):
    """Names of the functions run in the object named `bunting`."""
    objects, names, run = {}, {}, set()
    current = None
    with open(path, errors="replace") as f:
        for line in f:
            m = NAME.match(line.rstrip("\n"))
            if not m:
                continue
            kind, ident, name = m.groups()
            table = objects if kind.endswith("ob") else names
            if name is not None:
                table[ident] = name
            if kind == "ob":
                current = objects[ident]
            elif kind == "fn" and current is not None and current.endswith("/bunting"):
                # A recursive call's level ("name'2") is the same function.
                run.add(RECURSION.sub("", names[ident]))
    return run


def defined(binary):
    """The symbols BINARY defines."""
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in listing.splitlines() if len(line.split()) >= 3}


def main():
    args = sys.argv[1:]
    run = set()
    if args[:1] == ["--keep"]:
        previous, binary, args = args[1], args[3], args[4:]
        with open(previous) as f:
            run |= {line.strip() for line in f if line.strip()} & defined(binary)
    for path in args:
        run |= functions(path)
    for name in sorted(run):
        # Addresses callgrind could not name are left out.
        if not name.startswith("0x"):
            print(name)


if __name__ == "__main__":
    main()
