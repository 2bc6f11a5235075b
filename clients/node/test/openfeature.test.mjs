// The OpenFeature provider against the real server, called as the OpenFeature SDKs
// call a provider (the SDKs themselves cannot be installed here): both paradigms
// answer alike, the static one reads without the server for a held context and
// keeps its flags current, provider events follow the definitions, and track keeps
// the user of its context.

import assert from "node:assert/strict";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BuntingProvider, ProviderEvents } from "../index.js";
import { definitionsPath, spawnClient, temporaryDirectory } from "./support.mjs";

const typedFlags = definitionsPath("typed-flags.json");
const METHODS = {
  boolean: ["resolveBooleanEvaluation", false],
  string: ["resolveStringEvaluation", "?"],
  number: ["resolveNumberEvaluation", -1.5],
  object: ["resolveObjectEvaluation", { fallback: true }],
};
const CONTEXTS = [
  {},
  { targetingKey: "ada", tier: "gold", device: "phone" },
  { targetingKey: "bob", tier: "silver", when: new Date("2026-01-02T03:04:05Z") },
];

/** How the SDKs call a resolver: awaiting what it returns. */
async function resolve(provider, kind, flagKey, context) {
  const [method, fallback] = METHODS[kind];
  return provider[method](flagKey, fallback, context, console);
}

async function initialized(t, options, providerOptions) {
  const client = await spawnClient(t, { definitions: typedFlags, ...options });
  const provider = new BuntingProvider(client, providerOptions);
  await provider.initialize({});
  t.after(() => provider.onClose());
  return { client, provider };
}

describe("the OpenFeature provider", () => {
  it("refuses a paradigm it does not know", () => {
    assert.throws(() => new BuntingProvider({}, { paradigm: "statik" }), /"dynamic" or "static"/);
  });

  it("answers in the static paradigm as in the dynamic one, for every flag, type and context", async (t) => {
    const { client } = await initialized(t);
    const dynamic = new BuntingProvider(client);
    const held = new BuntingProvider(client, { paradigm: "static" });
    await dynamic.initialize({});
    await held.initialize({});
    t.after(() => Promise.all([dynamic.onClose(), held.onClose()]));
    const keys = [...Object.keys(JSON.parse(readFileSync(typedFlags, "utf8")).flags), "no-such-flag"];
    for (const context of CONTEXTS) {
      for (const key of keys) {
        for (const kind of Object.keys(METHODS)) {
          const expected = await resolve(dynamic, kind, key, context);
          assert.deepEqual(await resolve(held, kind, key, context), expected, `${kind} ${key} ${JSON.stringify(context)}`);
          assert.deepEqual(await resolve(held, kind, key, { ...context }), expected, "again, from what was kept");
        }
      }
    }
    const gold = await resolve(dynamic, "number", "max-items", { targetingKey: "ada", tier: "gold" });
    assert.deepEqual(gold, { value: 25, variant: "many", reason: "TARGETING_MATCH", flagMetadata: { flagSetId: "shop", version: 3 } });
    const mismatch = await resolve(dynamic, "boolean", "welcome-text", {});
    assert.equal(mismatch.errorCode, "TYPE_MISMATCH");
    assert.equal(mismatch.value, false);
  });

  it("reads a held context without the server and without a promise; a new context costs one evaluateFlags", async (t) => {
    const { client, provider } = await initialized(t, {}, { paradigm: "static" });
    let calls = 0;
    const evaluateFlags = client.evaluateFlags.bind(client);
    client.evaluateFlags = (...args) => {
      calls += 1;
      return evaluateFlags(...args);
    };
    const gold = { targetingKey: "ada", tier: "gold" };
    const first = await provider.resolveNumberEvaluation("max-items", 0, gold);
    assert.equal(first.value, 25);
    assert.equal(calls, 1);
    process.kill(client.pid, "SIGSTOP");
    try {
      for (let i = 0; i < 100; i++) {
        const read = provider.resolveNumberEvaluation("max-items", 0, { targetingKey: "ada", tier: "gold" });
        assert.equal(typeof read.then, "undefined", "a held context answers at once");
        assert.equal(read.value, 25);
      }
    } finally {
      process.kill(client.pid, "SIGCONT");
    }
    assert.equal((await provider.resolveNumberEvaluation("max-items", 0, { targetingKey: "bob" })).value, 3);
    assert.equal(calls, 2);
    gold.tier = "silver"; // the caller's own object, changed: a new context
    assert.equal((await provider.resolveNumberEvaluation("max-items", 0, gold)).value, 3);
    assert.equal(calls, 3);
  });

  it("holds the web SDK's new context on onContextChange, before any read", async (t) => {
    const { provider } = await initialized(t, {}, { paradigm: "static" });
    await provider.onContextChange({}, { targetingKey: "ada", tier: "gold" });
    const read = provider.resolveNumberEvaluation("max-items", 0, { targetingKey: "ada", tier: "gold" });
    assert.equal(read.value, 25);
  });

  it("tells configuration changes once the new document's answers are held", async (t) => {
    const directory = temporaryDirectory(t);
    const path = join(directory, "flags.json");
    const document = JSON.parse(readFileSync(typedFlags, "utf8"));
    writeFileSync(path, JSON.stringify(document));
    for (const paradigm of ["static", "dynamic"]) {
      const { client, provider } = await initialized(t, { definitions: path, pollInterval: 0.05 }, { paradigm });
      // Provider events alone do not keep a program alive; a wait does.
      const watching = await client.subscribeToDefinitions();
      const changedToo = watching.waitFor({ type: "CHANGED" });
      const gold = { targetingKey: "ada", tier: "gold" };
      assert.equal((await provider.resolveNumberEvaluation("max-items", 0, gold)).value, document.flags["max-items"].variants.many);
      const seen = new Promise((resolvePromise) => {
        provider.events.addHandler(ProviderEvents.ConfigurationChanged, async (details) => {
          resolvePromise({ details, read: await provider.resolveNumberEvaluation("max-items", 0, gold) });
        });
      });
      document.flags["max-items"].variants.many += 10;
      writeFileSync(`${path}.next`, JSON.stringify(document));
      renameSync(`${path}.next`, path);
      await changedToo;
      const { details, read } = await seen;
      assert.deepEqual(details.flagsChanged, ["max-items"]);
      assert.equal(read.value, document.flags["max-items"].variants.many, paradigm);
      await provider.onClose();
    }
  });

  it("tracks each event under the targeting key of its context", async (t) => {
    const directory = temporaryDirectory(t);
    const sink = join(directory, "events.ndjson");
    const { client, provider } = await initialized(t, { sink, flushInterval: 3600 });
    await client.changeUser({ userId: "ada" });
    const flags = await client.subscribe({ channel: "featureFlags" });
    const sent = [["grace", "gold"], ["linus", "free"], ["grace", "silver"], ["ken", "gold"], ["linus", "gold"]];
    const enqueued = [];
    flags.on("event", (event) => event.type === "CUSTOM" && event.action === "ENQUEUED" && enqueued.push(event));
    for (const [user, tier] of sent) provider.track("checkout", { targetingKey: user, tier }, { value: 1, sku: "boots" });
    provider.track("opened", {});
    assert.deepEqual(await client.flush(), { flushed: 6, pending: 0 });
    assert.equal(enqueued.length, 6);
    const lines = readFileSync(sink, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(
      lines.map((line) => [line.userId, line.attributes]),
      [...sent.map(([user, tier]) => [user, { tier }]), ["ada", undefined]],
    );
    assert.deepEqual(lines[0].details, { sku: "boots" });
    assert.equal((await client.status()).userId, "ada");
  });

  it("spawns and closes a client of its own when given spawn options", async () => {
    const provider = new BuntingProvider({ storage: ":memory:", definitions: typedFlags }, { paradigm: "static" });
    await provider.initialize({ targetingKey: "ada", tier: "gold" });
    const client = provider.client;
    assert.equal(provider.resolveNumberEvaluation("max-items", 0, { targetingKey: "ada", tier: "gold" }).value, 25);
    await provider.onClose();
    assert.equal(client.closed, true);
    assert.equal((await client.exited).exitCode, 0);
  });

  it("resolves a GrowthBook payload's features as typed flags, an experiment's arm with reason SPLIT", async (t) => {
    for (const paradigm of ["dynamic", "static"]) {
      const client = await spawnClient(t, { definitions: definitionsPath("growthbook.json") });
      const provider = new BuntingProvider(client, { paradigm });
      await provider.initialize({ targetingKey: "ada", tier: "gold" });
      t.after(() => provider.onClose());
      const gold = await provider.resolveBooleanEvaluation("new-nav", false, { targetingKey: "ada", tier: "gold" }, console);
      assert.deepEqual([gold.value, gold.reason], [true, "TARGETING_MATCH"], paradigm);
      const other = await provider.resolveBooleanEvaluation("new-nav", true, { targetingKey: "bo" }, console);
      assert.equal(other.value, false, paradigm);
      const arm = await provider.resolveStringEvaluation("checkout-button", "?", { targetingKey: "ada" }, console);
      assert.ok(["blue", "green"].includes(arm.value), paradigm);
      assert.equal(arm.reason, "SPLIT", paradigm);
      assert.equal(arm.variant, { blue: "control", green: "treatment" }[arm.value], paradigm);
      const limits = await provider.resolveObjectEvaluation("limits", {}, { targetingKey: "ada" }, console);
      assert.deepEqual(limits.value, { items: 10, label: "basic" }, paradigm);
      const discount = await provider.resolveNumberEvaluation("discount", 0, { targetingKey: "ada" }, console);
      assert.equal(discount.value, 0.1, paradigm);
      const mismatch = await provider.resolveNumberEvaluation("checkout-button", 7, { targetingKey: "ada" }, console);
      assert.deepEqual([mismatch.value, mismatch.errorCode], [7, "TYPE_MISMATCH"], paradigm);
    }
  });
});
