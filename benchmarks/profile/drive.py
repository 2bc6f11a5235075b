#!/usr/bin/env python3
"""Feeds a server a script of requests over its stdin, waiting where told, then
closes stdin and drains stdout: the client of the instruction-count profiles,
which must not close the input before the work it measures is done.

    drive.py SCRIPT -- COMMAND [ARGS...]

SCRIPT has one step a line: `send <json>` writes one NDJSON request,
`wait <n> <marker>` reads until <marker> has gone by n more times, `idle
<seconds>` reads whatever comes for that long (what a server does once it
is left alone: its timers, a memory release).
"""
import os
import select
import subprocess
import sys
import time


def main():
    split = sys.argv.index("--")
    script, command = sys.argv[1], sys.argv[split + 1:]
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    tail = b""
    for line in open(script, "rb"):
        verb, _, rest = line.rstrip(b"\n").partition(b" ")
        if verb == b"send":
            server.stdin.write(rest + b"\n")
        elif verb == b"wait":
            count, _, marker = rest.partition(b" ")
            seen, want = 0, int(count)
            while seen < want:
                chunk = os.read(server.stdout.fileno(), 1 << 20)
                if not chunk:
                    sys.exit(f"drive: the server ended before {want} x {marker!r}")
                window = tail + chunk
                seen += window.count(marker)
                tail = window[-(len(marker) - 1):] if len(marker) > 1 else b""
            tail = b""
        elif verb == b"idle":
            deadline = time.monotonic() + float(rest)
            while (left := deadline - time.monotonic()) > 0:
                if select.select([server.stdout], [], [], left)[0]:
                    if not os.read(server.stdout.fileno(), 1 << 20):
                        sys.exit("drive: the server ended while idle")
            tail = b""
    server.stdin.close()
    while os.read(server.stdout.fileno(), 1 << 20):
        pass
    sys.exit(server.wait())


if __name__ == "__main__":
    main()
