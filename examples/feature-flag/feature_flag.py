#!/usr/bin/env python3
"""A feature flag gating a feature, in Python.

The checkout screen is the new one where the `new-checkout` flag is enabled
for the signed-in user, with the button colour and item limit its properties
give; else the classic one. Each time the screen is drawn it logs the flag's
impression, on or off (an experiment compares both groups): Bunting keeps one
per flag per session, so a redraw sends nothing and a new session one more.
After each step it prints what the screen shows.

    python3 examples/feature-flag/feature_flag.py [--definitions PATH] [--sink PATH] [--framing lsp]
"""

import argparse
from pathlib import Path

from bunting import Bunting

FLAG = "new-checkout"

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--definitions", default=str(Path(__file__).with_name("definitions.json")))
parser.add_argument("--sink")
parser.add_argument("--framing", default="ndjson")
options = parser.parse_args()


def events(count):
    return "%d event%s" % (count, "" if count == 1 else "s")


def checkout(flag):
    """What the checkout screen shows, from the flag alone."""
    if flag is None or not flag["enabled"]:
        return "classic checkout: [Buy] in grey, up to 10 items"
    properties = {key: entry["value"] for key, entry in flag["properties"].items()}
    express = ", express pay" if properties.get("expressPay") else ""
    return "new checkout: [Pay now] in %s, up to %d items%s" % (
        properties.get("buttonColor", "blue"), properties.get("maxItems", 10), express)


with Bunting.spawn(storage=":memory:", definitions=options.definitions, sink=options.sink,
                   framing=options.framing) as client:
    # Subscribed before signing in: signing in refreshes the subscribed channels only.
    flags = client.subscribe("featureFlags")

    def sign_in(user_id, tier):
        client.change_user(user_id, attributes={"tier": tier})
        flags.wait_for(type="DATA_UPDATED", reason="AUTO_SERVER_REFRESH")

    def draw(step):
        """Draws the checkout and logs the flag's impression; prints whether one was sent."""
        flag = client.get_feature_flag(FLAG)
        client.log_impression("featureFlags", id=FLAG)
        # Events follow their request's reply at once: once the next reply is in, they are queued here.
        client.status()
        sent = [event for event in flags.drain() if (event["type"], event.get("action")) == ("IMPRESSION", "ENQUEUED")]
        logged = ("impression logged (%s)" % sent[0]["flag"]["trackingString"]) if sent else "no impression sent: one per session"
        print("== %s: %s" % (step, logged))
        print("  " + checkout(flag))
        print()

    def delivered():
        # Before the user or session changes: each flushes the events so far, but in the background.
        result = client.flush()
        print("== analytics: %s delivered, %d waiting%s"
              % (events(result["flushed"]), result["pending"], "" if options.sink else " (no --sink)"))
        print()

    sign_in("ada", "gold")
    draw("ada opens the checkout")
    draw("ada goes back to her cart and opens the checkout again")
    delivered()

    client.open_session()
    flags.wait_for(type="DATA_UPDATED", reason="AUTO_SERVER_REFRESH")
    draw("ada comes back the next day (a new session) and opens the checkout")
    delivered()

    sign_in("grace", "silver")
    draw("grace opens the checkout")
    delivered()
