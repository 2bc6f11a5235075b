#!/usr/bin/env python3
"""Writes a definitions document of N flags for the cold-start measurement:
flagd flags with the targeting rules a real document has (attribute
comparisons, `in`, `sem_ver`, `starts_with`, `fractional`, a compound rule,
shared `$evaluators`) and Braze-style object variants with properties.
Deterministic, so runs compare.

    flag_document.py N PATH
"""
import json
import sys


def rule(i):
    kind = i % 8
    if kind == 0:
        return {"if": [{"$ref": "isGold"}, "on", "off"]}
    if kind == 1:
        return {"if": [{">=": [{"var": "age"}, 18 + i % 30]}, "on", "off"]}
    if kind == 2:
        return {"if": [{"in": [{"var": "country"}, ["US", "CA", "GB", "DE", "FR", "NL", "SE", "NO"]]}, "on", "off"]}
    if kind == 3:
        return {"if": [{"sem_ver": [{"var": "appVersion"}, ">=", f"2.{i % 10}.0"]}, "on", "off"]}
    if kind == 4:
        return {"if": [{"starts_with": [{"var": "email"}, "admin"]}, "on", "off"]}
    if kind == 5:
        return {"fractional": [["on", 50], ["off", 50]]}
    if kind == 6:
        return {"if": [{"and": [{"==": [{"var": "plan"}, "pro"]}, {"<": [{"var": "age"}, 40]}]}, "on",
                       {"in": ["beta", {"var": "email"}]}, "on", "off"]}
    return {"fractional": [{"cat": [{"var": "$flagd.flagKey"}, {"var": "targetingKey"}]}, ["on", 10], ["off", 90]]}


def document(count):
    return {
        "metadata": {"version": "bench", "owner": "benchmarks"},
        "$evaluators": {"isGold": {"in": [{"var": "tier"}, ["gold", "platinum"]]}},
        "flags": {
            f"flag-{i}": {
                "state": "ENABLED",
                "variants": {
                    "on": {"enabled": True, "properties": {
                        "color": {"type": "string", "value": f"#{i:06x}"},
                        "limit": {"type": "number", "value": i}}, "trackingString": f"flag-{i}-on"},
                    "off": {"enabled": False, "properties": {}, "trackingString": f"flag-{i}-off"},
                },
                "defaultVariant": "off",
                "targeting": rule(i),
            }
            for i in range(count)
        },
    }


if __name__ == "__main__":
    with open(sys.argv[2], "w") as f:
        json.dump(document(int(sys.argv[1])), f, indent=1)
