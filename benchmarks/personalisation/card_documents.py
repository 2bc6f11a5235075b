"""The documents of the personalisation benchmark: 10,000 content cards,
written three ways. Deterministic.

- plain: the cards' texts as one user reads them, without Liquid;
- templated: the same cards with the typical card's title and description
  (three attributes, a `default` and an `if`; benchmarks/templates) as
  Liquid: every card carries the same two templates, as the cards of one
  campaign do, so that a refresh renders each template once for the user;
- distinct: every card's title its own template (it names the card), the
  description the shared one: a refresh renders 10,001 templates.
"""

CARDS = 10_000

TITLE = "Hi {{${first_name} | default: 'there'}}, your {{custom_attribute.${tier}}} rewards"
DESCRIPTION = ("{% if ${points} > 1000 %}You have {{${points}}} points: enjoy your {{custom_attribute.${tier}}} perks."
               "{% else %}Earn {{ 1000 | minus: ${points} }} more points to reach gold.{% endif %}")
PLAIN_TITLE = "Hi there, your gold rewards"
PLAIN_DESCRIPTION = "Earn 500 more points to reach gold."


def document(shape, cards=CARDS):
    def title(i):
        if shape == "plain":
            return PLAIN_TITLE
        if shape == "distinct":
            return "Hi {{${first_name} | default: 'there'}}, card " + str(i) + " is for you"
        return TITLE

    return {
        "contentCards": [
            {"id": f"card-{i}", "type": "classic", "title": title(i),
             "description": PLAIN_DESCRIPTION if shape == "plain" else DESCRIPTION,
             "url": f"https://example.com/cards/{i}", "extras": {"feed": "inbox"}, "created": 1700000000 + i,
             "targeting": {"starts_with": [{"var": "country"}, "N"]}}
            for i in range(cards)
        ],
    }
