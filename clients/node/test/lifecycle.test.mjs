// Starting and ending the server: where the binary is found, how options become
// flags, close() with a server that exits and one that does not, a server that
// dies under pending calls, call deadlines, and stderr kept drained.

import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BuntingBinaryNotFoundError, BuntingClosedError, BuntingError, BuntingTimeoutError, findBinary } from "../index.js";
import { serveArguments } from "../lib/serve-arguments.js";
import { binary, spawnClient, temporaryDirectory } from "./support.mjs";

describe("finding the binary", () => {
  it("takes the option, then BUNTING_BIN, then the PATH, then .build/release/bunting here or above", (t) => {
    const root = temporaryDirectory(t);
    const real = binary();
    for (const directory of ["opt", "env", "path", ".build/release", "a/b/c"]) mkdirSync(join(root, directory), { recursive: true });
    for (const directory of ["opt", "env", "path", ".build/release"]) symlinkSync(real, join(root, directory, "bunting"));
    const cwd = join(root, "a", "b", "c");
    const everything = { binary: join(root, "opt", "bunting"), env: { BUNTING_BIN: join(root, "env", "bunting"), PATH: join(root, "path") }, cwd };
    assert.equal(findBinary(everything), join(root, "opt", "bunting"));
    assert.equal(findBinary({ ...everything, binary: undefined }), join(root, "env", "bunting"));
    assert.equal(findBinary({ ...everything, binary: undefined, env: { PATH: join(root, "path") } }), join(root, "path", "bunting"));
    assert.equal(findBinary({ cwd, env: { PATH: join(root, "opt", "missing") } }), join(root, ".build", "release", "bunting"));
  });

  it("says where it looked, and never passes over a wrong explicit choice", (t) => {
    const root = temporaryDirectory(t);
    const error = (() => {
      try {
        findBinary({ cwd: root, env: { PATH: join(root, "nothing") } });
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof BuntingBinaryNotFoundError);
    assert.ok(error.searched.includes(join(root, "nothing", "bunting")));
    assert.ok(error.searched.includes(join(root, ".build", "release", "bunting")));
    assert.throws(() => findBinary({ env: { BUNTING_BIN: join(root, "nope"), PATH: process.env.PATH } }), BuntingBinaryNotFoundError);
  });

  it("spawns the binary found in a parent's .build/release", async (t) => {
    const root = temporaryDirectory(t);
    mkdirSync(join(root, ".build", "release"), { recursive: true });
    mkdirSync(join(root, "sub"));
    symlinkSync(binary(), join(root, ".build", "release", "bunting"));
    const client = await spawnClient(t, { cwd: join(root, "sub"), env: { PATH: "/nonexistent" } });
    assert.equal(client.command[0], join(root, ".build", "release", "bunting"));
    assert.equal((await client.status()).version.length > 0, true);
  });
});

describe("server options", () => {
  it("become bunting serve flags", () => {
    const args = serveArguments(
      {
        definitions: "d.json",
        pollInterval: 2,
        header: ["Authorization: Bearer t", "X-Team: growth"],
        logLevel: "debug",
        someNewSwitch: true,
        notThisOne: false,
        absent: undefined,
        callTimeout: 5,
        binary: "/x",
        args: ["--extra", "1"],
      },
      "lsp",
    );
    assert.deepEqual(args, [
      "serve", "--framing", "lsp",
      "--definitions", "d.json",
      "--poll-interval", "2",
      "--header", "Authorization: Bearer t", "--header", "X-Team: growth",
      "--log-level", "debug",
      "--some-new-switch",
      "--extra", "1",
    ]);
    assert.throws(() => serveArguments({ pollInterval: { seconds: 2 } }, "ndjson"), TypeError);
  });

  it("reach the server", async (t) => {
    const client = await spawnClient(t, { header: ["X-Test: 1"], pollInterval: 7, logLevel: "info" });
    assert.ok(client.command.includes("--poll-interval"));
    assert.equal((await client.status()).framing, "ndjson");
  });

  it("that the server refuses end it, and calls say why with its stderr", async (t) => {
    const client = await spawnClient(t, { noSuchOption: "x" });
    const error = await client.status().catch((e) => e);
    assert.ok(error instanceof BuntingClosedError, String(error));
    assert.equal(error.exitCode, 64);
    assert.match(error.message, /exited with status 64/);
    assert.match(error.stderr.join("\n"), /no-such-option/);
    assert.match(error.message, /no-such-option/);
  });
});

describe("close()", () => {
  it("shuts the server down, and is the same promise when called again", async (t) => {
    const client = await spawnClient(t);
    await client.status();
    const closing = client.close();
    assert.equal(client.close(), closing);
    assert.deepEqual(await closing, { exitCode: 0, signal: null, killed: false });
    assert.equal(client.closed, true);
    await assert.rejects(client.status(), (e) => e instanceof BuntingClosedError && /closed/.test(e.message));
  });

  it("kills a server that does not exit within the timeout", async (t) => {
    const client = await spawnClient(t);
    await client.status();
    // A stopped process answers nothing and exits on nothing but SIGKILL.
    process.kill(client.pid, "SIGSTOP");
    const pending = client.status({}, { timeout: Infinity });
    const started = Date.now();
    const exit = await client.close({ timeout: 300 });
    assert.deepEqual(exit, { exitCode: null, signal: "SIGKILL", killed: true });
    assert.ok(Date.now() - started >= 290, `closed after ${Date.now() - started} ms`);
    const error = await pending.catch((e) => e);
    assert.ok(error instanceof BuntingClosedError);
    assert.match(error.message, /did not exit in time/);
  });

  it("runs on Symbol.asyncDispose where Node has it", { skip: typeof Symbol.asyncDispose !== "symbol" && "no Symbol.asyncDispose in this Node" }, async (t) => {
    const client = await spawnClient(t);
    await client[Symbol.asyncDispose]();
    assert.deepEqual(await client.exited, { exitCode: 0, signal: null, killed: false });
  });
});

describe("a server that dies", () => {
  it("rejects the pending calls with its last stderr lines", async (t) => {
    const client = await spawnClient(t, { logLevel: "debug" });
    await client.status();
    // The server logs from a thread of its own, so its first reply can come
    // before its "serving" line: wait for the line before stopping it.
    await new Promise((resolve, reject) => {
      if (client.stderrLines.some((line) => line.includes("serving"))) return resolve();
      const timer = setTimeout(() => reject(new Error("no 'serving' line on stderr within 5 s")), 5000);
      client.on("stderr", function seen(line) {
        if (!line.includes("serving")) return;
        clearTimeout(timer);
        client.off("stderr", seen);
        resolve();
      });
    });
    process.kill(client.pid, "SIGSTOP");
    const pending = [client.status(), client.getFeatureFlag({ id: "beta" })];
    process.kill(client.pid, "SIGKILL");
    for (const call of pending) {
      const error = await call.catch((e) => e);
      assert.ok(error instanceof BuntingClosedError, String(error));
      assert.ok(!(error instanceof BuntingError));
      assert.equal(error.signal, "SIGKILL");
      assert.match(error.message, /killed by SIGKILL/);
      assert.ok(error.stderr.some((line) => line.includes("serving")), error.stderr.join("\n"));
      assert.match(error.message, /serving/);
    }
    assert.equal((await client.exited).signal, "SIGKILL");
  });

  it("on a storage directory in use says so", async (t) => {
    const storage = temporaryDirectory(t);
    const first = await spawnClient(t, { storage });
    await first.status();
    const second = await spawnClient(t, { storage });
    const error = await second.status().catch((e) => e);
    assert.ok(error instanceof BuntingClosedError);
    assert.equal(error.exitCode, 1);
    assert.match(error.message, new RegExp(String(first.pid)));
  });
});

describe("call deadlines", () => {
  it("reject a call with BuntingTimeoutError, and the client goes on", async (t) => {
    const client = await spawnClient(t);
    process.kill(client.pid, "SIGSTOP");
    const started = Date.now();
    const error = await client.status({}, { timeout: 100 }).catch((e) => e);
    assert.ok(error instanceof BuntingTimeoutError, String(error));
    assert.ok(!(error instanceof BuntingError));
    assert.equal(error.method, "status");
    assert.equal(error.timeout, 100);
    assert.ok(Date.now() - started >= 95);
    process.kill(client.pid, "SIGCONT");
    // The late reply is dropped; the next call gets its own.
    assert.deepEqual(await client.evaluate({ rule: { "+": [1, 2] } }), { result: 3 });
  });

  it("default to callTimeout, which a call may lift", async (t) => {
    const client = await spawnClient(t, { callTimeout: 120 });
    process.kill(client.pid, "SIGSTOP");
    const quick = client.status();
    const patient = client.status({}, { timeout: Infinity });
    await assert.rejects(quick, (e) => e instanceof BuntingTimeoutError && e.timeout === 120);
    process.kill(client.pid, "SIGCONT");
    assert.equal((await patient).userId, null);
  });

  it("each expire on time, a short one made after a long one included", async (t) => {
    const client = await spawnClient(t);
    process.kill(client.pid, "SIGSTOP");
    const started = Date.now();
    const long = client.status({}, { timeout: 3_000 });
    const short = client.status({}, { timeout: 100 }).catch((e) => e);
    const middle = client.status({}, { timeout: 250 }).catch((e) => e);
    const shortError = await short;
    const shortAfter = Date.now() - started;
    const middleError = await middle;
    const middleAfter = Date.now() - started;
    assert.ok(shortError instanceof BuntingTimeoutError && shortError.timeout === 100);
    assert.ok(middleError instanceof BuntingTimeoutError && middleError.timeout === 250);
    // Not held back until the long one's deadline.
    assert.ok(shortAfter >= 95 && shortAfter < 2_500, `short one after ${shortAfter} ms`);
    assert.ok(middleAfter >= 245 && middleAfter < 2_500, `middle one after ${middleAfter} ms`);
    process.kill(client.pid, "SIGCONT");
    assert.equal((await long).userId, null);
  });

  it("undo a subscription whose reply came too late", async (t) => {
    const client = await spawnClient(t);
    const flags = await client.subscribe({ channel: "featureFlags" });
    process.kill(client.pid, "SIGSTOP");
    await assert.rejects(client.subscribe({ channel: "featureFlags" }, { timeout: 50 }), BuntingTimeoutError);
    const orphans = [];
    const lateReply = new Promise((resolve) => {
      client.on("event", (event, subscription) => {
        if (subscription !== undefined) return;
        orphans.push(event);
        resolve();
      });
    });
    process.kill(client.pid, "SIGCONT");
    // Its replay follows the late reply, upon which the client sent removeSubscription.
    await lateReply;
    await client.changeUser({ userId: "ada" });
    await flags.waitFor({ type: "DATA_UPDATED" });
    // Only the replay that came with the late reply; no CACHE_LOAD: it was removed.
    assert.deepEqual(orphans.map((event) => event.type), ["CACHE_REPLAY"]);
    assert.equal(client.subscriptions.size, 1);
  });

  it("stop at an aborted signal", async (t) => {
    const client = await spawnClient(t);
    process.kill(client.pid, "SIGSTOP");
    const controller = new AbortController();
    const call = client.status({}, { signal: controller.signal });
    controller.abort(new Error("user went away"));
    await assert.rejects(call, /user went away/);
  });

  it("refuse params that are not an object", async (t) => {
    const client = await spawnClient(t);
    await assert.rejects(client.call("changeUser", ["ada"]), TypeError);
    await assert.rejects(client.getFeatureFlag("beta"), TypeError);
  });
});

describe("stderr", () => {
  it("is drained: a server logging far more than a pipe holds keeps answering", async (t) => {
    const client = await spawnClient(t, { logLevel: "debug", stderrLines: 5 });
    let lines = 0;
    client.on("stderr", () => lines++);
    // Each failing notification logs a debug line of about 300 bytes: 2.4 MB in all. (A known
    // method with an unknown param: an unknown method's did-you-mean costs time that grows with
    // the name's length, which is not what this test is about.)
    const param = `no_such_param_${"x".repeat(200)}`;
    for (let i = 0; i < 8000; i++) client.notify("status", { [param]: i });
    assert.equal((await client.status({}, { timeout: 20_000 })).userId, null);
    await client.close();
    assert.ok(lines >= 8000, `${lines} lines`);
    assert.equal(client.stderrLines.length, 5);
    assert.ok(client.stderrLines.some((line) => line.includes("no_such_param")), client.stderrLines.join("\n"));
  });
});
