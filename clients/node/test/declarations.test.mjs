// index.d.ts (its protocol part generated, the rest by hand) against schemas/openrpc.json: each method of the
// document is declared with its params, optional where the document says so;
// each schema of the document has a type of its name, with the same fields and
// enum values; and, where the TypeScript compiler is installed, the document's
// examples type-check against the declarations.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { clientMethodName, outputPath } from "../generate.mjs";
import { errorClassByReason } from "../index.js";
import { exportedNames, interfaceMembers, protocolMethodDeclarations, stringUnion } from "./declarations.mjs";
import { binary, documentPath, temporaryDirectory } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const declarationsPath = join(here, "..", "index.d.ts");
const declarations = readFileSync(declarationsPath, "utf8");
const document = JSON.parse(readFileSync(documentPath, "utf8"));
const schemas = document.components.schemas;

/** The interface index.d.ts declares for a method's params. */
const paramsInterface = (method) => `${clientMethodName(method.name)[0].toUpperCase()}${clientMethodName(method.name).slice(1)}Params`;

describe("index.d.ts", () => {
  const declared = protocolMethodDeclarations(declarations);

  it("declares every method of the document, and no other", () => {
    const expected = document.methods.map((method) => clientMethodName(method.name)).sort();
    assert.deepEqual([...declared.keys()].sort(), expected);
  });

  for (const method of document.methods) {
    it(`declares ${method.name} with the document's params`, () => {
      const declaration = declared.get(clientMethodName(method.name));
      assert.ok(declaration, `index.d.ts: no method ${clientMethodName(method.name)} for ${method.name}`);
      const params = method.params ?? [];
      const anyRequired = params.some((param) => param.required === true);
      assert.equal(declaration.paramsOptional, !anyRequired, `${method.name}: params ${anyRequired ? "required" : "optional"}`);
      if (params.length === 0) {
        assert.equal(declaration.paramsType, "NoParams");
        return;
      }
      assert.equal(declaration.paramsType, paramsInterface(method));
      const members = interfaceMembers(declarations, declaration.paramsType);
      assert.ok(members, `index.d.ts: no interface ${declaration.paramsType}`);
      const expected = new Map(params.map((param) => [param.name, param.required !== true]));
      assert.deepEqual(
        Object.fromEntries(members),
        Object.fromEntries(expected),
        `${declaration.paramsType}: member → optional, as the document has it`,
      );
    });
  }

  it("has a type for every schema of the document", () => {
    const names = exportedNames(declarations);
    assert.deepEqual(Object.keys(schemas).filter((name) => !names.has(name)), []);
  });

  it("lists each enum's values as the document does", () => {
    for (const [name, schema] of Object.entries(schemas)) {
      if (!Array.isArray(schema.enum)) continue;
      assert.deepEqual(stringUnion(declarations, name)?.sort(), [...schema.enum].sort(), name);
    }
  });

  it("declares the fields of each object schema that is an interface", () => {
    let checked = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      const members = interfaceMembers(declarations, name);
      if (!members || !schema.properties) continue;
      checked++;
      const required = new Set(schema.required ?? []);
      for (const [property] of Object.entries(schema.properties)) {
        assert.ok(members.has(property), `${name}: no field ${property}`);
        assert.equal(members.get(property), !required.has(property), `${name}.${property}: optional exactly when not required`);
      }
      if (schema.additionalProperties === false) {
        assert.deepEqual([...members.keys()].filter((key) => !(key in schema.properties)), [], `${name}: fields the document does not have`);
      }
    }
    assert.ok(checked >= 10, `only ${checked} interfaces checked`);
  });

  it("has an error class for every reason of the document", () => {
    const names = exportedNames(declarations);
    const reasons = new Set([
      ...schemas.RPCErrorReason.enum,
      ...Object.values(document.components.errors).map((error) => error.data.reason),
    ]);
    for (const reason of reasons) {
      const ErrorClass = errorClassByReason[reason];
      assert.ok(ErrorClass, `no class for ${reason}`);
      assert.ok(names.has(ErrorClass.name), `index.d.ts does not declare ${ErrorClass.name}`);
    }
  });

  it("declares every type the generated JSDoc names", () => {
    const names = exportedNames(declarations);
    const used = new Set([...readFileSync(outputPath, "utf8").matchAll(/import\("\.\.\/index\.js"\)\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]));
    assert.deepEqual([...used].filter((name) => !names.has(name)), []);
  });

  it("names a ServeOptions field for every option of `bunting serve --help`, and no other", () => {
    const help = spawnSync(binary(), ["serve", "--help"], { encoding: "utf8" });
    assert.equal(help.status, 0, help.stderr);
    const flags = [...`${help.stdout}${help.stderr}`.matchAll(/^\s+--([a-z][a-z-]*)/gm)].map((m) => m[1]);
    const options = flags
      .filter((flag) => flag !== "help" && flag !== "framing")
      .map((flag) => flag.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase()));
    assert.ok(options.includes("definitions") && options.includes("pollInterval"), `read these flags: ${flags}`);
    assert.deepEqual([...interfaceMembers(declarations, "ServeOptions").keys()].sort(), [...new Set(options)].sort());
  });
});

const tsc = spawnSync("tsc", ["--version"], { encoding: "utf8" });
const noCompiler = tsc.status === 0 ? false : "the TypeScript compiler (tsc; Debian: node-typescript) is not installed";

describe("index.d.ts with the TypeScript compiler", { skip: noCompiler }, () => {
  it("type-checks test/types/usage.ts (right uses compile, each marked mistake does not)", () => {
    const result = spawnSync("tsc", ["-p", join(here, "types", "tsconfig.json")], { encoding: "utf8" });
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  // Debian's nodejs package ships @types/node (and node-undici the types it refers to).
  const debianTypes = "/usr/share/nodejs";
  const noNodeTypes = !existsSync(join(debianTypes, "@types", "node", "package.json")) && `no @types/node in ${debianTypes}`;
  it("type-checks test/types/usage.ts against Node's own declarations too", { skip: noNodeTypes }, (t) => {
    const directory = temporaryDirectory(t);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: "es2022",
      lib: ["es2022"],
      module: "es2022",
      moduleResolution: "node",
      typeRoots: [join(debianTypes, "@types")],
      types: ["node"],
      baseUrl: debianTypes,
      paths: { "undici-types": ["undici-types/index.d.ts"] },
    };
    writeFileSync(join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [join(here, "types", "usage.ts")] }));
    const result = spawnSync("tsc", ["-p", join(directory, "tsconfig.json")], { encoding: "utf8" });
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  it("accepts every example of the document: params, results, notifications and errors", (t) => {
    const directory = temporaryDirectory(t);
    const lines = [`import type * as B from ${JSON.stringify(join(here, "..", "index.js"))};`, "declare const client: B.Bunting;", "async function examples() {"];
    const notificationTypes = { event: "B.BuntingEvent", updates: "B.UpdatesNotification", definitions: "B.DefinitionsEvent" };
    let count = 0;
    for (const method of document.methods) {
      const name = clientMethodName(method.name);
      for (const example of method.examples ?? []) {
        const params = Object.fromEntries((example.params ?? []).map((param) => [param.name, param.value]));
        lines.push(`  // ${method.name}: ${example.name}`);
        lines.push(`  client.${name}(${JSON.stringify(params)});`);
        if (example.result && !method.name.startsWith("subscribe") && !(method.name === "rpc.discover")) {
          lines.push(`  { const result: Awaited<ReturnType<typeof client.${name}>> = ${JSON.stringify(example.result.value)}; void result; }`);
        }
        count++;
      }
    }
    for (const notification of document["x-notifications"] ?? []) {
      const type = notificationTypes[notification.name];
      assert.ok(type, `index.d.ts: no type for the ${notification.name} notification (add it here and in index.d.ts)`);
      for (const example of notification.examples ?? []) {
        lines.push(`  { const params: ${type} = ${JSON.stringify(example.value)}; void params; }`);
        count++;
      }
    }
    for (const [name, error] of Object.entries(document.components.errors)) {
      lines.push(`  { const error: B.RPCErrorObject = ${JSON.stringify(error)}; void error; } // ${name}`);
      count++;
    }
    lines.push("}", "void examples;", "");
    writeFileSync(join(directory, "examples.ts"), lines.join("\n"));
    writeFileSync(
      join(directory, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", lib: ["es2022"], module: "es2022", moduleResolution: "node", types: [] },
        files: [join(here, "types", "node-shim.d.ts"), "examples.ts"],
      }),
    );
    const result = spawnSync("tsc", ["-p", join(directory, "tsconfig.json")], { encoding: "utf8" });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}\n(checked ${count} examples)`);
  });
});
