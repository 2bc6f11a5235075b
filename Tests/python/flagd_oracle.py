#!/usr/bin/env python3
"""Resolves flags with openfeature-flagd-core, for Bunting's differential tests.

Usage: flagd_oracle.py FLAGS_FILE TIMESTAMP [TYPES_JSON]

FLAGS_FILE is a flagd flag-definition document. TIMESTAMP (Unix seconds) is
what `$flagd.timestamp` reads, so that results do not depend on the clock.
TYPES_JSON optionally maps flag keys to the type the caller asks for
("boolean", "string", "integer", "float", "object"); other flags resolve
untyped.

Writes first a header line, {"keys": [...], "metadata": {key: {...}}}: the
flag keys of the document plus "no-such-flag", and the metadata flagd reports
with each flag (the flag set's overlaid with the flag's own). Then reads one
evaluation context per line on stdin (a JSON object whose `targetingKey`, if
any, is the targeting key and whose other members are the attributes) and
writes one line per context: an array with, for each key in order,
[value, variant, reason, errorCode]. The output is this compact because the
differential test parses millions of results.

The installed package decides the generation of `fractional`: 1.x hashes the
string flagKey+targetingKey, 2.x the CBOR encoding of the bucketing value.
"""

import json
import logging
import sys
import time

from openfeature.evaluation_context import EvaluationContext
from openfeature.exception import OpenFeatureError
from openfeature.contrib.tools.flagd.core import FlagdCore


def main() -> None:
    path, timestamp = sys.argv[1], int(sys.argv[2])
    types = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    # flagd-core reads the clock for $flagd.timestamp; pin it.
    time.time = lambda: float(timestamp)
    # flagd-core logs every operator it cannot apply; the results say enough.
    logging.disable(logging.CRITICAL)

    with open(path, encoding="utf-8") as handle:
        document = handle.read()
    keys = list(json.loads(document)["flags"].keys()) + ["no-such-flag"]
    core = FlagdCore()
    core.set_flags(document)

    store = core._flag_store
    metadata = {}
    for key in keys[:-1]:
        flag = store.get_flag(key)
        merged = dict(store.flag_set_metadata)
        merged.update(flag.metadata or {})
        metadata[key] = merged

    out = sys.stdout
    out.write(json.dumps({"keys": keys, "metadata": metadata}, ensure_ascii=False))
    out.write("\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        attributes = json.loads(line)
        targeting_key = attributes.pop("targetingKey", None)
        context = EvaluationContext(targeting_key=targeting_key, attributes=attributes)
        results = []
        for key in keys:
            try:
                # The untyped resolution: the caller's default is None.
                details = core._resolve(key, None, context, types.get(key))
                reason = getattr(details.reason, "value", details.reason)
                results.append([details.value, details.variant, reason, None])
            except OpenFeatureError as error:
                results.append([None, None, "ERROR", error.error_code.value])
            except Exception:  # flagd's providers report any other failure as GENERAL
                results.append([None, None, "ERROR", "GENERAL"])
        out.write(json.dumps(results, ensure_ascii=False, separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main()
