// Every family of methods against the real server, under both framings.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { protocolMethods } from "../index.js";
import { FRAMINGS, signIn, spawnClient, temporaryDirectory } from "./support.mjs";

for (const framing of FRAMINGS) {
  describe(`methods over ${framing}`, () => {
    it("rpcDiscover and status describe this server", async (t) => {
      const client = await spawnClient(t, { framing });
      const document = await client.rpcDiscover();
      assert.equal(document.openrpc, "1.3.2");
      assert.deepEqual(
        document.methods.map((method) => method.name),
        protocolMethods.map((method) => method.method),
      );
      const status = await client.status();
      assert.equal(status.framing, framing);
      assert.equal(status.userId, null);
      assert.equal(status.sdkEnabled, true);
      assert.deepEqual(Object.keys(status.channels).sort(), ["banners", "contentCards", "featureFlags"]);
      assert.match(status.definitions.location, /basic\.json$/);
      assert.equal(status.definitions.loaded, true);
      assert.deepEqual(status.definitions.problems, []);
    });

    it("changeUser, setUserAttributes, openSession and closeSession change the user and session", async (t) => {
      const client = await spawnClient(t, { framing });
      const flags = await client.subscribe({ channel: "featureFlags" });
      assert.deepEqual(await client.changeUser({ userId: "bob" }), {});
      const loaded = await flags.waitFor({ type: "CACHE_LOAD" });
      assert.deepEqual(loaded.cacheSnapshot, { featureFlags: [], lastSyncAt: 0 });
      const [bobs] = [await flags.waitFor({ type: "DATA_UPDATED", reason: "AUTO_SERVER_REFRESH" })];
      assert.equal(bobs.cacheSnapshot.featureFlags.find((flag) => flag.id === "beta").enabled, false);

      assert.deepEqual(await client.setUserAttributes({ attributes: { plan: "pro" } }), {});
      assert.deepEqual(await client.closeSession(), {});
      assert.equal((await client.status()).sessionId, null);
      assert.deepEqual(await client.openSession(), {});
      await flags.waitFor({ type: "DATA_UPDATED", reason: "AUTO_SERVER_REFRESH" });
      const status = await client.status();
      assert.equal(status.userId, "bob");
      assert.equal(typeof status.sessionId, "string");
    });

    it("subscribe replays the cache; removeSubscription ends the subscription", async (t) => {
      const client = await spawnClient(t, { framing });
      const cards = await client.subscribe({ channel: "contentCards" });
      assert.equal(typeof cards.id, "string");
      assert.equal(cards.channel, "contentCards");
      const replay = await cards.waitFor({ type: "CACHE_REPLAY" });
      assert.deepEqual(replay, {
        subscriptionId: cards.id,
        channel: "contentCards",
        type: "CACHE_REPLAY",
        cacheSnapshot: { contentCards: { cards: [], unviewedCount: 0 }, lastSyncAt: 0 },
      });
      assert.ok(client.subscriptions.has(cards.id));
      assert.deepEqual(await client.removeSubscription({ subscriptionId: cards.id }), { removed: true });
      assert.equal(cards.ended, true);
      assert.ok(!client.subscriptions.has(cards.id));
      assert.deepEqual(await client.removeSubscription({ subscriptionId: cards.id }), { removed: false });
    });

    it("refresh, getSnapshot, getFeatureFlag and getBanner read the user's data", async (t) => {
      const client = await spawnClient(t, { framing });
      const banners = await client.subscribe({ channel: "banners" });
      const flags = await client.subscribe({ channel: "featureFlags" });
      await signIn(client, "ada", [banners, flags]);

      assert.deepEqual(await client.refresh({ channel: "banners", placementIds: ["home-top"] }), {});
      const refreshed = await banners.waitFor({ type: "DATA_UPDATED", reason: "MANUAL_SERVER_REFRESH" });
      assert.equal(refreshed.cacheSnapshot.banners["home-top"].id, "ada-top");

      const snapshot = await client.getSnapshot({ channel: "banners" });
      assert.deepEqual(Object.keys(snapshot.banners).sort(), ["footer", "home-top"]);
      assert.ok(snapshot.lastSyncAt > 0);
      const banner = await client.getBanner({ placementId: "home-top" });
      assert.equal(banner.html, "<p>Hello Ada — ünïcödé ✓</p>");
      assert.equal(await client.getBanner({ placementId: "nowhere" }), null);

      const beta = await client.getFeatureFlag({ id: "beta" });
      assert.deepEqual(beta, {
        id: "beta",
        enabled: true,
        properties: { label: { type: "string", value: "Bêta ✨ für alle" } },
        trackingString: "beta-on",
      });
      assert.equal(await client.getFeatureFlag({ id: "no-such-flag" }), null);
    });

    it("logImpression, logClick, logDismiss and flush send analytics to the sink", async (t) => {
      const sink = join(temporaryDirectory(t), "events.ndjson");
      const client = await spawnClient(t, { framing, sink, flushInterval: 3600 });
      const cards = await client.subscribe({ channel: "contentCards" });
      await signIn(client, "ada", [cards]);

      assert.deepEqual(await client.logImpression({ channel: "contentCards", ids: ["welcome", "ada-only"] }), {});
      const impressions = [
        await cards.waitFor({ type: "IMPRESSION", action: "ENQUEUED" }),
        await cards.waitFor({ type: "IMPRESSION", action: "ENQUEUED" }),
      ];
      assert.deepEqual(impressions.map((event) => event.card.id), ["welcome", "ada-only"]);
      assert.equal(impressions[0].card.viewed, true);

      assert.deepEqual(await client.logClick({ channel: "contentCards", id: "welcome" }), {});
      const click = await cards.waitFor({ type: "CLICK", action: "ENQUEUED" });
      assert.equal(click.card.clicked, true);

      assert.deepEqual(await client.logDismiss({ channel: "contentCards", id: "welcome" }), {});
      await cards.waitFor({ type: "DISMISS", action: "ENQUEUED" });
      const afterDismiss = await cards.waitFor({ type: "DATA_UPDATED", reason: "CLIENT_ACTION" });
      assert.ok(!afterDismiss.cacheSnapshot.contentCards.cards.some((card) => card.id === "welcome"));

      const flushed = await client.flush();
      assert.deepEqual(flushed, { flushed: 4, pending: 0 });
      const enqueuedIds = [...impressions, click].map((event) => event.eventId);
      const flushedEvents = [];
      for (let i = 0; i < 4; i++) flushedEvents.push(await cards.waitFor({ action: "FLUSHED" }));
      assert.deepEqual(
        flushedEvents.map((event) => event.eventId).filter((id) => enqueuedIds.includes(id)).sort(),
        [...enqueuedIds].sort(),
      );
      const lines = readFileSync(sink, "utf8").trim().split("\n").map((line) => JSON.parse(line));
      assert.deepEqual(lines.map((event) => event.kind), ["impression", "impression", "click", "dismiss"]);
      assert.ok(lines.every((event) => event.userId === "ada"));
    });

    it("wipeData empties the caches; disableSDK and enableSDK turn the SDK off and on", async (t) => {
      const client = await spawnClient(t, { framing });
      const flags = await client.subscribe({ channel: "featureFlags" });
      await signIn(client, "ada", [flags]);
      assert.deepEqual(await client.wipeData(), {});
      const wiped = await flags.waitFor({ type: "CACHE_LOAD" });
      assert.deepEqual(wiped.cacheSnapshot.featureFlags, []);

      assert.deepEqual(await client.disableSDK(), {});
      assert.equal(await client.subscribe({ channel: "banners" }), null);
      assert.equal(await client.subscribeToUpdates({ channel: "banners" }), null);
      assert.equal((await client.status()).sdkEnabled, false);
      assert.deepEqual(await client.enableSDK(), {});
      assert.notEqual(await client.subscribe({ channel: "banners" }), null);
    });

    it("evaluate and evaluateFlag evaluate rules and flags", async (t) => {
      const client = await spawnClient(t, { framing });
      assert.deepEqual(await client.evaluate({ rule: { sem_ver: [{ var: "v" }, "^", "1.2.0"] }, data: { v: "1.9.3" } }), { result: true });
      assert.deepEqual(await client.evaluate({ rule: { cat: ["ü", { var: "x" }] }, data: { x: "🦊" } }), { result: "ü🦊" });
      assert.deepEqual(await client.evaluateFlag({ flagKey: "greeting", context: { targetingKey: "kim", locale: "ja" } }), {
        value: "こんにちは 👋 — ça va?",
        variant: "fancy",
        reason: "TARGETING_MATCH",
      });
      const unknown = await client.evaluateFlag({ flagKey: "nope", context: {} });
      assert.equal(unknown.reason, "ERROR");
      assert.equal(unknown.errorCode, "FLAG_NOT_FOUND");
    });

    it("track, subscribeToDefinitions, evaluateFlags and extras feeds", async (t) => {
      const client = await spawnClient(t, { framing });
      const definitions = await client.subscribeToDefinitions();
      assert.equal((await definitions.waitFor({ type: "READY" })).subscriptionId, definitions.id);
      const flags = await client.subscribe({ channel: "featureFlags" });
      const inbox = await client.subscribe({ channel: "contentCards", extras: { feed: "inbox" } });
      const [, inboxUpdated] = await signIn(client, "ada", [flags, inbox]);
      assert.deepEqual(inboxUpdated.cacheSnapshot.contentCards.cards.map((card) => card.id), ["house-rules", "welcome"]);
      const { eventId } = await client.track({ name: "greeted", value: 1 });
      const custom = await flags.waitFor({ type: "CUSTOM", action: "ENQUEUED" });
      assert.equal(custom.eventId, eventId);
      const { flags: resolved } = await client.evaluateFlags({ context: { targetingKey: "ada" }, flagKeys: ["beta", "dark-mode"] });
      assert.deepEqual(Object.keys(resolved).sort(), ["beta", "dark-mode"]);
      assert.equal(resolved.beta.variant, "on");
      assert.equal((await client.evaluateFlag({ flagKey: "dark-mode", context: {}, type: "string" })).errorCode, "TYPE_MISMATCH");
    });

    it("shutdown answers, then the server exits 0", async (t) => {
      const client = await spawnClient(t, { framing });
      assert.deepEqual(await client.shutdown(), {});
      assert.deepEqual(await client.exited, { exitCode: 0, signal: null, killed: false });
      assert.equal(client.closed, true);
    });

    it("call and notify reach any method by name", async (t) => {
      const client = await spawnClient(t, { framing });
      client.notify("changeUser", { userId: "nora" });
      assert.equal((await client.call("status")).userId, "nora");
    });
  });
}
