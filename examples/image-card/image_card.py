#!/usr/bin/env python3
"""An image-only content card with a click-through, in Python.

The home screen's hero slot shows the first card of the `home-hero` feed: an
imageOnly card is just a picture, sized by its aspect ratio. Showing it logs
an impression; a tap logs a click, then the app opens the card's `url`; a user
the card's targeting leaves out sees no slot.
After each step it prints what the slot shows.

    python3 examples/image-card/image_card.py [--definitions PATH] [--sink PATH] [--framing lsp]
"""

import argparse
from pathlib import Path

from bunting import Bunting

SLOT_WIDTH = 360  # points: the hero slot spans the screen

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--definitions", default=str(Path(__file__).with_name("definitions.json")))
parser.add_argument("--sink")
parser.add_argument("--framing", default="ndjson")
options = parser.parse_args()


def show(step, card):
    print("== " + step)
    if card is None:
        print("  (the hero slot is hidden)")
    else:
        height = round(SLOT_WIDTH / card["aspectRatio"])
        print("  [image %s, %dx%d]%s" % (card["imageUrl"], SLOT_WIDTH, height, " (opened)" if card["clicked"] else ""))
    print()


def hero(snapshot):
    """The card the slot shows: the feed's first that is not a control card (a control card is never shown)."""
    return next((card for card in snapshot["contentCards"]["cards"] if not card["isControl"]), None)


with Bunting.spawn(storage=":memory:", definitions=options.definitions, sink=options.sink,
                   framing=options.framing) as client:
    feed = {"feed": "home-hero"}
    slot = client.subscribe("contentCards", extras=feed)
    client.change_user("ada", attributes={"tier": "gold"})
    card = hero(slot.wait_for(type="DATA_UPDATED")["cacheSnapshot"])
    client.log_impression("contentCards", id=card["id"])
    slot.wait_for(type="IMPRESSION", action="ENQUEUED", match=lambda event: event["card"]["id"] == card["id"])
    show("ada opens the home screen: impression of %s logged" % card["id"], card)

    client.log_click("contentCards", card["id"])
    slot.wait_for(type="CLICK", action="ENQUEUED", match=lambda event: event["card"]["id"] == card["id"])
    # The click is stored before the app leaves the screen; then it opens the link.
    card = hero(client.get_snapshot("contentCards", extras=feed))
    show("ada taps the image: click logged, the app opens %s" % card["url"], card)

    # Before another user signs in: changeUser would flush ada's events too, but in the background.
    delivered = client.flush()
    print("== analytics: %d event%s delivered, %d waiting%s"
          % (delivered["flushed"], "" if delivered["flushed"] == 1 else "s", delivered["pending"],
             "" if options.sink else " (no --sink)"))
    print()

    # The card's targeting wants gold members: for grace the slot stays hidden, and nothing is logged.
    client.change_user("grace", attributes={"tier": "silver"})
    show("grace opens the home screen", hero(slot.wait_for(type="DATA_UPDATED")["cacheSnapshot"]))
