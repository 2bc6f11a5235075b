// examples/inbox.mjs, run as a program under both framings: what it prints
// after each step, and what reached the sink (each impression, click and
// dismissal it printed, once, in order).

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { binary, FRAMINGS, temporaryDirectory } from "./support.mjs";

const example = join(dirname(fileURLToPath(import.meta.url)), "..", "examples", "inbox.mjs");

const inboxCards = [
  "  Welcome to your inbox - Messages from us land here. (pinned)",
  "  Your order is on its way - Parcel 4711 arrives on Thursday.",
  "  New sign-in on a Pixel 9 - Was it you? If not, change your password.",
];
const opened = (line) => `${line} (opened)`;
const expected = [
  "== ada signs in",
  "[Inbox (3)] [Promotions (2)]",
  "",
  "== opens Inbox: 3 impressions",
  "[Inbox (0)] [Promotions (2)]",
  ...inboxCards,
  "",
  '== taps "Your order is on its way": opens bunting://orders/4711 in the app',
  "[Inbox (0)] [Promotions (2)]",
  inboxCards[0],
  opened(inboxCards[1]),
  inboxCards[2],
  "",
  "== opens Promotions: 2 impressions",
  "[Inbox (0)] [Promotions (0)]",
  "  Winter sale: 30% off coats",
  "  Free delivery this weekend - On every order over €20.",
  "",
  '== taps "Free delivery this weekend": opens https://shop.bunting.example/delivery in the browser',
  "[Inbox (0)] [Promotions (0)]",
  "  Winter sale: 30% off coats",
  opened("  Free delivery this weekend - On every order over €20."),
  "",
  '== swipes "New sign-in on a Pixel 9" away',
  "[Inbox (0)] [Promotions (0)]",
  inboxCards[0],
  opened(inboxCards[1]),
  "",
  '== swipes "Welcome to your inbox": it stays, it cannot be dismissed',
  "[Inbox (0)] [Promotions (0)]",
  inboxCards[0],
  opened(inboxCards[1]),
  "",
];

const run = (args) =>
  promisify(execFile)(process.execPath, [example, ...args], { env: { ...process.env, BUNTING_BIN: binary() }, timeout: 60_000 });

describe("examples/inbox.mjs", () => {
  for (const framing of FRAMINGS) {
    it(`prints each step's screen and delivers each event once (${framing})`, async (t) => {
      const sink = join(temporaryDirectory(t), "events.ndjson");
      const { stdout } = await run(["--framing", framing, "--sink", sink]);
      assert.deepEqual(stdout.split("\n"), [...expected, "== analytics: 8 events delivered, 0 waiting", ""]);
      const events = readFileSync(sink, "utf8").trim().split("\n").map((line) => JSON.parse(line));
      assert.deepEqual(
        events.map((event) => `${event.kind} ${event.itemId}`),
        [
          "impression inbox-welcome",
          "impression inbox-order-shipped",
          "impression inbox-new-sign-in",
          "click inbox-order-shipped",
          "impression promo-winter-sale",
          "impression promo-free-delivery",
          "click promo-free-delivery",
          "dismiss inbox-new-sign-in",
        ],
      );
      assert.equal(new Set(events.map((event) => event.eventId)).size, 8);
      assert.ok(events.every((event) => event.userId === "ada" && event.channel === "contentCards"));
    });
  }

  it("keeps the events waiting without a sink", async () => {
    const { stdout } = await run([]);
    assert.deepEqual(stdout.split("\n"), [...expected, "== analytics: 0 events delivered, 8 waiting (no --sink)", ""]);
  });
});
