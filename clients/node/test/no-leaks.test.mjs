// No leaks, no hangs: a subscription that only has listeners keeps no event, a
// listener never hears an event twice, and a program that forgets close() still
// exits (and its server with it, flushing what it was given).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { basicDefinitions, binary, signIn, spawnClient, temporaryDirectory } from "./support.mjs";

const clientModule = fileURLToPath(new URL("../index.js", import.meta.url));

describe("a subscription with a listener", () => {
  it("keeps no event for anyone else", async (t) => {
    const client = await spawnClient(t);
    const cards = await client.subscribe({ channel: "contentCards" });
    const heard = [];
    cards.on("event", (event) => heard.push(event.type));
    for (let i = 0; i < 20; i++) {
      const updated = cards.waitFor({ type: "DATA_UPDATED" });
      await client.changeUser({ userId: `user-${i}` });
      await updated;
    }
    await client.status();
    assert.equal(heard.filter((type) => type === "DATA_UPDATED").length, 20);
    assert.equal(heard.filter((type) => type === "CACHE_LOAD").length, 20);
    // Every event went to the listener; none waits in memory for a taker.
    assert.equal(cards.bufferedCount, 0);
    assert.deepEqual(cards.takeBuffered(), []);
  });

  it("still keeps what came before the first listener, for that listener alone", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    await client.status();
    assert.equal(flags.bufferedCount, 1);
    const heard = [];
    flags.on("event", (event) => heard.push(event.type));
    await client.status();
    assert.deepEqual(heard, ["CACHE_REPLAY"]);
    assert.equal(flags.bufferedCount, 0, "handed over, not kept as well");
  });
});

describe("a listener", () => {
  it("never hears an event a waiter took before it was added", async (t) => {
    const client = await spawnClient(t);
    const definitions = await client.subscribeToDefinitions();
    const ready = await definitions.waitFor({ type: "READY" });
    assert.equal(ready.type, "READY");
    const heard = [];
    definitions.on("event", (event) => heard.push(event));
    await client.status();
    await client.status();
    assert.deepEqual(heard, []);
  });

  it("hears each event once when a waiter takes it too", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    const heard = [];
    flags.on("event", (event) => heard.push(event.type));
    await signIn(client, "ada", [flags]);
    await client.status();
    assert.deepEqual(heard, ["CACHE_REPLAY", "CACHE_LOAD", "DATA_UPDATED"]);
  });
});

/** Runs a Node program; resolves to its exit status once it exits, or null if it has not within `timeout` ms. */
function runProgram(source, timeout) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", source], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ status: null, output });
    }, timeout);
    child.once("error", reject);
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** Resolves once `check()` holds, looking again every few milliseconds; rejects after `timeout` ms. */
async function eventually(check, timeout, what) {
  const deadline = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeout} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("a program that never closes its client", () => {
  it("exits once nothing else keeps it alive, and its server ends too", async (t) => {
    const directory = temporaryDirectory(t);
    const sink = join(directory, "events.ndjson");
    const source = `
      import { Bunting } from ${JSON.stringify(clientModule)};
      const client = await Bunting.spawn({ binary: ${JSON.stringify(binary())}, storage: ":memory:",
        definitions: ${JSON.stringify(basicDefinitions)}, sink: ${JSON.stringify(sink)}, flushInterval: 3600 });
      const flags = await client.subscribe({ channel: "featureFlags" });
      flags.on("event", () => {});
      await client.track({ name: "forgot-to-close", userId: "grace" });
      console.log("pid", client.pid);
    `;
    const { status, output } = await runProgram(source, 15_000);
    assert.equal(status, 0, `the program did not exit by itself: ${output}`);
    assert.match(output, /^pid \d+/);
    // Its end of input is the server's shutdown: the event it was given is flushed.
    await eventually(() => existsSync(sink) && readFileSync(sink, "utf8").includes("forgot-to-close"), 15_000, "the event at the sink");
    const [line] = readFileSync(sink, "utf8").trim().split("\n").map((text) => JSON.parse(text));
    assert.equal(line.userId, "grace");
  });

  it("stays alive while a call or a wait is pending", async () => {
    const source = `
      import { Bunting } from ${JSON.stringify(clientModule)};
      const client = await Bunting.spawn({ binary: ${JSON.stringify(binary())}, storage: ":memory:",
        definitions: ${JSON.stringify(basicDefinitions)} });
      const flags = await client.subscribe({ channel: "featureFlags" });
      await flags.waitFor({ type: "CACHE_REPLAY" });
      // Nothing but this wait keeps the process alive until the server's answer comes.
      const updated = flags.waitFor({ type: "DATA_UPDATED" });
      client.changeUser({ userId: "ada" });
      console.log((await updated).type);
    `;
    const { status, output } = await runProgram(source, 15_000);
    assert.equal(status, 0, output);
    assert.equal(output.trim(), "DATA_UPDATED");
  });
});
