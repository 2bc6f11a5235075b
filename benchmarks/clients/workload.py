#!/usr/bin/env python3
"""Writes the clients benchmark's workload from a seed: a definitions document and the
evaluation contexts, as one JSON file both languages read.

    workload.py --seed N --keys N PATH

The document is the 100-flag document of the transport benchmark (its rules:
attribute comparisons, `in`, `sem_ver`, `starts_with`, `fractional`, a compound
rule, shared `$evaluators`) plus the two flags measured, both boolean as
`get_boolean_value` asks:

- `attribute-rule`: on for some tiers and countries, a comparison of attributes;
- `rollout`: a 25/75 `fractional` split on the targeting key.

Contexts: `one user`, one context used for every call, and `keys` contexts with
distinct targeting keys and attributes drawn from the seed (a server answering a
different user on each request).
"""

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "transport"))
from flag_document import document  # noqa: E402

TIERS = ["free", "silver", "gold", "platinum"]
COUNTRIES = ["US", "CA", "GB", "DE", "FR", "NL", "SE", "NO", "JP", "BR"]


def workload(seed: int, keys: int) -> dict:
    flags = document(100)
    flags["flags"]["attribute-rule"] = {
        "state": "ENABLED",
        "variants": {"on": True, "off": False},
        "defaultVariant": "off",
        "targeting": {"if": [{"and": [{"in": [{"var": "tier"}, ["gold", "platinum"]]},
                                      {"in": [{"var": "country"}, ["US", "CA", "GB", "DE"]]}]}, "on", "off"]},
    }
    flags["flags"]["rollout"] = {
        "state": "ENABLED",
        "variants": {"on": True, "off": False},
        "defaultVariant": "off",
        "targeting": {"fractional": [["on", 25], ["off", 75]]},
    }
    chance = random.Random(seed)

    def context(key: str) -> dict:
        return {"targetingKey": key, "tier": chance.choice(TIERS), "country": chance.choice(COUNTRIES),
                "age": chance.randint(16, 80)}

    return {
        "seed": seed,
        "document": flags,
        "oneUser": {"targetingKey": "user-one", "tier": "gold", "country": "GB", "age": 41},
        "contexts": [context("user-%d-%d" % (seed, index)) for index in range(keys)],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keys", type=int, default=10_000)
    parser.add_argument("path")
    options = parser.parse_args()
    made = workload(options.seed, options.keys)
    Path(options.path).write_text(json.dumps(made))
    definitions = Path(options.path).with_suffix(".definitions.json")
    definitions.write_text(json.dumps(made["document"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
