#!/usr/bin/env node
// Writes lib/methods.generated.js from the OpenRPC document (one method per
// protocol method, with the document's words as JSDoc, and a table of the
// methods and their params that the tests check index.d.ts against) and the
// protocol part of index.d.ts (generate-declarations.mjs: a type per schema,
// a params interface per method, the methods' signatures).
//
//   node clients/node/generate.mjs            regenerate
//   node clients/node/generate.mjs --check    exit 1 if the committed file is out of date

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BEGIN, END, renderProtocolDeclarations } from "./generate-declarations.mjs";
import { errorClassByReason } from "./lib/errors.js";

const here = dirname(fileURLToPath(import.meta.url));
export const documentPath = join(here, "..", "..", "schemas", "openrpc.json");
export const outputPath = join(here, "lib", "methods.generated.js");
export const declarationsPath = join(here, "index.d.ts");

// Members of the client that a protocol method must not shadow.
const RESERVED = new Set([
  "call", "notify", "subscribeWith", "waitFor", "terminate", "closed", "subscriptions", "framing", "callTimeout",
  "close", "pid", "stderrLines", "exited", "exitInfo", "command", "constructor",
  "on", "once", "off", "emit", "addListener", "removeListener", "removeAllListeners", "listeners",
  "listenerCount", "eventNames", "prependListener", "prependOnceListener", "rawListeners",
  "setMaxListeners", "getMaxListeners",
]);

const WIDTH = 100;

/** `rpc.discover` → `rpcDiscover`, `changeUser` → `changeUser`. */
export function clientMethodName(method) {
  const [first, ...rest] = method.split(/[^A-Za-z0-9]+/).filter((part) => part !== "");
  return first + rest.map((part) => part[0].toUpperCase() + part.slice(1)).join("");
}

/** @returns {string} the generated module for the document */
export function renderMethods(document) {
  const schemas = document.components?.schemas ?? {};
  const errors = document.components?.errors ?? {};
  const resolve = (schema) => {
    let current = schema;
    for (let hops = 0; current?.$ref && hops < 32; hops++) current = schemas[refName(current.$ref)];
    return current ?? {};
  };
  const answersSubscription = (schema) => {
    const resolved = resolve(schema);
    if (resolved.properties?.subscriptionId) return true;
    return [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])].some(answersSubscription);
  };

  const names = new Set();
  const methods = document.methods.map((method) => {
    const name = clientMethodName(method.name);
    if (RESERVED.has(name)) throw new Error(`method ${method.name}: ${name} would shadow a member of the client`);
    if (names.has(name)) throw new Error(`method ${method.name}: a second method named ${name}`);
    names.add(name);
    return { method, name, subscribes: answersSubscription(method.result?.schema ?? {}) };
  });

  const out = [];
  out.push(
    `// Generated from schemas/openrpc.json (${document.info.title} ${document.info.version}) by clients/node/generate.mjs.`,
    "// Do not edit: change the document, then run `node clients/node/generate.mjs`.",
    "",
    'import { Connection } from "./connection.js";',
    "",
    "/**",
    " * One method per method of the protocol. Each takes the method's params as an object",
    " * (by name) and the call's options, `{timeout, signal}`, and resolves to the result.",
    " * Error replies reject with a BuntingError of the class of their `data.reason`.",
    " */",
    "export class BuntingMethods extends Connection {",
  );
  methods.forEach(({ method, name, subscribes }, index) => {
    if (index > 0) out.push("");
    out.push(...jsdoc(method, name, subscribes, errors).map((line) => `  ${line}`.trimEnd()));
    const call = subscribes ? "subscribeWith" : "call";
    out.push(`  ${name}(params, options) {`, `    return this.${call}(${JSON.stringify(method.name)}, params, options);`, "  }");
  });
  out.push("}", "");
  out.push(
    "/** The methods above as the document declares them: what index.d.ts is checked against. */",
    "export const protocolMethods = Object.freeze([",
  );
  for (const { method, name, subscribes } of methods) {
    const params = (method.params ?? []).map((param) => `{ name: ${JSON.stringify(param.name)}, required: ${param.required === true} }`);
    out.push(
      `  { method: ${JSON.stringify(method.name)}, name: ${JSON.stringify(name)}, subscribes: ${subscribes}, deprecated: ${method.deprecated === true}, params: [${params.join(", ")}] },`,
    );
  }
  out.push("]);", "");
  return out.join("\n");

  function jsdoc(method, name, subscribes, errors) {
    const lines = [];
    if (method.deprecated) lines.push(`@deprecated ${firstSentence(method.summary)}`);
    if (method.summary) lines.push(...wrap(method.summary));
    if (method.description) lines.push("", ...wrap(method.description));
    lines.push("");
    const params = method.params ?? [];
    const required = params.some((param) => param.required);
    lines.push(params.length === 0 ? "@param {{}} [params] none" : `@param {object}${required ? " params" : " [params]"}`);
    for (const param of params) {
      const label = param.required ? `params.${param.name}` : `[params.${param.name}]`;
      lines.push(...wrap(`@param {${typeOf(param.schema)}} ${label}${param.description ? ` ${param.description}` : ""}`, "    "));
    }
    lines.push("@param {import(\"../index.js\").CallOptions} [options] `timeout` (ms) and `signal` of this call");
    const result = subscribes ? 'import("../index.js").Subscription | null' : typeOf(method.result?.schema ?? {});
    const resultWords = subscribes
      ? "the Subscription (null where the server made none)"
      : (method.result?.description ?? method.result?.name ?? "");
    lines.push(...wrap(`@returns {Promise<${result}>} ${resultWords}`.trimEnd(), "    "));
    for (const ref of method.errors ?? []) {
      const error = ref.$ref ? errors[refName(ref.$ref)] : ref;
      if (!error) continue;
      const reason = error.data?.reason;
      const className = errorClassByReason[reason]?.name ?? "BuntingError";
      lines.push(`@throws {import("../index.js").${className}} ${error.code} ${reason ?? ""}`.trimEnd());
    }
    const example = (method.examples ?? [])[0];
    if (example) {
      lines.push("@example", `// ${example.name}`);
      const args = Object.fromEntries((example.params ?? []).map((param) => [param.name, param.value]));
      const call = Object.keys(args).length === 0 ? `await client.${name}();` : `await client.${name}(${compactJson(args)});`;
      lines.push(call);
      if (example.result && !subscribes) lines.push(...`// → ${compactJson(example.result.value)}`.split("\n").map((line, i) => (i === 0 ? line : `//   ${line}`)));
    }
    return ["/**", ...lines.map((line) => ` * ${escapeComment(line)}`.trimEnd()), " */"];
  }

  function typeOf(schema) {
    if (schema === undefined || schema === true || Object.keys(schema).length === 0) return "any";
    if (schema.$ref) return `import("../index.js").${refName(schema.$ref)}`;
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
    if (schema.oneOf || schema.anyOf) return (schema.oneOf ?? schema.anyOf).map(typeOf).join(" | ");
    switch (schema.type) {
      case "string":
        return "string";
      case "number":
      case "integer":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array":
        return `${wrapUnion(typeOf(schema.items ?? {}))}[]`;
      case "object": {
        const properties = Object.entries(schema.properties ?? {});
        if (properties.length === 0) return "object";
        const required = new Set(schema.required ?? []);
        const fields = properties.map(([key, value]) => `${key}${required.has(key) ? "" : "?"}: ${typeOf(value)}`);
        if (schema.additionalProperties !== false) fields.push("[key: string]: any");
        return `{${fields.join(", ")}}`;
      }
      default:
        return "any";
    }
  }
}

function refName(ref) {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

function wrapUnion(type) {
  return type.includes(" | ") ? `(${type})` : type;
}

function firstSentence(text = "") {
  return text.split(/(?<=\.)\s/)[0];
}

/** JSON on one line where it fits in the comment, else broken at the outer levels only. */
function compactJson(value, indent = "") {
  const flat = JSON.stringify(value);
  if (indent.length + flat.length <= WIDTH - 12 || value === null || typeof value !== "object") return flat;
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((element) => `${inner}${compactJson(element, inner)}`)
    : Object.entries(value).map(([key, element]) => `${inner}${JSON.stringify(key)}: ${compactJson(element, inner)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${entries.join(",\n")}\n${indent}${close}`;
}

function escapeComment(line) {
  return line.replaceAll("*/", "*\\/");
}

/** Wraps text at WIDTH columns (less the comment's indent), keeping its line breaks. */
function wrap(text, continuation = "") {
  const limit = WIDTH - 6;
  const lines = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      if (line !== "" && line.length + 1 + word.length > limit) {
        lines.push(line);
        line = continuation + word;
      } else {
        line = line === "" ? word : `${line} ${word}`;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** index.d.ts with its generated part made anew from the document. */
export function renderDeclarationsFile(document, current) {
  const begin = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (begin === -1 || end < begin) throw new Error("index.d.ts: the generated part's marker lines are missing");
  const generated = renderProtocolDeclarations(document, clientMethodName);
  return `${current.slice(0, begin)}${BEGIN}\n${generated}\n${current.slice(end)}`;
}

function main(args) {
  const document = JSON.parse(readFileSync(documentPath, "utf8"));
  const outputs = [
    [outputPath, renderMethods(document)],
    [declarationsPath, renderDeclarationsFile(document, readFileSync(declarationsPath, "utf8"))],
  ];
  let stale = 0;
  for (const [path, generated] of outputs) {
    let current = null;
    try {
      current = readFileSync(path, "utf8");
    } catch {
      // Not written yet.
    }
    const shown = relative(process.cwd(), path);
    if (args.includes("--check")) {
      if (current !== generated) {
        console.error(`${shown} is out of date: run \`node clients/node/generate.mjs\``);
        stale++;
      }
      continue;
    }
    if (current !== generated) writeFileSync(path, generated);
    console.error(`${current === generated ? "unchanged" : "wrote"} ${shown} (${document.methods.length} methods)`);
  }
  return stale === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
