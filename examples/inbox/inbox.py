#!/usr/bin/env python3
"""A message inbox over content cards, in Python.

Each tab is a feed, the cards whose `extras.feed` names it, with an unread
badge; opening a tab logs an impression of each card shown; a tap goes where
the card's extras say (`extras.deeplink`, a screen of the app, else the card's
web `url`); a swipe dismisses a card. The cards' texts are Liquid templates,
rendered for each user: the welcome card greets the user by name, and the
lounge card's template hides it (`abort_message`) from all but gold members.
After each step it prints what the screen shows: the same screens as the Node
client's clients/node/examples/inbox.mjs.

    python3 examples/inbox/inbox.py [--definitions PATH] [--sink PATH] [--framing lsp]
"""

import argparse
from pathlib import Path

from bunting import Bunting, NotAllowed

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--definitions", default=str(Path(__file__).with_name("definitions.json")))
parser.add_argument("--sink")
parser.add_argument("--framing", default="ndjson")
options = parser.parse_args()


class Tab:
    def __init__(self, client, feed, title):
        self.client, self.feed, self.title = client, feed, title
        # Subscribed before signing in: signing in refreshes the subscribed channels only.
        self.subscription = client.subscribe("contentCards", extras={"feed": feed})
        self.snapshot = None

    @property
    def cards(self):
        return self.snapshot["contentCards"]["cards"]

    def card(self, card_id):
        return next(card for card in self.cards if card["id"] == card_id)

    def reread(self):
        # Impressions and clicks change no list (no DATA_UPDATED), only `viewed`, `clicked` and the badge.
        self.snapshot = self.client.get_snapshot("contentCards", extras={"feed": self.feed})


class Inbox:
    def __init__(self, client):
        self.client = client
        self.tabs = [Tab(client, "inbox", "Inbox"), Tab(client, "promotions", "Promotions")]
        self.open_tab = None

    def show(self, step):
        """Prints the tab bar with each feed's unread badge, and the cards of the open tab."""
        print("== " + step)
        print(" ".join("[%s (%d)]" % (tab.title, tab.snapshot["contentCards"]["unviewedCount"]) for tab in self.tabs))
        if self.open_tab is None:
            return print()
        # A control card is never shown (its impression is logged all the same).
        shown = [card for card in self.open_tab.cards if not card["isControl"]]
        if not shown:
            print("  (no messages)")
        for card in shown:
            marks = [mark for mark, on in (("pinned", card["pinned"]), ("opened", card["clicked"])) if on]
            text = " - ".join(part for part in (card.get("title"), card.get("description")) if part)
            print("  " + text + (" (%s)" % ", ".join(marks) if marks else ""))
        print()

    def sign_in(self, user_id, attributes):
        self.client.change_user(user_id, attributes=attributes)
        for tab in self.tabs:
            tab.snapshot = tab.subscription.wait_for(type="DATA_UPDATED")["cacheSnapshot"]
        self.show(user_id + " signs in")

    def open(self, tab):
        self.open_tab = tab
        ids = [card["id"] for card in tab.cards]
        if ids:
            self.client.log_impression("contentCards", ids=ids)
        # ENQUEUED: each impression is stored. The events of every card reach every feed; take this tab's.
        for _ in ids:
            tab.subscription.wait_for(type="IMPRESSION", action="ENQUEUED", match=lambda event: event["card"]["id"] in ids)
        tab.reread()
        self.show("opens %s: %d impressions" % (tab.title, len(ids)))

    def tap(self, tab, card_id):
        card = tab.card(card_id)
        self.client.log_click("contentCards", card_id)
        tab.subscription.wait_for(type="CLICK", action="ENQUEUED", match=lambda event: event["card"]["id"] == card_id)
        tab.reread()
        self.show('taps "%s": opens %s' % (card["title"], destination(card)))

    def swipe(self, tab, card_id):
        card = tab.card(card_id)
        try:
            self.client.log_dismiss("contentCards", card_id)
        except NotAllowed:
            return self.show('swipes "%s": it stays, it cannot be dismissed' % card["title"])
        updated = tab.subscription.wait_for(
            type="DATA_UPDATED", reason="CLIENT_ACTION",
            match=lambda event: all(listed["id"] != card_id for listed in event["cacheSnapshot"]["contentCards"]["cards"]))
        tab.snapshot = updated["cacheSnapshot"]
        self.show('swipes "%s" away' % card["title"])


    def flush(self):
        delivered = self.client.flush()
        print("== analytics: %d events delivered, %d waiting%s"
              % (delivered["flushed"], delivered["pending"], "" if options.sink else " (no --sink)"))
        print()


def destination(card):
    """Where a tap leads: the app's own screen when the extras name one, else the web page."""
    if card["extras"].get("deeplink"):
        return card["extras"]["deeplink"] + " in the app"
    if card.get("url"):
        return card["url"] + " in the browser"
    return "nothing"


with Bunting.spawn(storage=":memory:", definitions=options.definitions, sink=options.sink,
                   framing=options.framing) as client:
    screen = Inbox(client)
    inbox, promotions = screen.tabs
    screen.sign_in("ada", {"openOrders": 1, "first_name": "Ada", "tier": "silver"})
    screen.open(inbox)
    screen.tap(inbox, "inbox-order-shipped")
    screen.open(promotions)
    screen.tap(promotions, "promo-free-delivery")
    screen.open_tab = inbox  # back on a tab already seen: no new impressions
    screen.swipe(inbox, "inbox-new-sign-in")
    screen.swipe(inbox, "inbox-welcome")

    screen.flush()

    # A gold member: greeted by name, and the lounge card is hers.
    screen.sign_in("grace", {"first_name": "Grace", "tier": "gold"})
    screen.open(promotions)
    screen.flush()
