// What the tests share: the definitions they serve, and a client per test that
// is closed when the test ends, whatever happened in it.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Bunting, findBinary } from "../index.js";

const here = dirname(fileURLToPath(import.meta.url));

export const definitionsPath = (name) => join(here, "definitions", name);
export const basicDefinitions = definitionsPath("basic.json");
export const documentPath = join(here, "..", "..", "..", "schemas", "openrpc.json");
/** The binary under test: BUNTING_BIN, else what `Bunting.spawn` would find. */
export const binary = () => findBinary();

export const FRAMINGS = ["ndjson", "lsp"];

/**
 * Spawns a server on the test definitions, in memory, closed after the test.
 * @param {import("node:test").TestContext} t
 * @param {import("../index.js").SpawnOptions} [options]
 */
export async function spawnClient(t, options = {}) {
  const client = await Bunting.spawn({ storage: ":memory:", definitions: basicDefinitions, callTimeout: 10_000, ...options });
  t.after(() => {
    // A test may have left the server stopped (SIGSTOP).
    if (client.exitInfo === null) {
      try {
        process.kill(client.pid, "SIGCONT");
      } catch {
        // It exited meanwhile.
      }
    }
    return client.close({ timeout: 2_000 });
  });
  return client;
}

/** A temporary directory removed after the test. */
export function temporaryDirectory(t) {
  const directory = mkdtempSync(join(tmpdir(), "bunting-node-"));
  t.after(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

/**
 * Changes user; resolves once every subscription saw its DATA_UPDATED. The waits start
 * first: a subscription with a listener keeps no event for a wait that starts later.
 */
export async function signIn(client, userId, subscriptions, attributes) {
  const updated = subscriptions.map((subscription) => subscription.waitFor({ type: "DATA_UPDATED" }));
  await client.changeUser(attributes ? { userId, attributes } : { userId });
  return Promise.all(updated);
}
