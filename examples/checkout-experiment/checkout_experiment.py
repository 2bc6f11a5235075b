#!/usr/bin/env python3
"""An A/B test of the checkout button, run from a GrowthBook SDK payload, in Python.

`definitions.json` is a GrowthBook SDK payload as GrowthBook's API serves it:
the `checkout-button` feature is purple for staff (a force rule), and for
shoppers in the US, GB and FR an experiment splits them 50/50 between the grey
button (control) and a green one (treatment). Each shopper opens the checkout
(`evaluateFeature`: an exposure is logged when a shopper is put in an arm,
once per session, durably, as `experiment_viewed` at the sink) and some buy
(`track`, the conversion). Halfway through the team moves the split to 10/90:
shoppers already in the test keep their arm (sticky bucketing) and no one is
exposed twice. At the end it tallies exposures and purchases per arm from the
events Bunting sent, which is what an analysis reads from the sink.

    python3 examples/checkout-experiment/checkout_experiment.py [--definitions PATH] [--sink PATH] [--framing lsp]
"""

import argparse
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict, Set

from bunting import Bunting

FEATURE = "checkout-button"

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--definitions", default=str(Path(__file__).with_name("definitions.json")))
parser.add_argument("--sink")
parser.add_argument("--framing", default="ndjson")
options = parser.parse_args()

# The team edits the payload halfway through: work on a copy of it.
workspace = Path(tempfile.mkdtemp(prefix="checkout-experiment-"))
payload_path = workspace / "payload.json"
shutil.copyfile(options.definitions, payload_path)

exposed: Dict[str, Set[str]] = {}  # arm -> the shoppers exposed to it (an analysis counts each once)
purchases: Dict[str, int] = {}  # arm -> purchases by its shoppers
arm_of: Dict[str, str] = {}  # shopper -> arm, as their exposures told it

try:
    with Bunting.spawn(storage=":memory:", definitions=str(payload_path), sink=options.sink,
                       framing=options.framing) as client:
        # Exposures and purchases are told to featureFlags subscriptions.
        flags = client.subscribe("featureFlags")

        signed_in: Dict[str, Any] = {}

        def sign_in(user_id, **attributes):
            signed_in.clear()
            signed_in.update(id=user_id, **attributes)
            client.change_user(user_id, attributes=attributes)
            flags.wait_for(type="DATA_UPDATED", reason="AUTO_SERVER_REFRESH")

        def enqueued(kind):
            # Events follow their request's reply at once: once the next reply is in, they are queued here.
            client.status()
            return [event for event in flags.drain() if (event["type"], event.get("action")) == (kind, "ENQUEUED")]

        def open_checkout(step, user_id):
            result = client.evaluate_feature(FEATURE)
            sent = enqueued("EXPOSURE")
            if result["source"] == "experiment":
                assignment = result["experimentResult"]
                # The same context given with the request is evaluated alone: no sticky arm, nothing logged.
                fresh = client.evaluate_feature(FEATURE, attributes=signed_in)["experimentResult"]["key"]
                kept = "" if fresh == assignment["key"] else ", kept: today's split alone would say %s" % fresh
                why = "in the test, arm %s%s" % (assignment["key"], kept)
            else:
                why = {"force": "forced by rule %s" % result["ruleId"], "defaultValue": "not in the test"}[result["source"]]
            for event in sent:
                exposure = event["exposure"]
                exposed.setdefault(exposure["variationKey"], set()).add(user_id)
                arm_of[user_id] = exposure["variationKey"]
            logged = "exposure logged" if sent else "no exposure sent"
            print("== %s: %s" % (step, logged))
            print("  [Pay] in %s (%s)" % (result["value"], why))
            print()

        def buy(step, user_id, amount):
            client.track("purchase", value=amount, details={"items": 1})
            sent = enqueued("CUSTOM")
            arm = arm_of.get(user_id)
            if arm is not None:
                purchases[arm] = purchases.get(arm, 0) + len(sent)
            print("== %s: purchase of %.2f tracked (%d event)" % (step, amount, len(sent)))
            print()

        def visit(user_id, country, amount):
            sign_in(user_id, country=country)
            open_checkout("%s (%s) opens the checkout" % (user_id, country), user_id)
            if amount is not None:
                buy("%s pays" % user_id, user_id, amount)

        for user_id, country, amount in [("ada", "US", 42.0), ("dev", "US", 30.0), ("chloe", "FR", None),
                                         ("nora", "GB", 18.5)]:
            visit(user_id, country, amount)
        open_checkout("nora goes back to her cart and opens the checkout again", "nora")

        sign_in("sam", country="US", email="sam@example.com")
        open_checkout("sam from the shop's staff opens the checkout", "sam")
        sign_in("kenji", country="JP")
        open_checkout("kenji (JP) opens the checkout", "kenji")

        # The team moves the test to 10/90 (same bucket version): GrowthBook keeps the arms assigned.
        payload = json.loads(payload_path.read_text(encoding="utf-8"))
        payload["features"][FEATURE]["rules"][1]["weights"] = [0.1, 0.9]
        payload_path.write_text(json.dumps(payload, indent=2), encoding="utf-8")
        client.refresh("featureFlags")
        flags.wait_for(type="DATA_UPDATED", reason="MANUAL_SERVER_REFRESH")
        print("== the team moves the test to 10/90")
        print()

        # New shoppers, then dev and nora again: a new session logs their exposure again, in the
        # control arm they had although 10/90 would now put them in the treatment.
        for user_id, country, amount in [("emma", "GB", 99.0), ("gus", "US", None), ("hana", "FR", 12.0),
                                         ("dev", "US", 25.0), ("nora", "GB", None)]:
            visit(user_id, country, amount)

        delivered = client.flush()
        print("== analytics: %d events waiting%s" % (delivered["pending"], "" if options.sink else " (no --sink)"))
        for arm in ("control", "treatment"):
            print("  %-9s %d shoppers exposed, %d purchases" % (arm, len(exposed.get(arm, ())), purchases.get(arm, 0)))
finally:
    shutil.rmtree(workspace, ignore_errors=True)
