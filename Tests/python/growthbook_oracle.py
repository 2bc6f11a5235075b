#!/usr/bin/env python3
"""Evaluates GrowthBook features with the PyPI `growthbook` package, for
Bunting's GrowthBook differential test.

Usage: growthbook_oracle.py [--fix-sticky-merge] PAYLOAD_FILE < contexts.ndjson

PAYLOAD_FILE holds {"features", "savedGroups", "contextualBandits"}. Each
stdin line is one context: {"attributes", "url"?, "forcedVariations"?,
"forcedFeatures"?, "stickyDocs"?}; with "stickyDocs" (a list, maybe empty) sticky bucketing is
on, over an in-memory service holding those documents. For each context one
line is written: {"results": [FeatureResult.to_dict() for every feature, in
payload order], "exposures": [[experimentKey, variationId, variationKey,
hashAttribute, hashValue, featureId], ...] in the order the tracking
callback saw them, "docs": the sticky service's documents after
evaluating, or null}.

No client key is given, so the package never touches the network.

With --fix-sticky-merge, the package's sticky assignment lookup is replaced
by one that merges into a new dict: 4.0.0 merges the fallback attribute's
assignments into the hash attribute's stored document in place, so that
stored documents gain assignments of other attributes (results do not
change). Bunting's test names this known difference and runs the oracle
with it fixed.
"""

import json
import logging
import sys

import growthbook.core as core
from growthbook import GrowthBook, InMemoryStickyBucketService


def merged_sticky_assignments(evalContext, attr=None, fallback=None):
    """The hash attribute's assignments over the fallback's, in a new dict."""
    docs = evalContext.user.sticky_bucket_assignment_docs
    merged = {}
    if fallback:
        _, value = core._getHashValue(attr=fallback, eval_context=evalContext)
        merged.update(docs.get(f"{fallback}||{value}", {}).get("assignments", {}))
    resolved, value = core._getHashValue(attr=attr, eval_context=evalContext)
    merged.update(docs.get(f"{resolved}||{value}", {}).get("assignments", {}))
    return merged


def main() -> None:
    logging.disable(logging.CRITICAL)
    if "--fix-sticky-merge" in sys.argv:
        sys.argv.remove("--fix-sticky-merge")
        core._get_sticky_bucket_assignments = merged_sticky_assignments
    with open(sys.argv[1], encoding="utf-8") as handle:
        payload = json.load(handle)
    keys = list(payload["features"].keys())
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        context = json.loads(line)
        exposures = []

        def viewed(experiment, result, user_context=None):
            exposures.append([experiment.key, result.variationId, result.key, result.hashAttribute,
                              result.hashValue, result.featureId])

        service = None
        if context.get("stickyDocs") is not None:
            service = InMemoryStickyBucketService()
            for doc in context["stickyDocs"]:
                service.save_assignments(doc)
        gb = GrowthBook(
            attributes=context["attributes"],
            url=context.get("url", ""),
            features=payload["features"],
            saved_groups=payload.get("savedGroups") or {},
            contextual_bandits=payload.get("contextualBandits") or {},
            forced_variations=context.get("forcedVariations") or {},
            forced_features=context.get("forcedFeatures") or {},
            sticky_bucket_service=service,
            on_experiment_viewed=viewed,
        )
        results = [gb.eval_feature(key).to_dict() for key in keys]
        out.write(json.dumps({"results": results, "exposures": exposures,
                              "docs": service.docs if service is not None else None},
                             ensure_ascii=False, separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main()
