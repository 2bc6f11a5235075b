#!/usr/bin/env node
// A message inbox over content cards. Each tab is a feed, the cards whose
// `extras.feed` names it, with an unread badge; opening a tab logs an impression
// of each card shown; a tap goes where the card's extras say (`extras.deeplink`,
// a screen of the app, else the card's web `url`); a swipe dismisses a card.
// The cards' texts are Liquid templates, rendered for each user: the welcome
// card greets the user by name, and the lounge card's template hides it
// (`abort_message`) from all but gold members. After each step it prints what
// the screen shows.
//
//   node examples/inbox.mjs [--definitions PATH] [--sink PATH] [--framing lsp]
//
// The definitions default to the repository's examples/inbox/definitions.json.

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Bunting, NotAllowedError } from "../index.js";

const repository = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const { values } = parseArgs({
  options: {
    definitions: { type: "string", default: join(repository, "examples", "inbox", "definitions.json") },
    sink: { type: "string" },
    framing: { type: "string", default: "ndjson" },
  },
});

const client = await Bunting.spawn({ storage: ":memory:", definitions: values.definitions, sink: values.sink, framing: values.framing });
try {
  // Subscribe before signing in: signing in refreshes the subscribed channels only.
  const tabs = [];
  for (const [feed, title] of [["inbox", "Inbox"], ["promotions", "Promotions"]]) {
    const subscription = await client.subscribe({ channel: "contentCards", extras: { feed } });
    tabs.push({ feed, title, subscription, snapshot: undefined });
  }
  const [inbox, promotions] = tabs;
  let openTab;

  const cardOf = (tab, id) => tab.snapshot.contentCards.cards.find((card) => card.id === id);
  // Impressions and clicks change no list (no DATA_UPDATED), only `viewed`, `clicked` and the badge.
  const reread = async (tab) => {
    tab.snapshot = await client.getSnapshot({ channel: "contentCards", extras: { feed: tab.feed } });
  };

  /** Prints the tab bar with each feed's unread badge, and the cards of the open tab. */
  const show = (step) => {
    console.log(`== ${step}`);
    console.log(tabs.map((tab) => `[${tab.title} (${tab.snapshot.contentCards.unviewedCount})]`).join(" "));
    if (!openTab) return console.log("");
    // A control card is never shown (its impression is logged all the same).
    const shown = openTab.snapshot.contentCards.cards.filter((card) => !card.isControl);
    if (shown.length === 0) console.log("  (no messages)");
    for (const card of shown) {
      const marks = [card.pinned && "pinned", card.clicked && "opened"].filter(Boolean);
      const text = [card.title, card.description].filter(Boolean).join(" - ");
      console.log(`  ${text}${marks.length > 0 ? ` (${marks.join(", ")})` : ""}`);
    }
    console.log("");
  };

  /** Where a tap leads: the app's own screen when the extras name one, else the web page. */
  const destination = (card) => {
    if (card.extras.deeplink) return `${card.extras.deeplink} in the app`;
    if (card.url) return `${card.url} in the browser`;
    return "nothing";
  };

  const open = async (tab) => {
    openTab = tab;
    const ids = new Set(tab.snapshot.contentCards.cards.map((card) => card.id));
    if (ids.size > 0) await client.logImpression({ channel: "contentCards", ids: [...ids] });
    // ENQUEUED: each impression is stored. The events of every card reach every feed; take this tab's.
    for (let left = ids.size; left > 0; left--) {
      await tab.subscription.waitFor({ type: "IMPRESSION", action: "ENQUEUED", predicate: (event) => ids.has(event.card.id) });
    }
    await reread(tab);
    show(`opens ${tab.title}: ${ids.size} impressions`);
  };

  const tap = async (tab, id) => {
    const card = cardOf(tab, id);
    await client.logClick({ channel: "contentCards", id });
    await tab.subscription.waitFor({ type: "CLICK", action: "ENQUEUED", predicate: (event) => event.card.id === id });
    await reread(tab);
    show(`taps "${card.title}": opens ${destination(card)}`);
  };

  const swipe = async (tab, id) => {
    const card = cardOf(tab, id);
    try {
      await client.logDismiss({ channel: "contentCards", id });
    } catch (error) {
      if (!(error instanceof NotAllowedError)) throw error;
      return show(`swipes "${card.title}": it stays, it cannot be dismissed`);
    }
    const updated = await tab.subscription.waitFor({
      type: "DATA_UPDATED",
      reason: "CLIENT_ACTION",
      predicate: (event) => !event.cacheSnapshot.contentCards.cards.some((listed) => listed.id === id),
    });
    tab.snapshot = updated.cacheSnapshot;
    show(`swipes "${card.title}" away`);
  };

  const signIn = async (userId, attributes) => {
    await client.changeUser({ userId, attributes });
    for (const tab of tabs) tab.snapshot = (await tab.subscription.waitFor({ type: "DATA_UPDATED" })).cacheSnapshot;
    show(`${userId} signs in`);
  };

  const flush = async () => {
    const { flushed, pending } = await client.flush();
    console.log(`== analytics: ${flushed} events delivered, ${pending} waiting${values.sink ? "" : " (no --sink)"}`);
    console.log("");
  };

  await signIn("ada", { openOrders: 1, first_name: "Ada", tier: "silver" });

  await open(inbox);
  await tap(inbox, "inbox-order-shipped");
  await open(promotions);
  await tap(promotions, "promo-free-delivery");
  openTab = inbox; // back on a tab already seen: no new impressions
  await swipe(inbox, "inbox-new-sign-in");
  await swipe(inbox, "inbox-welcome");

  await flush();

  // A gold member: greeted by name, and the lounge card is hers.
  await signIn("grace", { first_name: "Grace", tier: "gold" });
  await open(promotions);
  await flush();
} finally {
  await client.close();
}
