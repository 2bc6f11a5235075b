#!/usr/bin/env node
// One banner placement, `home-top`, on a home screen. The banner that fills it
// is rendered from its html (here as text, its buttons in brackets); showing
// it logs an impression, a tap on a button a click with that button's id, and
// the close button dismisses it. A dismissed banner never comes back for this
// user: the placement stays empty until a refresh finds another banner for it.
// After each step it prints what the placement shows.
//
//   node examples/banner/banner.mjs [--definitions PATH] [--sink PATH] [--framing lsp]

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Bunting } from "../../clients/node/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    definitions: { type: "string", default: join(here, "definitions.json") },
    sink: { type: "string" },
    framing: { type: "string", default: "ndjson" },
  },
});
const PLACEMENT = "home-top";

/** The banner's buttons: `<a data-button-id="…" href="…">label</a>`. */
const buttons = (html) =>
  [...html.matchAll(/<a data-button-id="([^"]*)" href="([^"]*)">([^<]*)<\/a>/g)].map(([, id, href, label]) => ({ id, href, label }));

/** A text rendering of the html: headings and paragraphs, then the buttons in brackets. */
const render = (html) => {
  const text = [...html.matchAll(/<(h2|p)>([^<]*)<\/\1>/g)].map(([, , content]) => content);
  return [...text, ...buttons(html).map((button) => `[${button.label}]`)].join(" | ");
};

const client = await Bunting.spawn({ storage: ":memory:", definitions: values.definitions, sink: values.sink, framing: values.framing });
try {
  const banners = await client.subscribe({ channel: "banners" });
  let banner = null;

  const show = (step) => {
    console.log(`== ${step}`);
    // A control banner (empty html) holds the place without being shown.
    if (!banner || banner.isControl) console.log(`  ${PLACEMENT}: (empty: the screen closes the gap)`);
    else console.log(`  ${PLACEMENT}: ${render(banner.html)} (${banner.properties.theme?.value ?? "default"} theme)`);
    console.log("");
  };

  /** Shows what fills the placement after a refresh, logging its impression if a banner is shown. */
  const fill = async (step) => {
    banner = await client.getBanner({ placementId: PLACEMENT });
    if (banner) {
      await client.logImpression({ channel: "banners", id: PLACEMENT });
      await banners.waitFor({ type: "IMPRESSION", action: "ENQUEUED", predicate: (event) => event.banner.id === banner.id });
      step += `, impression of ${banner.id}`;
    }
    show(step);
  };

  const tap = async (buttonId) => {
    const button = buttons(banner.html).find((candidate) => candidate.id === buttonId);
    await client.logClick({ channel: "banners", id: PLACEMENT, buttonId });
    await banners.waitFor({ type: "CLICK", action: "ENQUEUED", predicate: (event) => event.buttonId === buttonId });
    show(`taps [${button.label}]: click with buttonId ${buttonId}, the app opens ${button.href}`);
  };

  const close = async () => {
    const closed = banner;
    await client.logDismiss({ channel: "banners", id: PLACEMENT });
    const updated = await banners.waitFor({ type: "DATA_UPDATED", reason: "CLIENT_ACTION" });
    banner = updated.cacheSnapshot.banners[PLACEMENT] ?? null;
    show(`closes ${closed.id}: dismissed`);
  };

  /** The app changed what the targeting looks at: refresh the placement and show what fills it now. */
  const cartChanged = async (cartValue, step) => {
    await client.setUserAttributes({ attributes: { cartValue } });
    await client.refresh({ channel: "banners", placementIds: [PLACEMENT] });
    await banners.waitFor({ type: "DATA_UPDATED", reason: "MANUAL_SERVER_REFRESH" });
    await fill(`${step}: ${PLACEMENT} refreshed`);
  };

  await client.changeUser({ userId: "ada", attributes: { cartValue: 0 } });
  await banners.waitFor({ type: "DATA_UPDATED", reason: "AUTO_SERVER_REFRESH" });
  await fill("ada opens the home screen");
  await tap("shop");
  await close();
  await cartChanged(35, "ada puts €35 of boots in her cart");
  await cartChanged(0, "ada empties her cart (spring-sale stays dismissed)");

  const { flushed, pending } = await client.flush();
  console.log(`== analytics: ${flushed} events delivered, ${pending} waiting${values.sink ? "" : " (no --sink)"}`);
} finally {
  await client.close();
}
