#!/usr/bin/env python3
"""A Python JSON-RPC server that really evaluates flags: the definitions'
flagd flags, their targeting compiled once with datalogic-py (a Rust
JSONLogic engine) and evaluated per evaluateFlag request, with flagd's
operators (fractional, sem_ver, starts_with, ends_with) registered as Python
custom operators, as a Python flagd provider built on datalogic would do.

    peer_datalogic.py [--lsp] [--definitions FILE]   (default: the bundled example)

Resolution follows flagd: DISABLED, STATIC (no targeting), TARGETING_MATCH
(the rule named a variant), DEFAULT (it gave null), FLAG_NOT_FOUND. `$ref`s to
`$evaluators` are inlined, and a `fractional` without a bucketing value gets
flagd's default, the flag key followed by the targeting key.
"""
import json
import os
import struct
import sys
import time

import datalogic_py

from peer_io import serve

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DEFINITIONS = os.path.join(HERE, "..", "..", "examples", "definitions", "bunting.json")


def murmur3_32(data, seed=0):
    c1, c2, mask = 0xCC9E2D51, 0x1B873593, 0xFFFFFFFF
    h = seed
    whole = len(data) // 4 * 4
    for (k,) in struct.iter_unpack("<I", data[:whole]):
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        h ^= (k * c2) & mask
        h = ((h << 13) | (h >> 19)) & mask
        h = (h * 5 + 0xE6546B64) & mask
    tail = data[whole:]
    if tail:
        k = int.from_bytes(tail, "little")
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        h ^= (k * c2) & mask
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & mask
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & mask
    return h ^ (h >> 16)


def fractional(args_json):
    args = json.loads(args_json)
    key, buckets = args[0], args[1:]
    total = sum(b[1] if len(b) > 1 else 1 for b in buckets)
    bucket = murmur3_32(str(key).encode()) * total >> 32
    end = 0
    for b in buckets:
        end += b[1] if len(b) > 1 else 1
        if bucket < end:
            return json.dumps(b[0])
    return "null"


def version(text):
    core = str(text).lstrip("vV").split("+")[0]
    core, _, pre = core.partition("-")
    parts = [int(p) for p in core.split(".")]
    return parts + [0] * (3 - len(parts)), pre


def sem_ver(args_json):
    left, op, right = json.loads(args_json)
    try:
        (a, apre), (b, bpre) = version(left), version(right)
    except ValueError:
        return "null"
    if op == "^":
        return json.dumps(a[0] == b[0] and a >= b)
    if op == "~":
        return json.dumps(a[:2] == b[:2] and a >= b)
    ka = (a, apre == "", apre)
    kb = (b, bpre == "", bpre)
    return json.dumps({"=": ka == kb, "!=": ka != kb, "<": ka < kb, "<=": ka <= kb, ">": ka > kb, ">=": ka >= kb}[op])


def starts_with(args_json):
    a, b = json.loads(args_json)
    return json.dumps(isinstance(a, str) and isinstance(b, str) and a.startswith(b))


def ends_with(args_json):
    a, b = json.loads(args_json)
    return json.dumps(isinstance(a, str) and isinstance(b, str) and a.endswith(b))


def prepare(rule, evaluators):
    """Inlines $refs and gives fractional its default bucketing value."""
    if isinstance(rule, list):
        return [prepare(r, evaluators) for r in rule]
    if not isinstance(rule, dict):
        return rule
    if set(rule) == {"$ref"}:
        return prepare(evaluators[rule["$ref"]], evaluators)
    out = {k: prepare(v, evaluators) for k, v in rule.items()}
    if "fractional" in out and out["fractional"] and isinstance(out["fractional"][0], list):
        default = {"cat": [{"var": "$flagd.flagKey"}, {"var": "targetingKey"}]}
        out["fractional"] = [default] + out["fractional"]
    return out


def main():
    args = sys.argv[1:]
    path = args[args.index("--definitions") + 1] if "--definitions" in args else DEFAULT_DEFINITIONS
    with open(path) as f:
        document = json.load(f)
    engine = datalogic_py.Engine(custom_operators={
        "fractional": fractional, "sem_ver": sem_ver, "starts_with": starts_with, "ends_with": ends_with,
    })
    evaluators = document.get("$evaluators", {})
    flag_set_metadata = document.get("metadata") or {}
    flags = {}
    for key, flag in document.get("flags", {}).items():
        targeting = flag.get("targeting")
        rule = engine.compile(prepare(targeting, evaluators)) if targeting not in (None, {}) else None
        # As flagd and Bunting: the flag's metadata over the flag set's.
        metadata = {**flag_set_metadata, **(flag.get("metadata") or {})}
        flags[key] = (flag, rule, metadata)

    def answer(request):
        if request["method"] != "evaluateFlag":
            raise LookupError(request["method"])
        params = request.get("params") or {}
        key = params.get("flagKey")
        if key not in flags:
            return {"value": None, "variant": None, "reason": "ERROR", "errorCode": "FLAG_NOT_FOUND"}
        flag, rule, metadata = flags[key]
        resolved = resolve(key, flag, rule, params)
        if metadata:
            resolved["metadata"] = metadata
        return resolved

    def resolve(key, flag, rule, params):
        variants = flag["variants"]
        if flag.get("state") == "DISABLED":
            return {"value": None, "variant": None, "reason": "DISABLED"}
        if rule is None:
            return {"value": variants[flag["defaultVariant"]], "variant": flag["defaultVariant"], "reason": "STATIC"}
        data = dict(params.get("context") or {})
        data["$flagd"] = {"flagKey": key, "timestamp": int(time.time())}
        variant = rule.evaluate(data)
        if isinstance(variant, bool):
            variant = "true" if variant else "false"
        if variant is None:
            return {"value": variants[flag["defaultVariant"]], "variant": flag["defaultVariant"], "reason": "DEFAULT"}
        if variant not in variants:
            return {"value": None, "variant": None, "reason": "ERROR", "errorCode": "GENERAL"}
        return {"value": variants[variant], "variant": variant, "reason": "TARGETING_MATCH"}

    serve(answer)


if __name__ == "__main__":
    main()
