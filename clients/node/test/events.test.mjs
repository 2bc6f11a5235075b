// Subscriptions as emitters, iterators and waitFor; the client-wide waitFor;
// the deprecated updates pattern. No event may be lost, and waiting for one
// event never takes another.

import assert from "node:assert/strict";
import { once } from "node:events";
import { describe, it } from "node:test";
import { BuntingClosedError, BuntingTimeoutError } from "../index.js";
import { signIn, spawnClient } from "./support.mjs";

describe("a subscription", () => {
  it("keeps the replay that follows the reply for a listener added later", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    // Time passes, other replies come and go, before anyone listens.
    await client.status();
    await client.status();
    const heard = [];
    flags.on("event", (event) => heard.push(event.type));
    await client.status();
    assert.deepEqual(heard, ["CACHE_REPLAY"]);
    // Held events go to the first listener only; a second hears what comes next.
    const second = [];
    flags.on("event", (event) => second.push(event.type));
    await signIn(client, "ada", [flags]);
    assert.deepEqual(heard, ["CACHE_REPLAY", "CACHE_LOAD", "DATA_UPDATED"]);
    assert.deepEqual(second, ["CACHE_LOAD", "DATA_UPDATED"]);
  });

  it("hands every event to its iterator, in order, also those that came before the loop", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    await client.changeUser({ userId: "ada" });
    await client.status();
    const seen = [];
    for await (const event of flags) {
      seen.push(event.type);
      if (event.type === "DATA_UPDATED") break;
    }
    assert.deepEqual(seen, ["CACHE_REPLAY", "CACHE_LOAD", "DATA_UPDATED"]);
  });

  it("takes only the first matching event with waitFor, leaving the others in order", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    await client.changeUser({ userId: "ada" });
    const updated = await flags.waitFor({ type: "DATA_UPDATED" });
    assert.equal(updated.reason, "AUTO_SERVER_REFRESH");
    assert.deepEqual(flags.takeBuffered().map((event) => event.type), ["CACHE_REPLAY", "CACHE_LOAD"]);
    assert.equal(flags.bufferedCount, 0);
  });

  it("matches on type, reason, action, lists of values and a predicate", async (t) => {
    const client = await spawnClient(t);
    const cards = await client.subscribe({ channel: "contentCards" });
    await signIn(client, "ada", [cards]);
    await client.logImpression({ channel: "contentCards", ids: ["welcome", "ada-only"] });
    const second = await cards.waitFor({ type: "IMPRESSION", action: "ENQUEUED", predicate: (event) => event.card.id === "ada-only" });
    assert.equal(second.card.id, "ada-only");
    const first = await cards.waitFor({ type: ["CLICK", "IMPRESSION"], action: ["ENQUEUED"] });
    assert.equal(first.card.id, "welcome");
    await client.refresh({ channel: "contentCards" });
    const manual = await cards.waitFor({ reason: ["MANUAL_SERVER_REFRESH", "CLIENT_ACTION"] });
    assert.equal(manual.type, "DATA_UPDATED");
    await assert.rejects(cards.waitFor({ typ: "ERROR" }), TypeError);
  });

  it("gives an event to the waiter that asked first", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    await flags.waitFor({ type: "CACHE_REPLAY" });
    const first = flags.waitFor({});
    const second = flags.waitFor({});
    await client.changeUser({ userId: "ada" });
    assert.equal((await first).type, "CACHE_LOAD");
    assert.equal((await second).type, "DATA_UPDATED");
  });

  it("rejects a waitFor that times out, and keeps the event that comes after", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    const started = Date.now();
    const error = await flags.waitFor({ type: "DATA_UPDATED", timeout: 150 }).catch((e) => e);
    assert.ok(error instanceof BuntingTimeoutError, String(error));
    assert.ok(Date.now() - started >= 140);
    assert.match(error.message, /DATA_UPDATED/);
    await client.changeUser({ userId: "ada" });
    await client.status();
    assert.equal((await flags.waitFor({ type: "DATA_UPDATED", timeout: 5_000 })).type, "DATA_UPDATED");
  });

  it("stops waiting when its signal aborts", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    const controller = new AbortController();
    const waiting = flags.waitFor({ type: "ERROR", signal: controller.signal });
    controller.abort(new Error("no longer needed"));
    await assert.rejects(waiting, /no longer needed/);
  });

  it("ends its iteration and its waits when it is removed", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    const waiting = flags.waitFor({ type: "ERROR" });
    const iteration = (async () => {
      const seen = [];
      for await (const event of flags) seen.push(event.type);
      return seen;
    })();
    const ended = once(flags, "end");
    assert.deepEqual(await flags.unsubscribe(), { removed: true });
    await ended;
    assert.deepEqual(await iteration, ["CACHE_REPLAY"]);
    await assert.rejects(waiting, BuntingClosedError);
    assert.deepEqual(await flags.unsubscribe(), { removed: false });
  });

  it("unsubscribes on Symbol.asyncDispose where Node has it", { skip: typeof Symbol.asyncDispose !== "symbol" && "no Symbol.asyncDispose in this Node" }, async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    await flags[Symbol.asyncDispose]();
    assert.equal(flags.ended, true);
    assert.deepEqual(await client.removeSubscription({ subscriptionId: flags.id }), { removed: false });
  });

  it("keeps at most maxBufferedEvents, dropping the oldest", async (t) => {
    const client = await spawnClient(t, { maxBufferedEvents: 2 });
    const flags = await client.subscribe({ channel: "featureFlags" });
    // Seen by the client's emitter, which takes nothing from the queue. A
    // listener keeps nothing alive, and the refresh follows the reply: the
    // deadline's timer keeps the test's process alive until it comes.
    const updated = new Promise((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error("no DATA_UPDATED within 10 s")), 10_000);
      client.on("event", (event) => {
        if (event.subscriptionId !== flags.id || event.type !== "DATA_UPDATED") return;
        clearTimeout(deadline);
        resolve();
      });
    });
    await client.changeUser({ userId: "ada" });
    await updated;
    assert.equal(flags.droppedCount, 1);
    assert.deepEqual(flags.takeBuffered().map((event) => event.type), ["CACHE_LOAD", "DATA_UPDATED"]);
  });

  it("of the same channel twice gets its own events each", async (t) => {
    const client = await spawnClient(t);
    const one = await client.subscribe({ channel: "banners" });
    const two = await client.subscribe({ channel: "banners" });
    assert.notEqual(one.id, two.id);
    const [a, b] = await signIn(client, "ada", [one, two]);
    assert.equal(a.subscriptionId, one.id);
    assert.equal(b.subscriptionId, two.id);
    assert.deepEqual(a.cacheSnapshot, b.cacheSnapshot);
  });
});

describe("the client-wide waitFor", () => {
  it("takes the oldest matching event of any subscription, and only that one", async (t) => {
    const client = await spawnClient(t);
    const arrived = [];
    client.on("event", (event) => arrived.push(`${event.channel}:${event.type}`));
    const flags = await client.subscribe({ channel: "featureFlags" });
    const cards = await client.subscribe({ channel: "contentCards" });
    await client.changeUser({ userId: "ada" });
    const firstLoad = await client.waitFor({ type: "CACHE_LOAD" });
    const secondLoad = await client.waitFor({ type: "CACHE_LOAD" });
    const loads = arrived.filter((entry) => entry.endsWith(":CACHE_LOAD"));
    assert.deepEqual([`${firstLoad.channel}:CACHE_LOAD`, `${secondLoad.channel}:CACHE_LOAD`], loads);
    const cardsUpdated = await client.waitFor({ type: "DATA_UPDATED", channel: "contentCards" });
    assert.equal(cardsUpdated.subscriptionId, cards.id);
    // The flags' update was not taken by the wait for the cards'.
    const flagsUpdated = await flags.waitFor({ type: "DATA_UPDATED" });
    assert.equal(flagsUpdated.channel, "featureFlags");
    assert.deepEqual(flags.takeBuffered().map((event) => event.type), ["CACHE_REPLAY"]);
    assert.deepEqual(cards.takeBuffered().map((event) => event.type), ["CACHE_REPLAY"]);
  });

  it("and a subscription's waitFor share one queue: each event is taken once", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    const viaClient = client.waitFor({ type: "DATA_UPDATED", channel: "featureFlags" });
    const viaSubscription = flags.waitFor({ type: "DATA_UPDATED" });
    await client.changeUser({ userId: "ada" });
    const first = await viaClient;
    await client.refresh({ channel: "featureFlags" });
    const second = await viaSubscription;
    assert.equal(first.reason, "AUTO_SERVER_REFRESH");
    assert.equal(second.reason, "MANUAL_SERVER_REFRESH");
  });

  it("times out with a BuntingTimeoutError", async (t) => {
    const client = await spawnClient(t);
    await assert.rejects(client.waitFor({ type: "ERROR", channel: "banners", timeout: 50 }), BuntingTimeoutError);
  });
});

describe("the deprecated updates pattern", () => {
  it("sends the channel's data whenever its cache changes", async (t) => {
    const client = await spawnClient(t);
    const updates = await client.subscribeToUpdates({ channel: "contentCards" });
    assert.equal(updates.method, "subscribeToUpdates");
    await client.changeUser({ userId: "ada" });
    const loaded = await updates.waitFor({});
    assert.deepEqual(loaded, { subscriptionId: updates.id, channel: "contentCards", contentCards: { cards: [], unviewedCount: 0 } });
    const refreshed = await updates.waitFor({ predicate: (update) => update.contentCards.cards.length > 0 });
    assert.deepEqual(refreshed.contentCards.cards.map((card) => card.id), ["house-rules", "ada-only", "welcome"]);
    assert.deepEqual(await updates.unsubscribe(), { removed: true });
  });
});
