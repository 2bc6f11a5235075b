// The protocol part of index.d.ts, made from the OpenRPC document by generate.mjs:
// a type for each schema of `components.schemas`, a params interface for each
// method, and `ProtocolMethods`, the signature of each method. What the document
// cannot say (types that follow the channel or the flag type asked for, the
// notifications by channel) is written by hand in index.d.ts; those names are
// listed here so that the generated part leaves them out.

/** Schemas whose types index.d.ts refines by hand (generic over the channel or the value's type). */
export const REFINED_TYPES = new Set([
  "CacheSnapshot",
  "CacheReplayEvent",
  "CacheLoadEvent",
  "DataUpdatedEvent",
  "ImpressionEvent",
  "ClickEvent",
  "DismissEvent",
  "ErrorEvent",
  "CustomEvent",
  "EventNotificationParams",
  "UpdatesNotificationParams",
  "DefinitionsNotificationParams",
  "EvaluateFlagResult",
  "ExtrasFilter",
  "OpenRPCDocument",
]);

/** Methods declared by hand on Bunting: they resolve to a Subscription, or their types follow a param. */
export const REFINED_METHODS = new Set(["subscribe", "subscribeToUpdates", "subscribeToDefinitions", "getSnapshot", "evaluateFlag"]);

export const BEGIN = "// ---- Generated from schemas/openrpc.json by clients/node/generate.mjs; do not edit until the end marker ----";
export const END = "// ---- End of the generated protocol types ----";

const WIDTH = 100;

/**
 * @param {object} document the OpenRPC document
 * @param {(method: string) => string} clientMethodName
 * @returns {string} the lines between BEGIN and END, without them
 */
export function renderProtocolDeclarations(document, clientMethodName) {
  const schemas = document.components?.schemas ?? {};
  const out = [];
  out.push("// Values of the protocol: a type for each schema of `components.schemas`.", "");
  for (const [name, schema] of Object.entries(schemas)) {
    if (REFINED_TYPES.has(name)) continue;
    out.push(...comment(schema.description, ""));
    out.push(...namedType(name, schema));
  }
  out.push("", "// The params of each method (NoParams where it takes none).", "");
  out.push("/** The params of a method that takes none. */", "export type NoParams = { [key: string]: never };");
  for (const method of document.methods) {
    if (REFINED_METHODS.has(clientMethodName(method.name)) || !(method.params ?? []).length) continue;
    out.push(`/** The params of \`${method.name}\`. */`, `export interface ${paramsName(method, clientMethodName)} {`);
    for (const param of method.params) {
      out.push(...comment(param.description, "  "));
      out.push(`  ${member(param.name)}${param.required ? "" : "?"}: ${tsType(param.schema ?? {})};`);
    }
    out.push("}");
  }
  out.push(
    "",
    "/**",
    " * The protocol's methods as the document declares them, each a method of Bunting (those",
    " * that resolve to a Subscription, or whose types follow a param, are declared on Bunting).",
    " */",
    "export interface ProtocolMethods {",
    "  // --- Protocol methods (generated) ---",
  );
  for (const method of document.methods) {
    const name = clientMethodName(method.name);
    if (REFINED_METHODS.has(name)) continue;
    const params = method.params ?? [];
    const required = params.some((param) => param.required === true);
    const paramsType = params.length === 0 ? "NoParams" : paramsName(method, clientMethodName);
    const summary = method.deprecated ? `@deprecated ${method.summary ?? ""}` : method.summary;
    out.push(...comment(summary, "  "));
    out.push(`  ${name}(params${required ? "" : "?"}: ${paramsType}, options?: CallOptions): Promise<${tsType(method.result?.schema ?? {})}>;`);
  }
  out.push("  // --- End of the protocol methods (generated) ---", "}");
  return out.join("\n");
}

function paramsName(method, clientMethodName) {
  const name = clientMethodName(method.name);
  return `${name[0].toUpperCase()}${name.slice(1)}Params`;
}

function namedType(name, schema) {
  if (schema.type === "object" && schema.properties && !schema.oneOf && !schema.anyOf) {
    const required = new Set(schema.required ?? []);
    const lines = [`export interface ${name} {`];
    for (const [key, property] of Object.entries(schema.properties)) {
      lines.push(...comment(property.description, "  "));
      lines.push(`  ${member(key)}${required.has(key) ? "" : "?"}: ${tsType(property)};`);
    }
    const rest = additional(schema);
    if (rest !== null && schema.additionalProperties !== undefined) lines.push(`  [key: string]: ${rest};`);
    lines.push("}");
    return lines;
  }
  const type = tsType({ ...schema, description: undefined, title: undefined });
  const line = `export type ${name} = ${type};`;
  const options = topLevelUnion(type);
  if (line.length <= WIDTH || options.length < 2) return [line];
  return [`export type ${name} =`, ...options.map((option, index) => `  | ${option}${index === options.length - 1 ? ";" : ""}`)];
}

/** The members of a union, split where no brace, bracket or parenthesis is open. */
function topLevelUnion(type) {
  const options = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < type.length; index++) {
    const character = type[index];
    if ("{[(".includes(character)) depth++;
    else if ("}])".includes(character)) depth--;
    else if (depth === 0 && type.startsWith(" | ", index)) {
      options.push(type.slice(start, index));
      start = index + 3;
    }
  }
  options.push(type.slice(start));
  return options;
}

/** The type of the properties an object schema allows besides its own; null for none. */
function additional(schema) {
  if (schema.additionalProperties === false) return null;
  if (schema.additionalProperties === undefined || schema.additionalProperties === true) return "unknown";
  return tsType(schema.additionalProperties);
}

/** A TypeScript type for a JSON schema, on one line. */
export function tsType(schema) {
  if (schema === true || schema === undefined) return "unknown";
  if (schema.$ref) return schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const options = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(options)) return union(options.map(tsType));
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => tsType({ ...schema, type })));
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
    case "array": {
      const item = tsType(schema.items ?? true);
      return item.includes(" | ") || item.includes("&") ? `(${item})[]` : `${item}[]`;
    }
    case "object": {
      const rest = additional(schema);
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0) return `{ [key: string]: ${rest ?? "never"} }`;
      const required = new Set(schema.required ?? []);
      const fields = properties.map(([key, property]) => `${member(key)}${required.has(key) ? "" : "?"}: ${tsType(property)}`);
      if (rest !== null) fields.push(`[key: string]: ${rest}`);
      return `{ ${fields.join("; ")} }`;
    }
    default:
      return "unknown";
  }
}

function union(types) {
  const unique = [...new Set(types)];
  return unique.includes("unknown") ? "unknown" : unique.join(" | ");
}

function member(key) {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** A JSDoc comment of the text, wrapped; none for none. */
function comment(text, indent) {
  if (!text) return [];
  const limit = WIDTH - indent.length - 3;
  const words = text.replaceAll("*/", "*\\/").split(/\s+/);
  const lines = [];
  let line = "";
  for (const word of words) {
    if (line !== "" && line.length + 1 + word.length > limit) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  if (lines.length === 1 && indent.length + lines[0].length + 7 <= WIDTH) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((text) => `${indent} * ${text}`), `${indent} */`];
}
