#!/usr/bin/env node
// A carousel of content cards on a home screen: the first four picture cards
// (captionedImage) of the feed whose `extras.feed` is chosen, two on screen
// at a time. An impression is logged as each card first comes into view while
// the user scrolls, and a tap on a card logs a click and opens its `url`.
// After each step it prints the carousel, the cards in view in brackets.
//
//   node examples/carousel/carousel.mjs [--feed home-carousel] [--definitions PATH] [--sink PATH] [--framing lsp]

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Bunting } from "../../clients/node/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    feed: { type: "string", default: "home-carousel" },
    definitions: { type: "string", default: join(here, "definitions.json") },
    sink: { type: "string" },
    framing: { type: "string", default: "ndjson" },
  },
});
const SLOTS = 4;
const IN_VIEW = 2;

const client = await Bunting.spawn({ storage: ":memory:", definitions: values.definitions, sink: values.sink, framing: values.framing });
try {
  // The feed is an extras filter: the subscription's snapshots list only its cards.
  const extras = { feed: values.feed };
  const feed = await client.subscribe({ channel: "contentCards", extras });
  await client.changeUser({ userId: "ada" });
  let listed = (await feed.waitFor({ type: "DATA_UPDATED" })).cacheSnapshot.contentCards.cards;

  const pictures = () => listed.filter((card) => card.type === "captionedImage" && !card.isControl);
  const slots = () => pictures().slice(0, SLOTS);
  let first = 0; // the index of the leftmost card in view
  const seen = new Set(); // cards whose impression this visit of the screen has logged

  const show = (step) => {
    console.log(`== ${step}`);
    console.log(`${values.feed}: ${slots().length} of ${pictures().length} picture cards`);
    const strip = slots().map((card, index) => {
      const label = `${card.title}${card.clicked ? " (opened)" : ""}`;
      return index >= first && index < first + IN_VIEW ? `[${label}]` : label;
    });
    console.log(`  ${strip.join("  ")}`);
    console.log("");
  };

  /** Logs an impression of each card in view that this visit has not logged yet. */
  const logCardsInView = async () => {
    const fresh = slots().slice(first, first + IN_VIEW).filter((card) => !seen.has(card.id));
    if (fresh.length === 0) return [];
    const ids = fresh.map((card) => card.id);
    await client.logImpression({ channel: "contentCards", ids });
    for (const id of ids) {
      await feed.waitFor({ type: "IMPRESSION", action: "ENQUEUED", predicate: (event) => event.card.id === id });
      seen.add(id);
    }
    return fresh;
  };
  const impressions = (fresh) => (fresh.length === 0 ? "no new impressions" : `impressions of ${fresh.map((card) => card.title).join(", ")}`);

  const scroll = async (how, index) => {
    const before = first;
    first = Math.max(0, Math.min(index, slots().length - IN_VIEW));
    const moved = first === before ? "at the end already" : `card ${first + 1} leftmost`;
    show(`scrolls ${how} (${moved}): ${impressions(await logCardsInView())}`);
  };

  const tap = async (id) => {
    const card = slots().find((slot) => slot.id === id);
    await client.logClick({ channel: "contentCards", id });
    await feed.waitFor({ type: "CLICK", action: "ENQUEUED", predicate: (event) => event.card.id === id });
    // A click sets `clicked` without a DATA_UPDATED: read the feed again.
    listed = (await client.getSnapshot({ channel: "contentCards", extras })).contentCards.cards;
    show(`taps "${card.title}": opens ${card.url}`);
  };

  show(`ada opens the home screen: ${impressions(await logCardsInView())}`);
  for (let swipes = 0; swipes < 3; swipes++) await scroll("right", first + 1);
  await scroll("back", 0);
  await tap("boots");

  const { flushed, pending } = await client.flush();
  console.log(`== analytics: ${flushed} events delivered, ${pending} waiting${values.sink ? "" : " (no --sink)"}`);
} finally {
  await client.close();
}
