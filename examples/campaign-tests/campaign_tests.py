#!/usr/bin/env python3
"""Testing campaigns before they ship, in Python: three checks a team runs in CI.

1. The advent sale card shows from Tuesday 09:00 to Thursday 09:00 (UTC), and
   not on the other days of the week: the server runs on a clock the script
   moves (`clock="manual=..."`), a day at a time, and says why a card is in or
   out (`get_snapshot(..., explain=True)`).
2. The `new-search` rollout reaches about a quarter of users: 2,000 users
   evaluated, the share checked.
3. What the app sees when the definitions server answers 429 three times with
   `Retry-After: 20`: failures injected on demand (`faults=True`,
   `inject_fault`), the clock moved past every retry, each event printed with
   the time it came at. (A Retry-After is taken up to `--retry-max-delay`,
   30 s by default: a longer one would be read as 30.)

Each check asserts what it expects (a failure exits non-zero) and prints what
it saw. No sleeps and no server of its own: the three take milliseconds.

    python3 examples/campaign-tests/campaign_tests.py [--definitions PATH] [--sink PATH] [--framing lsp]
"""

import argparse
from datetime import datetime, timezone
from pathlib import Path

from bunting import Bunting

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--definitions", default=str(Path(__file__).with_name("definitions.json")))
parser.add_argument("--sink")
parser.add_argument("--framing", default="ndjson")
options = parser.parse_args()

MONDAY = "2026-12-07T09:00:00Z"
DAY = 86_400


def when(seconds):
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%A %H:%M")


def check_the_schedule_across_a_week(client, cards):
    print("== 1. the advent sale card across a week")
    client.set_clock(MONDAY)
    shown_on = []
    for _ in range(7):
        # A schedule is read when the channel refreshes: as the app opens each morning.
        client.open_session()
        cards.wait_for(type="DATA_UPDATED")
        snapshot = client.get_snapshot("contentCards", explain=True)
        listed = [card["id"] for card in snapshot["contentCards"]["cards"]]
        why = next(entry["why"] for entry in snapshot["explain"] if entry.get("id") == "advent-sale")
        now = client.status()["clock"]["time"]
        shown = "advent-sale" in listed
        print("  %-17s %s (%s)" % (when(now), "shown" if shown else "not shown", why))
        if shown:
            shown_on.append(when(now).split()[0])
            client.log_impression("contentCards", id="advent-sale")
        client.advance_clock(DAY)
    assert shown_on == ["Tuesday", "Wednesday"], shown_on
    print("  ok: shown on %s only" % " and ".join(shown_on))
    print()


def check_the_rollout_share(client):
    print("== 2. the new-search rollout")
    users = 2000
    on = sum(1 for index in range(users)
             if client.evaluate_flag("new-search", {"targetingKey": "user-%d" % index})["value"] is True)
    share = on / users
    print("  on for %d of %d users: %.1f%%" % (on, users, share * 100))
    assert 0.22 <= share <= 0.28, share
    print("  ok: within 3 points of 25%")
    print()


def check_a_429_storm(client, cards):
    print("== 3. the definitions server answers 429 three times (Retry-After: 20)")
    client.inject_fault("definitions", {"status": 429, "headers": {"Retry-After": "20"}}, times=3)
    start = client.status()["clock"]["time"]
    cards.drain()
    client.refresh("contentCards")
    # Every retry runs at its own time within the advance; its events come before the reply.
    client.advance_clock(600)
    seen = []
    for event in cards.drain():
        if event["type"] == "ERROR":
            line = "%s %s/%s, retry at +%d s" % (
                event["type"], event["reason"], event["retryState"], event["rateLimitedUntil"] - start)
        else:
            line = "%s %s at +%d s" % (event["type"], event["reason"], event["cacheSnapshot"]["lastSyncAt"] - start)
        seen.append(line)
        print("  " + line)
    assert seen == [
        "ERROR RATE_LIMITED/SDK_WILL_RETRY, retry at +20 s",
        "ERROR RATE_LIMITED/SDK_WILL_RETRY, retry at +40 s",
        "ERROR RATE_LIMITED/SDK_WILL_RETRY, retry at +60 s",
        "DATA_UPDATED MANUAL_SERVER_REFRESH at +60 s",
    ], seen
    assert client.status()["faults"] == [], "every injected answer was given"
    print("  ok: three RATE_LIMITED errors 20 s apart, each saying when the next try comes, then the cards")
    print()


# A poll of the definitions an hour: the file does not change while the checks
# run, and a day of the manual clock is then 24 polls rather than 86,400.
with Bunting.spawn(storage=":memory:", definitions=options.definitions, sink=options.sink, framing=options.framing,
                   clock="manual=" + MONDAY, faults=True, poll_interval=3600) as client:
    cards = client.subscribe("contentCards")
    client.change_user("ada")
    cards.wait_for(type="DATA_UPDATED")
    check_the_schedule_across_a_week(client, cards)
    check_the_rollout_share(client)
    check_a_429_storm(client, cards)
