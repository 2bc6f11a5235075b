// The generated methods and types follow schemas/openrpc.json: the committed
// files are what the generator writes today, and every method of the document is
// a method of the client, taking the document's params.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { REFINED_TYPES } from "../generate-declarations.mjs";
import { clientMethodName, declarationsPath, outputPath, renderDeclarationsFile, renderMethods } from "../generate.mjs";
import { Bunting, protocolMethods } from "../index.js";
import { documentPath } from "./support.mjs";

const document = JSON.parse(readFileSync(documentPath, "utf8"));

describe("generated methods", () => {
  it("are up to date with the document (regenerate: node clients/node/generate.mjs)", () => {
    assert.equal(readFileSync(outputPath, "utf8"), renderMethods(document));
  });

  it("and the protocol part of index.d.ts are up to date with the document", () => {
    const declarations = readFileSync(declarationsPath, "utf8");
    assert.equal(declarations, renderDeclarationsFile(document, declarations));
    assert.match(declarations, /Generated from schemas\/openrpc.json by clients\/node\/generate.mjs/);
  });

  it("type a new schema and a new method of the document without a hand-written line", () => {
    const changed = structuredClone(document);
    changed.components.schemas.Widget = { type: "object", description: "A widget.", properties: { size: { type: "integer" }, name: { type: "string" } }, required: ["size"] };
    changed.methods.push({ name: "getWidget", params: [{ name: "widgetId", required: true, schema: { type: "string" } }], result: { name: "widget", schema: { $ref: "#/components/schemas/Widget" } } });
    const rendered = renderDeclarationsFile(changed, readFileSync(declarationsPath, "utf8"));
    assert.match(rendered, /export interface Widget \{\n  size: number;\n  name\?: string;\n\}/);
    assert.match(rendered, /export interface GetWidgetParams \{\n  widgetId: string;\n\}/);
    assert.match(rendered, /  getWidget\(params: GetWidgetParams, options\?: CallOptions\): Promise<Widget>;/);
  });

  it("leave to index.d.ts by hand only types that it declares", () => {
    const declarations = readFileSync(declarationsPath, "utf8");
    for (const name of REFINED_TYPES) assert.match(declarations, new RegExp(`^export (type|interface) ${name}\\b`, "m"), name);
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
