#!/usr/bin/env python3
"""GrowthBook features over the protocol, beside flagd flags in the same run.

    protocol.py --bunting BIN --loadgen BIN [--rounds N] [--quick] [--out FILE]
    protocol.py --bunting BIN --instructions [--out FILE]

Two measurements, each against its flagd counterpart, in alternating order
so that drift on a busy machine weighs on both sides:

- Ping-pong (loadgen pingpong, NDJSON): `evaluateFeature` of a feature with a
  targeted force rule and a 50/50 experiment, for a context given with the
  request and for the current user (sticky arms read, the exposure logged
  once then known), against `evaluateFlag` of a flagd flag of the same shape
  (an `if` on the tier, then a 50/50 `fractional`) in the same document of
  100 of each. loadgen repeats one request, so the feature and the context
  are drawn from a seed per round instead, the same for both sides.
- Load (loadgen coldstart, `status` as the first request): a 10,000-feature
  GrowthBook payload against a flagd document of 10,000 flags of the same
  shape, `--storage :memory:` and no notes, so each start compiles its
  document; `bunting version`'s start and exit is the floor both are
  measured above.

Prints a table with ratios (feature / flag: below 1.1 and 1.5 are the
targets) and writes it as JSON to --out.

--instructions counts instead of timing (valgrind's callgrind, repeatable on
a busy machine): the server's instructions per request over 3,000 requests,
each naming one of the 100 features (flags) and one of 500 contexts in turn,
less those of a start and exit with one request, each the least of three
runs. That request (a feature's
evaluation, which waits for the whole document) opens every stream, so the
document's load, which a server started with a never-seen document runs on
a thread of its own while it answers flags, is in the floor on both sides
rather than in whichever side it happened to overlap.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

TIERS = ["gold", "silver", "bronze"]
COUNTRIES = ["US", "GB", "FR", "DE", "JP"]


def flag(index, rng):
    """A flagd flag: gold gets one colour, the others a 50/50 split."""
    colours = rng.sample(["blue", "green", "grey", "red", "teal"], 3)
    return {
        "state": "ENABLED",
        "variants": {colour: colour for colour in colours},
        "defaultVariant": colours[2],
        "targeting": {"if": [{"==": [{"var": "tier"}, rng.choice(TIERS)]}, colours[0],
                             {"fractional": [{"cat": [{"var": "targetingKey"}, f"exp-{index}"]},
                                             [colours[0], 50], [colours[1], 50]]}]},
    }


def feature(index, rng):
    """The same as a GrowthBook feature: a force rule, then a 50/50 experiment."""
    colours = rng.sample(["blue", "green", "grey", "red", "teal"], 3)
    return {
        "defaultValue": colours[2],
        "rules": [
            {"id": f"fr-{index}", "condition": {"tier": rng.choice(TIERS)}, "force": colours[0]},
            {"id": f"ex-{index}", "key": f"exp-{index}", "variations": colours[:2], "weights": [0.5, 0.5],
             "hashAttribute": "id", "hashVersion": 2, "meta": [{"key": "control"}, {"key": "treatment"}]},
        ],
    }


def context(rng):
    return {"tier": rng.choice(TIERS), "country": rng.choice(COUNTRIES), "age": rng.randrange(18, 90)}


def write(path, document):
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document, out)
    return path


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("protocol.py: %s failed (%d): %s%s" % (command[0], done.returncode, done.stdout, done.stderr))
    return json.loads(done.stdout)


def first_result(bunting, serve_args, method, params):
    """The server's own answer, so that loadgen checks every reply against it."""
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    done = subprocess.run([bunting, "serve", *serve_args], input=request + "\n", capture_output=True, text=True,
                          timeout=60)
    reply = json.loads(done.stdout.splitlines()[0])
    if "result" not in reply:
        sys.exit("protocol.py: %s answered %s" % (method, reply))
    return json.dumps(reply["result"], separators=(",", ":"))


def instructions(bunting, document, requests, runs=3):
    """Instructions callgrind counts for the server reading `requests` (text):
    the least of `runs` runs. A start's count moves by up to 2% from one run
    to the next with the timing of the thread that loads the document
    (Swift's hashing is seeded alike in every run, so that does not move
    it); the request streams' counts barely move."""
    return min(count_once(bunting, document, requests) for _ in range(runs))


def count_once(bunting, document, requests):
    stripped = os.path.join(os.path.dirname(document), "bunting-stripped")
    if not os.path.exists(stripped):
        # Valgrind cannot read the DWARF 5 the toolchain writes; the symbol table is enough.
        subprocess.run(["objcopy", "--strip-debug", bunting, stripped], check=True)
    out = document + ".callgrind"
    # Swift seeds its hashing per process; a fixed seed makes the counts repeat.
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    # Replies go to /dev/null: read through a pipe, they would fill it and
    # make the server wait to write, a cost of pipelining (longer replies
    # fill it sooner) that a client reading each reply before it asks again,
    # as ping-pong does, never causes.
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, stripped, "serve", "--storage",
                    ":memory:", "--definitions", document], input=requests, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE, text=True, check=True, env=environment)
    for line in open(out, encoding="utf-8"):
        if line.startswith("totals:") or line.startswith("summary:"):
            return int(line.split()[1])
    sys.exit("protocol.py: no totals in " + out)


def count_instructions(options, work, both):
    rng = random.Random(7)
    contexts = [(f"user-{i}", context(rng)) for i in range(500)]
    count = 3_000
    streams = {"evaluateFlag (context)": [], "evaluateFeature (attributes)": [], "evaluateFeature (current user)": []}
    for i in range(count):
        user, attributes = contexts[i % len(contexts)]
        key = (i * 37) % 100
        streams["evaluateFlag (context)"].append(("evaluateFlag", {
            "flagKey": f"flag-{key}", "context": {"targetingKey": user, **attributes}}))
        streams["evaluateFeature (attributes)"].append(("evaluateFeature", {
            "featureKey": f"feature-{key}", "attributes": {"id": user, **attributes}}))
        streams["evaluateFeature (current user)"].append(("evaluateFeature", {"featureKey": f"feature-{key}"}))
    # Waits for the whole document to load: every count below starts after it.
    opening = json.dumps({"jsonrpc": "2.0", "id": "load", "method": "evaluateFeature",
                          "params": {"featureKey": "feature-0", "attributes": {"id": "opening"}}}) + "\n"
    floor = instructions(options.bunting, both, opening)
    per_request = {}
    for row, requests in streams.items():
        text = opening + "".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n"
                       for i, (method, params) in enumerate(requests))
        per_request[row] = (instructions(options.bunting, both, text) - floor) / count
        print("  %-32s %9.0f instructions a request" % (row, per_request[row]), file=sys.stderr)
    flag = per_request["evaluateFlag (context)"]
    table = [{"metric": f"instructions a request, {row} vs evaluateFlag", "feature": value, "flag": flag,
              "ratio": value / flag, "target": "<= 1.1x"} for row, value in per_request.items() if row.startswith("evaluateFeature")]
    return table


def print_table(title, table):
    print()
    print(title)
    print("%-64s %10s %10s %7s  %s" % ("", "feature", "flag", "ratio", "target"))
    for row in table:
        verdict = ""
        if row["target"]:
            limit = float(row["target"].split()[1].rstrip("x"))
            row["verdict"] = verdict = "met" if row["ratio"] <= limit else "MISSED"
        print("%-64s %10.2f %10.2f %6.2fx  %s %s" % (row["metric"], row["feature"], row["flag"], row["ratio"],
                                                    row["target"] or "", verdict))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bunting", required=True)
    parser.add_argument("--loadgen")
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out")
    options = parser.parse_args()
    rounds = 1 if options.quick else options.rounds
    round_trips, warmup, cold_runs = (2_000, 500, 5) if options.quick else (20_000, 2_000, 21)

    work = tempfile.mkdtemp(prefix="bunting-experiments-protocol-")
    rng = random.Random(20261204)
    both = write(os.path.join(work, "both.json"), {
        "flags": {f"flag-{i}": flag(i, rng) for i in range(100)},
        "features": {f"feature-{i}": feature(i, rng) for i in range(100)},
    })
    payload = write(os.path.join(work, "payload.json"), {
        "features": {f"feature-{i}": feature(i, rng) for i in range(10_000)}, "dateUpdated": "2026-12-01T00:00:00Z"})
    flagd = write(os.path.join(work, "flagd.json"), {"flags": {f"flag-{i}": flag(i, rng) for i in range(10_000)}})
    memory = ["--storage", ":memory:"]
    if options.instructions:
        table = count_instructions(options, work, both)
        print_table("GrowthBook features over the protocol, instructions (callgrind; ratio = feature / flag)", table)
        if options.out:
            with open(options.out, "w", encoding="utf-8") as out:
                json.dump({"table": table}, out, indent=1)
        subprocess.run(["rm", "-rf", work])
        return
    if not options.loadgen:
        sys.exit("protocol.py: --loadgen is needed to time (or give --instructions)")

    samples = {}

    def note(row, value):
        samples.setdefault(row, []).append(value)

    for round_number in range(1, rounds + 1):
        # Each round its own key and context, from the seed.
        pick = random.Random(round_number)
        key = pick.randrange(100)
        attributes = context(pick)
        user = f"user-{pick.randrange(500)}"
        sides = {
            "evaluateFlag (context)": ("evaluateFlag", {"flagKey": f"flag-{key}",
                                                        "context": {"targetingKey": user, **attributes}}),
            "evaluateFeature (attributes)": ("evaluateFeature", {"featureKey": f"feature-{key}",
                                                                 "attributes": {"id": user, **attributes}}),
            "evaluateFeature (current user)": ("evaluateFeature", {"featureKey": f"feature-{key}"}),
        }
        order = list(sides) if round_number % 2 else list(reversed(sides))
        for row in order:
            method, params = sides[row]
            serve = memory + ["--definitions", both]
            expected = first_result(options.bunting, serve, method, params)
            if row.endswith("(current user)"):
                # The anonymous user's arm depends on its device id, new at each start: check the shape only.
                expected = '"source":"'
            data = run([options.loadgen, "pingpong", "--method", method, "--params", json.dumps(params),
                        "-n", str(round_trips), "--warmup", str(warmup), "--expect", expected, "--",
                        options.bunting, "serve", *serve])
            note(row + " p50", data["p50_us"])
            note(row + " p99", data["p99_us"])
            note(row + " CPU", data["server_cpu_us_per_round_trip"])
            print("  round %d  %-32s p50 %.1f  p99 %.1f us, CPU %.1f us" % (
                round_number, row, data["p50_us"], data["p99_us"], data["server_cpu_us_per_round_trip"]),
                file=sys.stderr)
        loads = [("version", [options.bunting, "version"]),
                 ("10,000 flagd flags", [options.bunting, "serve", *memory, "--definitions", flagd]),
                 ("10,000 GrowthBook features", [options.bunting, "serve", *memory, "--definitions", payload])]
        for row, command in (loads if round_number % 2 else list(reversed(loads))):
            mode = "startexit" if row == "version" else "coldstart"
            data = run([options.loadgen, mode, "--method", "status", "-n", str(cold_runs), "--", *command])
            note("start " + row, data["median_ms"])
            print("  round %d  start, %-27s median %.2f ms" % (round_number, row, data["median_ms"]),
                  file=sys.stderr)

    best = {row: min(values) for row, values in samples.items()}
    flag_row, table = "evaluateFlag (context)", []
    for side in ("evaluateFeature (attributes)", "evaluateFeature (current user)"):
        for measure in ("p50", "p99", "CPU"):
            feature_value, flag_value = best[f"{side} {measure}"], best[f"{flag_row} {measure}"]
            table.append({"metric": f"ping-pong {side} vs evaluateFlag, {measure} (us)", "feature": feature_value,
                          "flag": flag_value, "ratio": feature_value / flag_value,
                          "target": "<= 1.1x" if measure == "p50" else None})
    floor = best["start version"]
    features_ms, flags_ms = best["start 10,000 GrowthBook features"], best["start 10,000 flagd flags"]
    table.append({"metric": "spawn -> first reply, 10,000 features vs 10,000 flags (ms)", "feature": features_ms,
                  "flag": flags_ms, "ratio": features_ms / flags_ms, "target": None})
    table.append({"metric": "  of which loading, above `bunting version` (ms)", "feature": features_ms - floor,
                  "flag": flags_ms - floor, "ratio": (features_ms - floor) / (flags_ms - floor),
                  "target": "<= 1.5x"})

    print_table("GrowthBook features over the protocol (best of %d rounds; ratio = feature / flag)" % rounds, table)
    print("(`bunting version` starts and exits in %.2f ms)" % floor)
    if options.out:
        with open(options.out, "w", encoding="utf-8") as out:
            json.dump({"rounds": rounds, "version_start_ms": floor, "table": table}, out, indent=1)
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
