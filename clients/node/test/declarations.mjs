// Reads the parts of index.d.ts that the document describes. index.d.ts is kept
// in a plain shape for this: one member per line in interfaces, the protocol
// methods between marker comments (in the generated ProtocolMethods, and in class
// Bunting for those declared by hand).

/** Removes comments, keeping line breaks. */
export function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, "")).replace(/\/\/[^\n]*/g, "");
}

/** @returns {string | undefined} the text between the braces that open at `start` */
function braceBody(text, start) {
  const open = text.indexOf("{", start);
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    if (text[index] === "{") depth++;
    else if (text[index] === "}" && --depth === 0) return text.slice(open + 1, index);
  }
  return undefined;
}

/** The names exported by the declarations. */
export function exportedNames(text) {
  const names = new Set();
  for (const match of stripComments(text).matchAll(/^export (?:declare )?(?:type|interface|class|const|function) ([A-Za-z_$][\w$]*)/gm)) {
    names.add(match[1]);
  }
  return names;
}

/** @returns {Map<string, boolean> | undefined} an interface's members: name → optional */
export function interfaceMembers(text, name) {
  const code = stripComments(text);
  const start = new RegExp(`^export interface ${name}\\b[^{]*\\{`, "m").exec(code);
  if (!start) return undefined;
  const body = braceBody(code, start.index);
  const members = new Map();
  let depth = 0;
  for (const line of body.split("\n")) {
    if (depth === 0) {
      const member = /^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)(\?)?\s*:/.exec(line);
      if (member) members.set(member[1], member[2] === "?");
    }
    for (const character of line) {
      if (character === "{" || character === "(" || character === "[") depth++;
      else if (character === "}" || character === ")" || character === "]") depth--;
    }
  }
  return members;
}

/** @returns {string[] | undefined} the string literals of `export type Name = "a" | "b"` */
export function stringUnion(text, name) {
  const code = stripComments(text);
  const match = new RegExp(`^export type ${name} =([^;]*);`, "m").exec(code);
  if (!match) return undefined;
  const parts = match[1].split("|").map((part) => part.trim()).filter((part) => part !== "");
  if (!parts.every((part) => /^"[^"]*"$/.test(part))) return undefined;
  return parts.map((part) => JSON.parse(part));
}

/**
 * The protocol methods: those of the generated ProtocolMethods and those declared in
 * class Bunting by hand, each set between its two marker comments.
 * @returns {Map<string, {paramsOptional: boolean, paramsType: string}>}
 */
export function protocolMethodDeclarations(text) {
  const declarations = new Map();
  let sections = 0;
  for (let begin = text.indexOf("// --- Protocol methods"); begin !== -1; begin = text.indexOf("// --- Protocol methods", begin + 1)) {
    const end = text.indexOf("// --- End of the protocol methods", begin);
    if (end === -1) break;
    sections++;
    const section = stripComments(text.slice(begin, end)).replace(/\s+/g, " ");
    const pattern = /([A-Za-z_$][\w$]*)(?:<[^(;]*?>)?\( ?params(\??): ([A-Za-z_$][\w$]*)(?:<[^>]*>)?, options\?: CallOptions,? ?\)/g;
    for (const match of section.matchAll(pattern)) {
      if (declarations.has(match[1])) throw new Error(`index.d.ts: ${match[1]} is declared twice`);
      declarations.set(match[1], { paramsOptional: match[2] === "?", paramsType: match[3] });
    }
  }
  if (sections !== 2) throw new Error("index.d.ts: the protocol methods' marker comments are missing");
  return declarations;
}
