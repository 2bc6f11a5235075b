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
// The screens and events are the Python inbox's: both programs show the same
// inbox, its cards rendered for each user (Ada by name; Grace, a gold member,
// also sees the lounge card that abort_message hides from Ada).
const shared = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "examples", "inbox");
const expected = readFileSync(join(shared, "expected-output.txt"), "utf8");
// `KIND CHANNEL ITEM user=USER session=N`, one line an event.
const expectedEvents = readFileSync(join(shared, "expected-sink.txt"), "utf8").trim().split("\n")
  .map((line) => line.split(" "))
  .map(([kind, channel, itemId, user]) => ({ kind, channel, itemId, userId: user.slice("user=".length) }));

const run = (args) =>
  promisify(execFile)(process.execPath, [example, ...args], { env: { ...process.env, BUNTING_BIN: binary() }, timeout: 60_000 });

describe("examples/inbox.mjs", () => {
  for (const framing of FRAMINGS) {
    it(`prints each step's screen and delivers each event once (${framing})`, async (t) => {
      const sink = join(temporaryDirectory(t), "events.ndjson");
      const { stdout } = await run(["--framing", framing, "--sink", sink]);
      assert.equal(stdout, expected);
      const events = readFileSync(sink, "utf8").trim().split("\n").map((line) => JSON.parse(line));
      assert.deepEqual(
        events.map(({ kind, channel, itemId, userId }) => ({ kind, channel, itemId, userId })),
        expectedEvents,
      );
      assert.equal(new Set(events.map((event) => event.eventId)).size, expectedEvents.length);
    });
  }

  it("keeps the events waiting without a sink", async () => {
    const { stdout } = await run([]);
    // Each flush delivers nothing and says so; the rest of the screens are the same.
    let waiting = 0;
    const withoutSink = expected.replace(/== analytics: (\d+) events delivered, 0 waiting/g, (_, delivered) => {
      waiting += Number(delivered);
      return `== analytics: 0 events delivered, ${waiting} waiting (no --sink)`;
    });
    assert.ok(waiting > 0);
    assert.equal(stdout, withoutSink);
  });
});
