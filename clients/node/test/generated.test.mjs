// The generated methods follow schemas/openrpc.json: the committed file is what
// the generator writes today, and every method of the document is a method of
// the client, taking the document's params.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { clientMethodName, outputPath, renderMethods } from "../generate.mjs";
import { Bunting, protocolMethods } from "../index.js";
import { documentPath } from "./support.mjs";

const document = JSON.parse(readFileSync(documentPath, "utf8"));

describe("generated methods", () => {
  it("are up to date with the document (regenerate: node clients/node/generate.mjs)", () => {
    assert.equal(readFileSync(outputPath, "utf8"), renderMethods(document));
  });

  it("give every method of the document a client method", () => {
    const missing = document.methods
      .map((method) => method.name)
      .filter((name) => typeof Bunting.prototype[clientMethodName(name)] !== "function");
    assert.deepEqual(missing, []);
  });

  it("list each method with the document's params and required flags", () => {
    const expected = document.methods.map((method) => ({
      method: method.name,
      params: (method.params ?? []).map((param) => ({ name: param.name, required: param.required === true })),
    }));
    assert.deepEqual(
      protocolMethods.map(({ method, params }) => ({ method, params: params.map((param) => ({ ...param })) })),
      expected,
    );
  });

  it("make a Subscription of what the subscribe methods answer, and of nothing else", () => {
    for (const method of protocolMethods) assert.equal(method.subscribes, method.method.startsWith("subscribe"), method.method);
  });

  it("name methods in camelCase", () => {
    assert.equal(clientMethodName("rpc.discover"), "rpcDiscover");
    assert.equal(clientMethodName("changeUser"), "changeUser");
  });

  it("refuse a document whose method would shadow a member of the client", () => {
    const bad = { ...document, methods: [{ name: "close", params: [], result: { name: "r", schema: {} } }] };
    assert.throws(() => renderMethods(bad), /would shadow/);
  });
});
