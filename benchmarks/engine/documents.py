"""The generated definitions documents of the engine benchmark (and of the
instruction-count profiles): n items = n/2 flags + n/2 cards, plus a few
banners, with the targeting real documents have. Deterministic.
"""

# Banners in every generated document (not counted as items): a few placements.
BANNERS = 20


def document(items):
    """items/2 flags and items/2 cards, with the targeting real documents have."""
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
