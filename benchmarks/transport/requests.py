#!/usr/bin/env python3
"""Writes the params of N `evaluateFlag` requests over the document of
`flag_document.py`, one JSON object a line, generated from a seed: each asks
a flag of the document for a context of its own (a targeting key no other
line has, and attributes drawn for it), so that no two requests share a
context and the rules take their different paths (matches, misses, missing
attributes, fractional buckets).

    requests.py N FLAGS SEED PATH
"""
import json
import random
import sys

TIERS = ["bronze", "silver", "gold", "platinum", None]
COUNTRIES = ["US", "CA", "GB", "DE", "FR", "NL", "SE", "NO", "BR", "JP", "IN", "ES", None]
PLANS = ["free", "pro", "team", None]
DOMAINS = ["example.com", "bunting.example", "mail.example", "beta.example"]


def context(rng, seed, i):
    """A context the rules of flag_document.py read: each attribute present most of the time."""
    ctx = {"targetingKey": f"user-{seed}-{i}"}
    if (tier := rng.choice(TIERS)) is not None:
        ctx["tier"] = tier
    if rng.random() < 0.9:
        ctx["age"] = rng.randint(13, 80)
    if (country := rng.choice(COUNTRIES)) is not None:
        ctx["country"] = country
    if rng.random() < 0.9:
        ctx["appVersion"] = f"{rng.randint(1, 5)}.{rng.randint(0, 12)}.{rng.randint(0, 20)}"
    if rng.random() < 0.8:
        name = rng.choice(["admin", "ada", "grace", "beta-tester", "linus", "margaret"]) + str(rng.randint(0, 999))
        ctx["email"] = f"{name}@{rng.choice(DOMAINS)}"
    if (plan := rng.choice(PLANS)) is not None:
        ctx["plan"] = plan
    return ctx


def main():
    count, flags, seed, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(count):
            params = {"flagKey": f"flag-{rng.randrange(flags)}", "context": context(rng, seed, i)}
            f.write(json.dumps(params, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
