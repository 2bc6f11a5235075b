// Error replies become BuntingError subclasses by `data.reason`: every error of
// the document, and the ones the real server gives for real mistakes.

import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  BuntingError,
  BuntingTimeoutError,
  ChannelDisabledError,
  errorClassByReason,
  errorFromReply,
  InvalidParamsError,
  InvalidRequestError,
  InvalidRuleError,
  MethodNotFoundError,
  NotAllowedError,
  NotFoundError,
  NotSyncedError,
  ParseError,
  SDKDisabledError,
  ShuttingDownError,
  TemplateError,
} from "../index.js";
import { binary, definitionsPath, documentPath, signIn, spawnClient, temporaryDirectory } from "./support.mjs";

const document = JSON.parse(readFileSync(documentPath, "utf8"));

describe("error classes", () => {
  for (const [name, error] of Object.entries(document.components.errors)) {
    it(`${name} (${error.data.reason}) becomes its class, with code, message, data and reason`, () => {
      const made = errorFromReply(error, "someMethod");
      assert.ok(made instanceof BuntingError);
      assert.ok(made instanceof Error);
      assert.equal(made.constructor, errorClassByReason[error.data.reason]);
      assert.notEqual(made.constructor, BuntingError);
      assert.equal(made.name, made.constructor.name);
      assert.equal(made.code, error.code);
      assert.equal(made.message, error.message);
      assert.deepEqual(made.data, error.data);
      assert.equal(made.reason, error.data.reason);
      assert.equal(made.method, "someMethod");
    });
  }

  it("gives a reason it does not know the class of its code, and an unknown code the base class", () => {
    assert.ok(errorFromReply({ code: -32602, message: "m", data: { reason: "SOMETHING_NEW" } }) instanceof InvalidParamsError);
    assert.ok(errorFromReply({ code: -32700, message: "m" }) instanceof ParseError);
    assert.ok(errorFromReply({ code: -32600, message: "m", data: { reason: "BATCH_TOO_LARGE" } }) instanceof InvalidRequestError);
    const plain = errorFromReply({ code: -32050, message: "m", data: { reason: "SOMETHING_NEW" } });
    assert.equal(plain.constructor, BuntingError);
    assert.equal(plain.reason, "SOMETHING_NEW");
    assert.equal(errorFromReply({ code: -32050, message: "m" }).reason, undefined);
  });

  it("keeps a timeout apart from the server's errors", () => {
    const timeout = new BuntingTimeoutError("status", 10, { method: "status" });
    assert.ok(!(timeout instanceof BuntingError));
    assert.equal(timeout.code, "ETIMEDOUT");
  });
});

describe("errors of the real server", () => {
  it("INVALID_PARAMS names the field", async (t) => {
    const client = await spawnClient(t);
    const error = await client.changeUser({ attributes: {} }).catch((e) => e);
    assert.ok(error instanceof InvalidParamsError, String(error));
    assert.equal(error.code, -32602);
    assert.equal(error.data.field, "userId");
    assert.equal(error.method, "changeUser");
    await assert.rejects(client.logClick({ channel: "featureFlags", id: "beta" }), (e) => e instanceof InvalidParamsError && e.data.field === "channel");
    await assert.rejects(client.status({ verbose: true }), InvalidParamsError);
  });

  it("METHOD_NOT_FOUND names the method, and the one it likely meant", async (t) => {
    const client = await spawnClient(t);
    const slip = await client.call("sattus").catch((e) => e);
    assert.ok(slip instanceof MethodNotFoundError, String(slip));
    assert.equal(slip.code, -32601);
    assert.equal(slip.data.method, "sattus");
    assert.equal(slip.data.suggestion, "status");
    const unlike = await client.call("frobnicate").catch((e) => e);
    assert.ok(unlike instanceof MethodNotFoundError);
    assert.equal(unlike.data.suggestion, undefined);
  });

  it("NOT_FOUND and NOT_ALLOWED for cards that are missing or not dismissible", async (t) => {
    const client = await spawnClient(t);
    const cards = await client.subscribe({ channel: "contentCards" });
    await signIn(client, "bob", [cards]);
    await assert.rejects(client.logDismiss({ channel: "contentCards", id: "ada-only" }), (e) => e instanceof NotFoundError && e.reason === "NOT_FOUND");
    await assert.rejects(client.logDismiss({ channel: "contentCards", id: "house-rules" }), (e) => e instanceof NotAllowedError && e.code === -32003);
  });

  it("a template that gives no text is a TemplateError with its place in the template", async (t) => {
    const client = await spawnClient(t);
    assert.deepEqual(await client.renderTemplate({ template: "Hi {{${first_name}}}!", attributes: { first_name: "Ada" } }), { text: "Hi Ada!" });
    assert.deepEqual(await client.renderTemplate({ template: "{{ xs | join: '+' }}", data: { xs: [1, 2] } }), { text: "1+2" });
    const aborted = await client.renderTemplate({ template: "a\n{% abort_message('not today') %}", data: {} }).catch((e) => e);
    assert.ok(aborted instanceof TemplateError, String(aborted));
    assert.equal(aborted.code, -32012);
    assert.equal(aborted.reason, "TEMPLATE_ABORTED");
    assert.deepEqual([aborted.data.line, aborted.data.column, aborted.data.abortMessage], [2, 1, "not today"]);
    await assert.rejects(client.renderTemplate({ template: "{% bogus %}" }), (e) => e instanceof TemplateError && e.reason === "INVALID_TEMPLATE");
  });

  it("SDK_DISABLED while the SDK is off", async (t) => {
    const client = await spawnClient(t);
    await client.disableSDK();
    await assert.rejects(client.changeUser({ userId: "ada" }), (e) => e instanceof SDKDisabledError && e.data.method === "changeUser");
  });

  it("INVALID_RULE for a rule that does not compile", async (t) => {
    const client = await spawnClient(t);
    await assert.rejects(client.evaluate({ rule: { bogus: [1] } }), (e) => e instanceof InvalidRuleError && e.data.field === "rule");
  });

  it("SHUTTING_DOWN for a request read after shutdown", async (t) => {
    const client = await spawnClient(t);
    // Stopped, the server finds both requests in the pipe when it reads again.
    process.kill(client.pid, "SIGSTOP");
    const shutdown = client.shutdown();
    const late = client.status();
    process.kill(client.pid, "SIGCONT");
    assert.deepEqual(await shutdown, {});
    await assert.rejects(late, ShuttingDownError);
  });

  it("a full disk (a file size limit) keeps events in memory, tells the channel with ERROR, and serves on", async (t) => {
    const directory = temporaryDirectory(t);
    // The real server under a file size limit (512 KB: a new database has 16 KB
    // pages, its schema alone 200 KB of log), SIGXFSZ ignored: writes past it fail.
    const limited = join(directory, "bunting-limited");
    writeFileSync(limited, `#!/bin/sh\ntrap '' XFSZ\nulimit -f 1024\nexec ${JSON.stringify(binary())} "$@"\n`);
    chmodSync(limited, 0o755);
    const client = await spawnClient(t, { binary: limited, storage: join(directory, "state") });
    const cards = await client.subscribe({ channel: "contentCards" });
    await signIn(client, "ada", [cards]);
    let told;
    const failed = cards.waitFor({ type: "ERROR", timeout: 120_000 }).then((event) => { told = event; });
    let calls = 0;
    for (; calls < 2000 && !told; calls++) {
      // Each impression is answered: its commit comes after the reply, and
      // an ERROR, if it fails, before the reply to the next request.
      assert.deepEqual(await client.logImpression({ channel: "contentCards", ids: ["welcome", "ada-only", "house-rules"] }), {});
      await client.status();
    }
    await failed;
    assert.equal(told.reason, "CLIENT_ERROR", `after ${calls} calls`);
    assert.equal(told.retryState, "DO_NOT_RETRY");
    assert.match(told.message, /analytics events? could not be stored .*kept in memory until sent/);
    // The server goes on serving from memory.
    assert.deepEqual(await client.logImpression({ channel: "contentCards", id: "welcome" }), {});
    assert.equal((await client.status()).userId, "ada");
  });

  it("NOT_SYNCED before a channel's first refresh for this user, saying what to do; null only once synced", async (t) => {
    const client = await spawnClient(t);
    const notSynced = await client.getFeatureFlag({ id: "beta" }).catch((e) => e);
    assert.ok(notSynced instanceof NotSyncedError, String(notSynced));
    assert.equal(notSynced.code, -32008);
    assert.equal(notSynced.reason, "NOT_SYNCED");
    assert.equal(notSynced.data.channel, "featureFlags");
    assert.match(notSynced.data.why, /refresh/);
    await assert.rejects(client.getBanner({ placementId: "home-top" }), (e) => e instanceof NotSyncedError && e.data.channel === "banners");
    // A channel without a subscription is not refreshed by changeUser: still not synced.
    const flags = await client.subscribe({ channel: "featureFlags" });
    await signIn(client, "ada", [flags]);
    assert.equal((await client.getFeatureFlag({ id: "beta" })).enabled, true);
    assert.equal(await client.getFeatureFlag({ id: "no-such-flag" }), null);
    await assert.rejects(client.getBanner({ placementId: "home-top" }), NotSyncedError);
    // Another user's cache has not been refreshed either.
    await client.removeSubscription({ subscriptionId: flags.id });
    await client.changeUser({ userId: "bob" });
    await assert.rejects(client.getFeatureFlag({ id: "beta" }), NotSyncedError);
  });

  it("CHANNEL_DISABLED for a channel the definitions turn off", async (t) => {
    const client = await spawnClient(t, { definitions: definitionsPath("banners-off.json") });
    const error = await client.getBanner({ placementId: "home-top" }).catch((e) => e);
    assert.ok(error instanceof ChannelDisabledError, String(error));
    assert.equal(error.code, -32009);
    assert.equal(error.data.channel, "banners");
    const banners = await client.subscribe({ channel: "banners" });
    const flags = await client.subscribe({ channel: "featureFlags" });
    await client.changeUser({ userId: "ada" });
    await flags.waitFor({ type: "DATA_UPDATED" });
    await banners.waitFor({ type: "ERROR", reason: "FEATURE_DISABLED" });
    await assert.rejects(client.getBanner({ placementId: "home-top" }), ChannelDisabledError);
    assert.equal((await client.getFeatureFlag({ id: "dark-mode" })).enabled, true);
  });
});
