// Two channels' DATA_UPDATED after each changeUser, none lost whatever order
// they arrive in: the example program, 200 user changes under each framing, and
// the same in-process with the waits made in both orders.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { basicDefinitions, binary, FRAMINGS, spawnClient } from "./support.mjs";

const example = join(dirname(fileURLToPath(import.meta.url)), "..", "examples", "two-channels.mjs");
const ITERATIONS = 200;

/** What each user sees in test/definitions/basic.json. */
const expected = {
  ada: { featureFlags: "beta", contentCards: "house-rules,ada-only,welcome" },
  bob: { featureFlags: "-", contentCards: "house-rules,welcome" },
};

describe("examples/two-channels.mjs", () => {
  for (const framing of FRAMINGS) {
    it(`prints both channels' DATA_UPDATED for ${ITERATIONS} user changes (${framing})`, async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [example, "--iterations", String(ITERATIONS), "--users", "ada,bob", "--definitions", basicDefinitions, "--framing", framing],
        { env: { ...process.env, BUNTING_BIN: binary() }, timeout: 120_000 },
      );
      const lines = stdout.trim().split("\n");
      assert.equal(lines.length, 2 * ITERATIONS);
      const seen = new Map();
      for (const line of lines) {
        const [iteration, userId, channel, type, reason, ids] = line.split(" ");
        assert.equal(type, "DATA_UPDATED", line);
        assert.equal(reason, "AUTO_SERVER_REFRESH", line);
        assert.equal(userId, Number(iteration) % 2 === 0 ? "ada" : "bob", line);
        assert.equal(ids, expected[userId][channel], line);
        const key = `${iteration} ${channel}`;
        assert.ok(!seen.has(key), `twice: ${key}`);
        seen.set(key, line);
      }
      for (let iteration = 0; iteration < ITERATIONS; iteration++) {
        assert.ok(seen.has(`${iteration} featureFlags`) && seen.has(`${iteration} contentCards`), `iteration ${iteration}`);
      }
    });
  }
});

describe("two channels in-process", () => {
  it(`waiting for one channel first, then the other, in turn, loses neither (${ITERATIONS} user changes)`, async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    const cards = await client.subscribe({ channel: "contentCards" });
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const userId = iteration % 2 === 0 ? "ada" : "bob";
      await client.changeUser({ userId });
      const order = iteration % 4 < 2 ? [flags, cards] : [cards, flags];
      const events = [];
      for (const subscription of order) events.push(await subscription.waitFor({ type: "DATA_UPDATED", timeout: 5_000 }));
      const byChannel = Object.fromEntries(events.map((event) => [event.channel, event]));
      assert.equal(byChannel.featureFlags.cacheSnapshot.featureFlags.find((flag) => flag.id === "beta").enabled, userId === "ada");
      assert.equal(byChannel.contentCards.cacheSnapshot.contentCards.cards.some((card) => card.id === "ada-only"), userId === "ada");
    }
  });

  it(`the client-wide waitFor by channel, in both orders, loses neither (${ITERATIONS} user changes)`, async (t) => {
    const client = await spawnClient(t);
    await client.subscribe({ channel: "featureFlags" });
    await client.subscribe({ channel: "contentCards" });
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      await client.changeUser({ userId: `user-${iteration}` });
      const channels = iteration % 2 === 0 ? ["contentCards", "featureFlags"] : ["featureFlags", "contentCards"];
      for (const channel of channels) {
        const event = await client.waitFor({ type: "DATA_UPDATED", channel, timeout: 5_000 });
        assert.equal(event.channel, channel);
      }
    }
  });
});
