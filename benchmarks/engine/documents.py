"""The generated definitions documents of the engine benchmark (and of the
instruction-count profiles), in several shapes, generated from a seed:

- `flags`: flag-heavy. Nine items in ten are flags whose rules use many
  operators (`in`, `fractional`, `sem_ver`, `starts_with`, `ends_with`,
  comparisons, `and`/`or`, shared `$evaluators`), with object variants of a
  few properties; the rest cards and banners.
- `cards`: card-heavy. Nine items in ten are content cards, each with
  targeting of its own (thresholds and lists drawn per card, so that no two
  share compiled rules), some with a schedule or a control share.
- `banners`: banner-heavy. Nine items in ten are banners, about 100 per
  placement, each with targeting of its own and a priority: every placement
  is decided among many.
- `mixed`: the earlier benchmark's document, n/2 flags + n/2 cards + 20
  banners, one rule for all flags and one for all cards.

The users of `USER_ATTRIBUTES` match some of each: a shape's cost is that of
evaluating and listing what a user sees.

    documents.py SHAPE ITEMS SEED PATH
"""
import json
import random
import sys

# Banners of the `mixed` shape (not counted as items): a few placements.
BANNERS = 20
SHAPES = ("flags", "cards", "banners")
# What the benchmark's users say about themselves (changeUser's attributes).
USER_ATTRIBUTES = {"country": "NO", "age": 30, "tier": "gold", "plan": "pro", "appVersion": "4.3.1",
                   "email": "ada@bunting.example", "locale": "nb-NO"}

EVALUATORS = {
    "isGold": {"in": [{"var": "tier"}, ["gold", "platinum"]]},
    "isNordic": {"in": [{"var": "country"}, ["NO", "SE", "DK", "FI", "IS"]]},
    "isNewApp": {"sem_ver": [{"var": "appVersion"}, ">=", "4.2.0"]},
}
COUNTRIES = ["NO", "SE", "DK", "FI", "IS", "US", "GB", "DE", "FR", "NL"]


def flag_rule(rng, i):
    kind = rng.randrange(8)
    if kind == 0:
        return {"if": [{"$ref": "isGold"}, "on", "off"]}
    if kind == 1:
        return {"if": [{">=": [{"var": "age"}, rng.randint(13, 60)]}, "on", "off"]}
    if kind == 2:
        return {"if": [{"in": [{"var": "country"}, rng.sample(COUNTRIES, 4)]},
                       {"fractional": [["on", rng.randint(1, 99)], ["off", 100]]}, "off"]}
    if kind == 3:
        return {"if": [{"sem_ver": [{"var": "appVersion"}, ">=", f"{rng.randint(2, 5)}.{rng.randint(0, 9)}.0"]},
                       "on", "off"]}
    if kind == 4:
        return {"if": [{"or": [{"starts_with": [{"var": "email"}, "admin"]},
                               {"ends_with": [{"var": "email"}, "@bunting.example"]}]}, "on", "off"]}
    if kind == 5:
        return {"fractional": [["on", rng.randint(1, 99)], ["off", 100]]}
    if kind == 6:
        return {"if": [{"and": [{"==": [{"var": "plan"}, rng.choice(["pro", "free", "team"])]},
                                {"<": [{"var": "age"}, rng.randint(20, 70)]}]}, "on",
                       {"$ref": "isNordic"}, "on", "off"]}
    return {"if": [{"$ref": "isNewApp"}, {"fractional": [{"cat": [{"var": "$flagd.flagKey"}, {"var": "targetingKey"}]},
                                                         ["on", 10], ["off", 90]]}, "off"]}


def flag(rng, i):
    return {
        "state": "ENABLED" if rng.random() < 0.97 else "DISABLED",
        "variants": {
            "on": {"enabled": True, "properties": {
                "color": {"type": "string", "value": f"#{rng.randrange(1 << 24):06x}"},
                "limit": {"type": "number", "value": rng.randint(1, 1000)},
                "express": {"type": "boolean", "value": rng.random() < 0.5}},
                "trackingString": f"flag-{i}-on"},
            "off": {"enabled": False, "properties": {}, "trackingString": f"flag-{i}-off"},
        },
        "defaultVariant": "off",
        "targeting": flag_rule(rng, i),
    }


def item_rule(rng):
    """Targeting drawn per card or banner: thresholds and lists of its own."""
    kind = rng.randrange(6)
    if kind == 0:
        return {">=": [{"var": "age"}, rng.randint(13, 40)]}
    if kind == 1:
        return {"in": [{"var": "country"}, rng.sample(COUNTRIES, rng.randint(2, 6))]}
    if kind == 2:
        return {"and": [{"$ref": "isGold"}, {"<": [{"var": "age"}, rng.randint(25, 80)]}]}
    if kind == 3:
        return {"or": [{"==": [{"var": "plan"}, "pro"]}, {"starts_with": [{"var": "locale"}, rng.choice(["nb", "sv", "en"])]}]}
    if kind == 4:
        return {"sem_ver": [{"var": "appVersion"}, ">=", f"{rng.randint(3, 4)}.{rng.randint(0, 5)}.0"]}
    return {"!": [{"in": [{"var": "country"}, rng.sample(COUNTRIES, 2)]}]}


def card(rng, i, targeting):
    card = {"id": f"card-{i}", "type": "classic", "title": f"Card {i}",
            "description": f"Card {i}: something to read, {rng.randrange(10 ** 6)}.",
            "url": f"https://app.example.com/cards/{i}", "linkText": "Open",
            "extras": {"feed": rng.choice(["inbox", "news", "offers"]), "rank": str(rng.randrange(100))},
            "created": 1700000000 + i, "pinned": rng.random() < 0.05}
    if targeting:
        card["targeting"] = item_rule(rng)
    if rng.random() < 0.1:
        card["schedule"] = {"start": 1700000000, "end": 4102444800}
    if rng.random() < 0.1:
        card["controlShare"] = 0.1
    return card


def banner(rng, i, placements):
    banner = {"id": f"banner-{i}", "placementId": f"placement-{rng.randrange(placements)}",
              "html": f"<div class=\"banner\"><h2>Banner {i}</h2><p>{rng.randrange(10 ** 6)}</p></div>",
              "priority": rng.randrange(1000),
              "properties": {"theme": {"type": "string", "value": rng.choice(["light", "dark"])}},
              "targeting": item_rule(rng)}
    if rng.random() < 0.1:
        banner["schedule"] = {"start": 1700000000, "end": 4102444800}
    return banner


def shaped(shape, items, seed=1):
    """A document of `items` items of the shape (see above), from `seed`."""
    rng = random.Random(f"{shape}-{items}-{seed}")
    minor = items // 20
    counts = {name: minor for name in SHAPES}
    counts[shape] = items - 2 * minor
    # About 100 banners a placement in the banner-heavy shape, 10 elsewhere.
    placements = max(1, counts["banners"] // (100 if shape == "banners" else 10))
    return {
        "metadata": {"version": f"bench-{shape}-{items}", "owner": "benchmarks"},
        "$evaluators": EVALUATORS,
        "flags": {f"flag-{i}": flag(rng, i) for i in range(counts["flags"])},
        "banners": [banner(rng, i, placements) for i in range(counts["banners"])],
        "contentCards": [card(rng, i, targeting=True) for i in range(counts["cards"])],
    }


def document(items):
    """The `mixed` shape: items/2 flags and items/2 cards, one rule each, and 20 banners."""
    flags, cards = items // 2, items - items // 2
    return {
        "flags": {
            f"flag-{i}": {
                "state": "ENABLED",
                "variants": {
                    "on": {"enabled": True, "properties": {"n": {"type": "number", "value": i}}},
                    "off": {"enabled": False},
                },
                "defaultVariant": "off",
                "targeting": {"if": [{"in": [{"var": "country"}, ["NO", "SE", "DK"]]},
                                     {"fractional": [["on", 50], ["off", 50]]}, "off"]},
            }
            for i in range(flags)
        },
        "banners": [
            {"id": f"banner-{i}", "placementId": f"p-{i % 10}", "html": f"<p>{i}</p>", "priority": i,
             "properties": {}, "targeting": {">=": [{"var": "age"}, i % 40]}}
            for i in range(BANNERS)
        ],
        "contentCards": [
            {"id": f"card-{i}", "type": "classic", "title": f"Card {i}", "description": "A card to fill the cache.",
             "extras": {"feed": "inbox"}, "created": 1700000000 + i,
             "targeting": {"starts_with": [{"var": "country"}, "N"]}}
            for i in range(cards)
        ],
    }


if __name__ == "__main__":
    shape, items, seed, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    with open(path, "w") as f:
        json.dump(document(items) if shape == "mixed" else shaped(shape, items, seed), f)
