// subscribeToDefinitions: the definitions' own events (OpenFeature's provider
// events) as a definitions file is edited, broken, mended, missing and found.
// The server polls the file every 50 ms; each step waits for its event.

import assert from "node:assert/strict";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BuntingClosedError } from "../index.js";
import { basicDefinitions, spawnClient, temporaryDirectory } from "./support.mjs";

const basic = readFileSync(basicDefinitions, "utf8");

/** Replaces the file in one step, so that a poll never reads it half written. */
function replaceFile(path, text) {
  writeFileSync(`${path}.new`, text);
  renameSync(`${path}.new`, path);
}

/** A definitions file of the test's own, a copy of basic.json, that the test may rewrite. */
function definitionsFile(t) {
  const path = join(temporaryDirectory(t), "definitions.json");
  replaceFile(path, basic);
  return path;
}

/** basic.json's document, to change and write with `replaceFile(path, JSON.stringify(document))`. */
const basicDocument = () => JSON.parse(basic);

/**
 * The same adoption's loadedAt, told by CHANGED and by status (or a later
 * READY), can be microseconds apart: equal to a millisecond is the same.
 */
const sameMoment = (a, b) => Math.abs(a - b) < 0.001;

describe("subscribeToDefinitions", () => {
  it("sends READY right after the reply when definitions are loaded, as status tells them", async (t) => {
    const client = await spawnClient(t);
    const definitions = await client.subscribeToDefinitions();
    assert.equal(definitions.method, "subscribeToDefinitions");
    assert.equal(definitions.channel, undefined);
    // Written before the reply to the next request.
    const status = await client.status();
    assert.equal(definitions.bufferedCount, 1);
    const ready = await definitions.waitFor({ type: "READY" });
    assert.deepEqual(Object.keys(ready).sort(), ["loadedAt", "subscriptionId", "type"]);
    assert.equal(ready.subscriptionId, definitions.id);
    assert.equal(status.definitions.loaded, true);
    assert.deepEqual(status.definitions.problems, []);
    assert.ok(sameMoment(ready.loadedAt, status.definitions.loadedAt), `${ready.loadedAt} and ${status.definitions.loadedAt}`);
  });

  it("sends CHANGED with the flags added, removed or changed, before the DATA_UPDATED the new document causes", async (t) => {
    const path = definitionsFile(t);
    const client = await spawnClient(t, { definitions: path, pollInterval: 0.05 });
    const definitions = await client.subscribeToDefinitions();
    const flags = await client.subscribe({ channel: "featureFlags" });
    await definitions.waitFor({ type: "READY" });
    await client.changeUser({ userId: "ada" });
    await flags.waitFor({ type: "DATA_UPDATED" });
    const order = [];
    client.on("event", (event) => order.push(event.channel ? `${event.channel} ${event.type}` : `definitions ${event.type}`));

    const document = basicDocument();
    document.flags["dark-mode"].defaultVariant = "on";
    delete document.flags.retired;
    document.flags.sparkle = { state: "ENABLED", variants: { on: true, off: false }, defaultVariant: "on" };
    replaceFile(path, JSON.stringify(document));
    const changed = await definitions.waitFor({ type: "CHANGED" });
    assert.deepEqual([...changed.flagsChanged].sort(), ["dark-mode", "retired", "sparkle"]);
    const updated = await flags.waitFor({ type: "DATA_UPDATED" });
    assert.equal(updated.cacheSnapshot.featureFlags.find((flag) => flag.id === "dark-mode").enabled, true);
    assert.deepEqual(order.slice(0, 2), ["definitions CHANGED", "featureFlags DATA_UPDATED"]);
    assert.ok(changed.loadedAt > 0);
    assert.ok(sameMoment((await client.status()).definitions.loadedAt, changed.loadedAt));

    // A change of a banner only changes no flag; the flag set's metadata changes them all.
    document.banners[1].html = "<p>New footer</p>";
    replaceFile(path, JSON.stringify(document));
    assert.deepEqual((await definitions.waitFor({ type: "CHANGED" })).flagsChanged, []);
    document.metadata = { owner: "growth" };
    replaceFile(path, JSON.stringify(document));
    assert.deepEqual([...(await definitions.waitFor({ type: "CHANGED" })).flagsChanged].sort(), ["beta", "dark-mode", "greeting", "sparkle"]);
  });

  it("sends ERROR stale while older definitions serve, and READY when the source answers unchanged again", async (t) => {
    const path = definitionsFile(t);
    const client = await spawnClient(t, { definitions: path, pollInterval: 0.05 });
    const definitions = await client.subscribeToDefinitions();
    const ready = await definitions.waitFor({ type: "READY" });

    replaceFile(path, '{"flags": {');
    const error = await definitions.waitFor({ type: "ERROR" });
    assert.equal(error.reason, "INVALID_SERVER_DATA");
    assert.equal(error.stale, true);
    assert.equal(typeof error.retryState, "string");
    assert.equal(typeof error.message, "string");
    const status = await client.status();
    assert.equal(status.definitions.loaded, true);
    assert.equal(typeof status.definitions.lastError, "string");
    // The older definitions still serve.
    assert.equal((await client.evaluateFlag({ flagKey: "greeting", context: { locale: "ja" } })).variant, "fancy");

    replaceFile(path, basic);
    const again = await definitions.waitFor({ type: ["READY", "CHANGED"] });
    assert.equal(again.type, "READY", JSON.stringify(again));
    assert.ok(sameMoment(again.loadedAt, ready.loadedAt), `${again.loadedAt} and ${ready.loadedAt}`);
    assert.equal((await client.status()).definitions.lastError, undefined);
    assert.equal(definitions.bufferedCount, 0);
  });

  it("sends ERROR not stale while none are loaded, and READY when the first document arrives", async (t) => {
    const path = join(temporaryDirectory(t), "later.json");
    const client = await spawnClient(t, { definitions: path, pollInterval: 0.05, startWithoutDefinitions: true });
    const definitions = await client.subscribeToDefinitions();
    const error = await definitions.waitFor({ type: "ERROR" });
    assert.equal(error.stale, false);
    assert.equal(error.reason, "SERVER_ERROR");
    assert.equal((await client.status()).definitions.loaded, false);
    assert.equal((await client.evaluateFlag({ flagKey: "beta", context: {} })).errorCode, "FLAG_NOT_FOUND");

    replaceFile(path, basic);
    const ready = await definitions.waitFor({ type: "READY" });
    const status = await client.status();
    assert.equal(status.definitions.loaded, true);
    assert.ok(sameMoment(status.definitions.loadedAt, ready.loadedAt));
    assert.equal((await client.evaluateFlag({ flagKey: "greeting", context: { locale: "ja" } })).variant, "fancy");

    rmSync(path);
    const gone = await definitions.waitFor({ type: "ERROR" });
    assert.equal(gone.stale, true);
  });

  it("ends with removeSubscription; another subscription still hears, and while the SDK is disabled none is made", async (t) => {
    const path = definitionsFile(t);
    const client = await spawnClient(t, { definitions: path, pollInterval: 0.05 });
    const removed = await client.subscribeToDefinitions();
    const witness = await client.subscribeToDefinitions();
    assert.notEqual(removed.id, witness.id);
    const heard = [];
    const iteration = (async () => {
      for await (const event of removed) heard.push(event.type);
    })();
    await witness.waitFor({ type: "READY" });
    assert.deepEqual(await removed.unsubscribe(), { removed: true });
    await iteration;
    assert.deepEqual(heard, ["READY"]);
    const strays = [];
    client.on("event", (event) => {
      if (event.subscriptionId === removed.id) strays.push(event);
    });

    const document = basicDocument();
    document.flags["dark-mode"].defaultVariant = "on";
    replaceFile(path, JSON.stringify(document));
    assert.deepEqual((await witness.waitFor({ type: "CHANGED" })).flagsChanged, ["dark-mode"]);
    // Through the client-wide waitFor too: a definitions event has no channel.
    document.flags.greeting.defaultVariant = "fancy";
    replaceFile(path, JSON.stringify(document));
    const changed = await client.waitFor({ type: "CHANGED" });
    assert.equal(changed.subscriptionId, witness.id);
    assert.deepEqual(strays, []);

    await client.disableSDK();
    assert.equal(await client.subscribeToDefinitions(), null);
    await client.enableSDK();
    const after = await client.subscribeToDefinitions();
    assert.equal((await after.waitFor({ type: "READY" })).type, "READY");
  });
});

describe("status.definitions", () => {
  it("lists each problem of definitions that loaded anyway, and --strict refuses them", async (t) => {
    const path = definitionsFile(t);
    const document = basicDocument();
    document.flags.greeting.defaultVariant = "missing";
    replaceFile(path, JSON.stringify(document, null, 2));
    const client = await spawnClient(t, { definitions: path });
    const { definitions } = await client.status();
    assert.equal(definitions.loaded, true);
    assert.equal(definitions.problems.length, 1, JSON.stringify(definitions.problems));
    const [problem] = definitions.problems;
    assert.equal(problem.pointer, "/flags/greeting/defaultVariant");
    const line = JSON.stringify(document, null, 2).split("\n").findIndex((text) => text.includes('"missing"')) + 1;
    assert.equal(problem.line, line);
    assert.ok(problem.column > 0);
    assert.equal(typeof problem.message, "string");
    // The other flags serve.
    assert.equal((await client.evaluateFlag({ flagKey: "beta", context: { targetingKey: "ada" } })).variant, "on");

    const strict = await spawnClient(t, { definitions: path, strict: true });
    const [exit, refused] = await Promise.all([strict.exited, strict.status().catch((error) => error)]);
    assert.equal(exit.exitCode, 1);
    assert.ok(refused instanceof BuntingClosedError, String(refused));
    assert.match(strict.stderrLines.join("\n"), /greeting/);
  });
});
