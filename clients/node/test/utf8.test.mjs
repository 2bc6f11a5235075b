// Multi-byte UTF-8 through real pipes: LSP's Content-Length counts bytes, and
// characters split across pipe reads arrive whole. NDJSON alongside.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FRAMINGS, signIn, spawnClient } from "./support.mjs";

// 4-, 3- and 2-byte characters, a combining mark, and text that JavaScript counts in UTF-16 units.
const mixed = "🦊 こんにちは ça va? Zoë e\u0301 — ✓ 𝄞";

for (const framing of FRAMINGS) {
  describe(`multi-byte UTF-8 over ${framing}`, () => {
    it("reaches the server intact: a user id with multi-byte characters matches its targeting", async (t) => {
      const client = await spawnClient(t, { framing });
      const flags = await client.subscribe({ channel: "featureFlags" });
      const [updated] = await signIn(client, "zoë-🦊", [flags], { note: mixed });
      assert.equal(updated.cacheSnapshot.featureFlags.find((flag) => flag.id === "beta").enabled, true);
      assert.equal((await client.status()).userId, "zoë-🦊");
      assert.deepEqual(await client.evaluate({ rule: { var: "note" }, data: { note: mixed } }), { result: mixed });
    });

    it("comes back intact in replies larger than a pipe's buffer", async (t) => {
      const client = await spawnClient(t, { framing });
      const large = `${"🦊".repeat(40_000)}${"é".repeat(40_000)}${mixed}${"ー".repeat(40_000)}`;
      assert.ok(Buffer.byteLength(large) > 4 * 65_536);
      const { result } = await client.evaluate({ rule: { cat: [{ var: "s" }, "!"] }, data: { s: large } });
      assert.equal(result, `${large}!`);
    });

    it("keeps pipelined calls apart, each reply matched to its call", async (t) => {
      const client = await spawnClient(t, { framing });
      const texts = Array.from({ length: 300 }, (_, i) => `${mixed.repeat(i % 17)}#${i}`);
      const results = await Promise.all(texts.map((text) => client.evaluate({ rule: { var: "t" }, data: { t: text } })));
      assert.deepEqual(results.map((reply) => reply.result), texts);
    });

    it("reads multi-byte values the server sends in events", async (t) => {
      const client = await spawnClient(t, { framing });
      const banners = await client.subscribe({ channel: "banners" });
      const [updated] = await signIn(client, "ada", [banners]);
      assert.equal(updated.cacheSnapshot.banners["home-top"].html, "<p>Hello Ada — ünïcödé ✓</p>");
      const resolved = await client.evaluateFlag({ flagKey: "greeting", context: { targetingKey: "🦊", locale: "ja" } });
      assert.equal(resolved.value, "こんにちは 👋 — ça va?");
    });
  });
}
