#!/usr/bin/env python3
"""Writes the inputs of benchmarks/profile/run into DIR: request files for the
pipelined evaluateFlag runs (both framings), drive.py scripts for changeUser,
logImpression and restarts, and the generated definitions documents.

    scripts.py DIR REQUESTS IMPRESSIONS ITEMS...
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "engine"))
from documents import USER_ATTRIBUTES, document, shaped  # noqa: E402

# The transport benchmark's request: the bundled example's richest flag, whole rule path.
EVAL_PARAMS = {"flagKey": "new-checkout", "context": {"targetingKey": "user-2", "email": "ada@example.com",
                                                       "tier": "silver", "appVersion": "4.3.1"}}
COLD_PARAMS = {"flagKey": "flag-6", "context": {"targetingKey": "user-2", "plan": "pro", "age": 30}}
ONE_CARD = {"channels": {"featureFlags": True, "banners": {"enabled": True}, "contentCards": {"enabled": True}},
            "flags": {}, "banners": [],
            "contentCards": [{"id": "c1", "type": "classic", "title": "One", "created": 1764374400,
                              "extras": {"feed": "inbox"}}]}


# The returning-user case: changes made, and the size of each shape's document.
RETURNING_CHANGES = 4
RETURNING_ITEMS = 20000
SHAPES_PROFILED = ("flags", "cards", "banners")


def message(id_, method, params=None):
    m = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        m["params"] = params
    return json.dumps(m, separators=(",", ":"))


def send(id_, method, params=None):
    return "send " + message(id_, method, params) + "\n"


def main():
    out, requests, impressions, sizes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    for n in (1, requests):
        with open(f"{out}/eval-ndjson-{n}.in", "w") as f:
            f.writelines(message(i + 1, "evaluateFlag", EVAL_PARAMS) + "\n" for i in range(n))
        with open(f"{out}/eval-lsp-{n}.in", "w") as f:
            for i in range(n):
                body = message(i + 1, "evaluateFlag", EVAL_PARAMS)
                f.write(f"Content-Length: {len(body)}\r\n\r\n{body}")
    with open(f"{out}/cold.in", "w") as f:
        f.write(message(1, "evaluateFlag", COLD_PARAMS) + "\n")

    subscribed = send(1, "status") + 'wait 1 "result"\n'
    for k, channel in enumerate(("featureFlags", "banners", "contentCards")):
        subscribed += send(2 + k, "subscribe", {"channel": channel}) + 'wait 1 "CACHE_REPLAY"\n'
    with open(f"{out}/cu-0.script", "w") as f:
        f.write(subscribed)
    with open(f"{out}/cu-2.script", "w") as f:
        f.write(subscribed + "".join(
            send(10 + k, "changeUser", {"userId": user, "attributes": {"country": "NO", "age": 30}})
            + 'wait 3 "DATA_UPDATED"\n' for k, user in enumerate(("alice", "bob"))))
    for items in sizes:
        with open(f"{out}/items-{items}.json", "w") as f:
            json.dump(document(int(items)), f)

    # Back to users seen before (their caches kept, CACHE_LOAD carries them)
    # against as many users never seen, after the same two: what a returning
    # user costs above a new one, on each of the engine benchmark's shapes.
    def change(k, user):
        return send(20 + k, "changeUser", {"userId": user, "attributes": USER_ATTRIBUTES}) \
            + 'wait 3 "DATA_UPDATED"\n'
    two_users = subscribed + change(0, "alice") + change(1, "bob")
    with open(f"{out}/back.script", "w") as f:
        f.write(two_users + "".join(change(2 + k, ("alice", "bob")[k % 2]) for k in range(RETURNING_CHANGES)))
    with open(f"{out}/new.script", "w") as f:
        f.write(two_users + "".join(change(2 + k, f"new-{k}") for k in range(RETURNING_CHANGES)))
    for shape in SHAPES_PROFILED:
        with open(f"{out}/{shape}-{RETURNING_ITEMS}.json", "w") as f:
            json.dump(shaped(shape, RETURNING_ITEMS), f)

    with open(f"{out}/one-card.json", "w") as f:
        json.dump(ONE_CARD, f)
    signed_in = send(1, "subscribe", {"channel": "contentCards"}) + send(2, "changeUser", {"userId": "bench"}) \
        + 'wait 1 "DATA_UPDATED"\n'
    for n, name in ((0, "imp-0"), (impressions, f"imp-{impressions}"), (10000, "fill")):
        script = signed_in + "".join(send(10 + i, "logImpression", {"channel": "contentCards", "id": "c1"})
                                     for i in range(n))
        if n:
            script += f'wait {n} "ENQUEUED"\n'
        with open(f"{out}/{name}.script", "w") as f:
            f.write(script)
    with open(f"{out}/status.script", "w") as f:
        f.write(send(1, "status") + 'wait 1 "result"\n')


if __name__ == "__main__":
    main()
