// Flag evaluation as flagd does it: evaluateFlag asked for a type (a value of
// another type is TYPE_MISMATCH), the flag's metadata over the flag set's, and
// evaluateFlags answering for every flag, or for the keys named, in one call.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidParamsError } from "../index.js";
import { definitionsPath, signIn, spawnClient } from "./support.mjs";

const typedFlags = definitionsPath("typed-flags.json");
const setMetadata = { flagSetId: "shop", version: 3 };
const TYPES = ["boolean", "string", "integer", "float", "object"];

/** Each flag of typed-flags.json for an empty context: its value, and the types that value is of. */
const resolutions = {
  "express-checkout": { value: false, variant: "off", reason: "DEFAULT", types: ["boolean"] },
  "welcome-text": { value: "Hello", variant: "plain", reason: "STATIC", types: ["string"] },
  "max-items": { value: 3, variant: "few", reason: "DEFAULT", types: ["integer", "float"] },
  "discount-rate": { value: 0.15, variant: "some", reason: "STATIC", types: ["float"] },
  layout: { value: { columns: 2, dense: true }, variant: "grid", reason: "DEFAULT", types: ["object"] },
};
/** The flag's own metadata overlays the flag set's. */
const metadataOf = (flagKey) =>
  flagKey === "express-checkout" ? { ...setMetadata, owner: "payments", version: 4, experimental: true } : setMetadata;

describe("evaluateFlag with a type", () => {
  it("answers the value when it is of the type asked for, TYPE_MISMATCH with null value and variant when not", async (t) => {
    const client = await spawnClient(t, { definitions: typedFlags });
    let checked = 0;
    for (const [flagKey, expected] of Object.entries(resolutions)) {
      for (const type of TYPES) {
        const result = await client.evaluateFlag({ flagKey, context: {}, type });
        if (expected.types.includes(type)) {
          assert.deepEqual(
            result,
            { value: expected.value, variant: expected.variant, reason: expected.reason, metadata: metadataOf(flagKey) },
            `${flagKey} as ${type}`,
          );
        } else {
          const { errorMessage, ...rest } = result;
          assert.deepEqual(rest, { value: null, variant: null, reason: "ERROR", errorCode: "TYPE_MISMATCH", metadata: metadataOf(flagKey) }, `${flagKey} as ${type}`);
          assert.match(errorMessage, new RegExp(`\\b${type}\\b`), `${flagKey} as ${type}: ${errorMessage}`);
        }
        checked++;
      }
    }
    assert.equal(checked, 25);
  });

  it("types the value the targeting picks, not the default's", async (t) => {
    const client = await spawnClient(t, { definitions: typedFlags });
    const gold = await client.evaluateFlag({ flagKey: "max-items", context: { targetingKey: "ada", tier: "gold" }, type: "integer" });
    assert.deepEqual(gold, { value: 25, variant: "many", reason: "TARGETING_MATCH", metadata: setMetadata });
    const phone = await client.evaluateFlag({ flagKey: "layout", context: { device: "phone" }, type: "object" });
    assert.deepEqual(phone.value, { columns: 1, dense: false });
    const goldAsString = await client.evaluateFlag({ flagKey: "express-checkout", context: { tier: "gold" }, type: "string" });
    assert.equal(goldAsString.errorCode, "TYPE_MISMATCH");
  });

  it("without a type answers any value; an unknown flag is FLAG_NOT_FOUND with a message, an unknown type -32602", async (t) => {
    const client = await spawnClient(t, { definitions: typedFlags });
    assert.deepEqual(await client.evaluateFlag({ flagKey: "welcome-text", context: {} }), {
      value: "Hello",
      variant: "plain",
      reason: "STATIC",
      metadata: setMetadata,
    });
    const missing = await client.evaluateFlag({ flagKey: "no-such-flag", context: {}, type: "boolean" });
    assert.equal(missing.reason, "ERROR");
    assert.equal(missing.errorCode, "FLAG_NOT_FOUND");
    assert.equal(missing.value, null);
    assert.match(missing.errorMessage, /no-such-flag/);
    await assert.rejects(
      client.evaluateFlag({ flagKey: "welcome-text", context: {}, type: "number" }),
      (error) => error instanceof InvalidParamsError && error.data.field === "type",
    );
  });

  it("leaves metadata out where the definitions have none", async (t) => {
    const client = await spawnClient(t);
    assert.deepEqual(await client.evaluateFlag({ flagKey: "dark-mode", context: {}, type: "boolean" }), {
      value: false,
      variant: "off",
      reason: "STATIC",
    });
  });

  it("gives the user's feature flags the same metadata", async (t) => {
    const client = await spawnClient(t, { definitions: typedFlags });
    const flags = await client.subscribe({ channel: "featureFlags" });
    const [updated] = await signIn(client, "ada", [flags], { tier: "gold" });
    const express = await client.getFeatureFlag({ id: "express-checkout" });
    assert.equal(express.enabled, true);
    assert.deepEqual(express.metadata, metadataOf("express-checkout"));
    assert.deepEqual(updated.cacheSnapshot.featureFlags.find((flag) => flag.id === "express-checkout"), express);
  });
});

describe("evaluateFlags", () => {
  it("answers every flag of the definitions, each as evaluateFlag does, the disabled one DISABLED", async (t) => {
    const client = await spawnClient(t, { definitions: typedFlags });
    const context = { targetingKey: "ada", tier: "gold", device: "phone" };
    const all = await client.evaluateFlags({ context });
    assert.deepEqual(Object.keys(all.flags).sort(), [...Object.keys(resolutions), "legacy-export"].sort());
    assert.deepEqual(all.metadata, setMetadata);
    for (const flagKey of Object.keys(resolutions)) {
      assert.deepEqual(all.flags[flagKey], await client.evaluateFlag({ flagKey, context }), flagKey);
    }
    assert.equal(all.flags["legacy-export"].reason, "DISABLED");
    assert.equal(all.flags["max-items"].value, 25);
  });

  it("answers exactly the keys named, an unknown one FLAG_NOT_FOUND", async (t) => {
    const client = await spawnClient(t, { definitions: typedFlags });
    const some = await client.evaluateFlags({ context: {}, flagKeys: ["max-items", "no-such-flag"] });
    assert.deepEqual(Object.keys(some.flags).sort(), ["max-items", "no-such-flag"]);
    assert.equal(some.flags["max-items"].value, 3);
    assert.equal(some.flags["no-such-flag"].errorCode, "FLAG_NOT_FOUND");
    assert.deepEqual((await client.evaluateFlags({ context: {}, flagKeys: [] })).flags, {});
    await assert.rejects(client.evaluateFlags({ flagKeys: ["max-items"] }), (error) => error instanceof InvalidParamsError && error.data.field === "context");
  });
});
