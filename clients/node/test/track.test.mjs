// track: a custom event on the durable analytics path. It is answered with its
// id, told to featureFlags subscriptions as CUSTOM ENQUEUED and then FLUSHED
// (same id), and reaches the sink exactly once, across a restart on the same
// storage too.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { InvalidParamsError, SDKDisabledError } from "../index.js";
import { signIn, spawnClient, temporaryDirectory } from "./support.mjs";

/** The sink file's events, one a line. */
const sinkEvents = (path) =>
  existsSync(path) ? readFileSync(path, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line)) : [];

describe("track", () => {
  it("answers the event's id and tells featureFlags subscriptions CUSTOM ENQUEUED, then FLUSHED", async (t) => {
    const sink = join(temporaryDirectory(t), "events.ndjson");
    const client = await spawnClient(t, { sink, flushInterval: 3600 });
    const flags = await client.subscribe({ channel: "featureFlags" });
    const cards = await client.subscribe({ channel: "contentCards" });
    await signIn(client, "ada", [flags, cards]);

    const { eventId } = await client.track({ name: "checkout-completed", value: 42.5, details: { items: 3, coupon: "SPRING" } });
    assert.match(eventId, /^[0-9a-f]{32}$/);
    const enqueued = await flags.waitFor({ type: "CUSTOM", action: "ENQUEUED" });
    assert.deepEqual(enqueued, {
      subscriptionId: flags.id,
      channel: "featureFlags",
      type: "CUSTOM",
      action: "ENQUEUED",
      eventId,
      event: { name: "checkout-completed", value: 42.5, details: { items: 3, coupon: "SPRING" } },
    });
    // Without value and details, the event carries neither.
    const bare = await client.track({ name: "opened-help" });
    assert.deepEqual((await flags.waitFor({ type: "CUSTOM", action: "ENQUEUED" })).event, { name: "opened-help" });
    assert.notEqual(bare.eventId, eventId);

    assert.deepEqual(await client.flush(), { flushed: 2, pending: 0 });
    const flushed = [await flags.waitFor({ type: "CUSTOM", action: "FLUSHED" }), await flags.waitFor({ type: "CUSTOM", action: "FLUSHED" })];
    assert.deepEqual(flushed.map((event) => event.eventId).sort(), [eventId, bare.eventId].sort());
    assert.deepEqual(flushed.find((event) => event.eventId === eventId).event, enqueued.event);
    // Custom events belong to the featureFlags channel: a content-card subscription hears none.
    assert.deepEqual(cards.takeBuffered().filter((event) => event.type === "CUSTOM"), []);

    const status = await client.status();
    const events = sinkEvents(sink);
    assert.deepEqual(events.map((event) => event.eventId), [eventId, bare.eventId]);
    const { time, deviceId, sessionId, ...rest } = events[0];
    assert.deepEqual(rest, {
      eventId,
      kind: "custom",
      channel: "featureFlags",
      itemId: "checkout-completed",
      name: "checkout-completed",
      value: 42.5,
      details: { items: 3, coupon: "SPRING" },
      userId: "ada",
    });
    assert.equal(typeof time, "number");
    assert.equal(typeof deviceId, "string");
    assert.equal(sessionId, status.sessionId);
    assert.equal("value" in events[1] || "details" in events[1], false);
  });

  it("reaches the sink once: stored before ENQUEUED, flushed at shutdown, not sent again after a restart", async (t) => {
    const directory = temporaryDirectory(t);
    const storage = join(directory, "state");
    const sink = join(directory, "events.ndjson");
    const first = await spawnClient(t, { storage, sink, flushInterval: 3600 });
    const flags = await first.subscribe({ channel: "featureFlags" });
    await signIn(first, "ada", [flags]);
    const flushedNow = await first.track({ name: "plan-upgraded", value: 1 });
    await flags.waitFor({ type: "CUSTOM", action: "ENQUEUED" });
    assert.deepEqual(await first.flush(), { flushed: 1, pending: 0 });
    const atShutdown = await first.track({ name: "survey-answered", details: { score: 9 } });
    await flags.waitFor({ type: "CUSTOM", action: "ENQUEUED", predicate: (event) => event.eventId === atShutdown.eventId });
    assert.equal((await first.status()).pendingAnalytics, 1);
    assert.deepEqual(await first.close(), { exitCode: 0, signal: null, killed: false });
    assert.deepEqual(sinkEvents(sink).map((event) => event.eventId), [flushedNow.eventId, atShutdown.eventId]);

    // The same storage again: nothing of it is pending, so nothing is sent twice.
    const second = await spawnClient(t, { storage, sink, flushInterval: 3600 });
    assert.equal((await second.status()).pendingAnalytics, 0);
    assert.deepEqual(await second.flush(), { flushed: 0, pending: 0 });
    assert.deepEqual(await second.close(), { exitCode: 0, signal: null, killed: false });
    const events = sinkEvents(sink);
    assert.deepEqual(events.map((event) => event.eventId), [flushedNow.eventId, atShutdown.eventId]);
    assert.deepEqual(events.map((event) => [event.kind, event.name]), [["custom", "plan-upgraded"], ["custom", "survey-answered"]]);
  });

  it("is stored while no sink is given, and sent by the next server that has one", async (t) => {
    const directory = temporaryDirectory(t);
    const storage = join(directory, "state");
    const sink = join(directory, "events.ndjson");
    const first = await spawnClient(t, { storage });
    const { eventId } = await first.track({ name: "offline-purchase", value: 3 });
    assert.equal((await first.status()).pendingAnalytics, 1);
    await first.close();

    const second = await spawnClient(t, { storage, sink, flushInterval: 3600 });
    const flags = await second.subscribe({ channel: "featureFlags" });
    assert.deepEqual(await second.flush(), { flushed: 1, pending: 0 });
    const flushed = await flags.waitFor({ type: "CUSTOM", action: "FLUSHED" });
    assert.equal(flushed.eventId, eventId);
    assert.deepEqual(flushed.event, { name: "offline-purchase", value: 3 });
    await second.close();
    assert.deepEqual(sinkEvents(sink).map((event) => [event.eventId, event.userId]), [[eventId, null]]);
  });

  it("refuses a bad name, value or details (-32602), and any event while the SDK is disabled", async (t) => {
    const client = await spawnClient(t);
    const refused = async (params, field) =>
      assert.rejects(client.track(params), (error) => error instanceof InvalidParamsError && error.data.field === field, JSON.stringify(params));
    await refused({ name: "" }, "name");
    await refused({ name: "x".repeat(256) }, "name");
    // 255 bytes of UTF-8, not characters: 128 two-byte characters are too many.
    await refused({ name: "é".repeat(128) }, "name");
    await refused({ value: 1 }, "name");
    await refused({ name: "n", value: "1" }, "value");
    await refused({ name: "n", details: [1] }, "details");
    assert.match((await client.track({ name: "é".repeat(127) })).eventId, /^[0-9a-f]{32}$/);
    await client.disableSDK();
    await assert.rejects(client.track({ name: "n" }), (error) => error instanceof SDKDisabledError && error.data.method === "track");
    assert.equal((await client.status()).pendingAnalytics, 1);
  });
});
