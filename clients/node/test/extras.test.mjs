// Feeds of content cards: getSnapshot and subscribe with `extras` list only the
// cards whose extras hold every key given with that value, and unviewedCount
// counts those; a subscription's snapshots stay filtered through refreshes,
// impressions and dismissals.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidParamsError } from "../index.js";
import { signIn, spawnClient } from "./support.mjs";

const ids = (snapshot) => snapshot.contentCards.cards.map((card) => card.id);

describe("extras feeds", () => {
  it("getSnapshot lists one feed's cards, pinned first, and counts that feed's unviewed", async (t) => {
    const client = await spawnClient(t);
    const cards = await client.subscribe({ channel: "contentCards" });
    await signIn(client, "ada", [cards]);
    assert.deepEqual(ids(await client.getSnapshot({ channel: "contentCards" })), ["house-rules", "ada-only", "welcome"]);
    const inbox = await client.getSnapshot({ channel: "contentCards", extras: { feed: "inbox" } });
    assert.deepEqual(ids(inbox), ["house-rules", "welcome"]);
    assert.equal(inbox.contentCards.unviewedCount, 2);
    assert.ok(inbox.lastSyncAt > 0);
    const carousel = await client.getSnapshot({ channel: "contentCards", extras: { feed: "carousel" } });
    assert.deepEqual(ids(carousel), ["ada-only"]);
    assert.equal(carousel.contentCards.unviewedCount, 1);

    await client.logImpression({ channel: "contentCards", id: "welcome" });
    assert.equal((await client.getSnapshot({ channel: "contentCards", extras: { feed: "inbox" } })).contentCards.unviewedCount, 1);
    assert.equal((await client.getSnapshot({ channel: "contentCards", extras: { feed: "carousel" } })).contentCards.unviewedCount, 1);
    assert.equal((await client.getSnapshot({ channel: "contentCards" })).contentCards.unviewedCount, 2);
  });

  it("matches every key given with exactly its value; {} is every card", async (t) => {
    const client = await spawnClient(t);
    const cards = await client.subscribe({ channel: "contentCards" });
    await signIn(client, "ada", [cards]);
    assert.deepEqual(ids(await client.getSnapshot({ channel: "contentCards", extras: {} })), ["house-rules", "ada-only", "welcome"]);
    assert.deepEqual(ids(await client.getSnapshot({ channel: "contentCards", extras: { feed: "Inbox" } })), []);
    assert.deepEqual(ids(await client.getSnapshot({ channel: "contentCards", extras: { feed: "inbox", lang: "en" } })), []);
    assert.deepEqual(ids(await client.getSnapshot({ channel: "contentCards", extras: { colour: "red" } })), []);
    const empty = await client.getSnapshot({ channel: "contentCards", extras: { feed: "nowhere" } });
    assert.deepEqual(empty.contentCards, { cards: [], unviewedCount: 0 });
  });

  it("a subscription with extras gets every snapshot filtered: replay, refresh, dismissal", async (t) => {
    const client = await spawnClient(t);
    const inbox = await client.subscribe({ channel: "contentCards", extras: { feed: "inbox" } });
    const everything = await client.subscribe({ channel: "contentCards" });
    assert.deepEqual((await inbox.waitFor({ type: "CACHE_REPLAY" })).cacheSnapshot.contentCards, { cards: [], unviewedCount: 0 });
    const [inboxUpdated, allUpdated] = await signIn(client, "ada", [inbox, everything]);
    assert.deepEqual(ids(inboxUpdated.cacheSnapshot), ["house-rules", "welcome"]);
    assert.equal(inboxUpdated.cacheSnapshot.contentCards.unviewedCount, 2);
    assert.deepEqual(ids(allUpdated.cacheSnapshot), ["house-rules", "ada-only", "welcome"]);

    // A card of the feed shows the same in both.
    await client.logImpression({ channel: "contentCards", id: "welcome" });
    const impression = await inbox.waitFor({ type: "IMPRESSION", action: "ENQUEUED" });
    assert.equal(impression.card.id, "welcome");
    await client.refresh({ channel: "contentCards" });
    const refreshed = await inbox.waitFor({ type: "DATA_UPDATED", reason: "MANUAL_SERVER_REFRESH" });
    assert.deepEqual(ids(refreshed.cacheSnapshot), ["house-rules", "welcome"]);
    assert.equal(refreshed.cacheSnapshot.contentCards.unviewedCount, 1);

    await client.logDismiss({ channel: "contentCards", id: "welcome" });
    const dismissed = await inbox.waitFor({ type: "DATA_UPDATED", reason: "CLIENT_ACTION" });
    assert.deepEqual(dismissed.cacheSnapshot.contentCards, {
      cards: [refreshed.cacheSnapshot.contentCards.cards[0]],
      unviewedCount: 1,
    });
    const allDismissed = await everything.waitFor({ type: "DATA_UPDATED", reason: "CLIENT_ACTION" });
    assert.deepEqual(ids(allDismissed.cacheSnapshot), ["house-rules", "ada-only"]);
  });

  it("a subscription with extras hears only its feed's impressions, clicks and dismissals", async (t) => {
    const client = await spawnClient(t);
    const inbox = await client.subscribe({ channel: "contentCards", extras: { feed: "inbox" } });
    await signIn(client, "ada", [inbox]);
    inbox.takeBuffered();
    await client.logImpression({ channel: "contentCards", ids: ["ada-only", "welcome"] });
    await client.logClick({ channel: "contentCards", id: "ada-only" });
    await client.status();
    const heard = inbox.takeBuffered().map((event) => `${event.type} ${event.card?.id}`);
    assert.deepEqual(heard, ["IMPRESSION welcome"]);
  });

  it("a user change replays the new user's feed", async (t) => {
    const client = await spawnClient(t);
    const carousel = await client.subscribe({ channel: "contentCards", extras: { feed: "carousel" } });
    const [ada] = await signIn(client, "ada", [carousel]);
    assert.deepEqual(ids(ada.cacheSnapshot), ["ada-only"]);
    const [bob] = await signIn(client, "bob", [carousel]);
    assert.deepEqual(ids(bob.cacheSnapshot), []);
  });

  it("is refused for other channels and for a filter that is not an object", async (t) => {
    const client = await spawnClient(t);
    const refused = (error) => error instanceof InvalidParamsError && error.data.field === "extras";
    await assert.rejects(client.getSnapshot({ channel: "banners", extras: { feed: "inbox" } }), refused);
    await assert.rejects(client.subscribe({ channel: "featureFlags", extras: {} }), refused);
    await assert.rejects(client.getSnapshot({ channel: "contentCards", extras: ["feed"] }), refused);
    assert.equal(client.subscriptions.size, 0);
  });
});
