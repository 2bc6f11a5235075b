// Turns `Bunting.spawn`'s server options into `bunting serve` flags:
// `pollInterval: 2` → `--poll-interval 2`, `header: [a, b]` → `--header a --header b`,
// `true` → a bare flag; `false`, null and undefined leave the flag out.

/** Options of `Bunting.spawn` that configure the client, not the server. */
export const CLIENT_OPTIONS = new Set([
  "binary",
  "framing",
  "callTimeout",
  "closeTimeout",
  "stderrLines",
  "maxBufferedEvents",
  "cwd",
  "env",
  "args",
]);

/**
 * @param {Record<string, unknown>} options the spawn options (client options are skipped)
 * @param {"ndjson" | "lsp"} framing
 * @returns {string[]} the arguments after the binary
 */
export function serveArguments(options, framing) {
  const args = ["serve", "--framing", framing];
  for (const [key, value] of Object.entries(options)) {
    if (CLIENT_OPTIONS.has(key) || value === undefined || value === null || value === false) continue;
    const flag = `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
    if (value === true) {
      args.push(flag);
    } else if (Array.isArray(value)) {
      for (const element of value) args.push(flag, flagValue(key, element));
    } else {
      args.push(flag, flagValue(key, value));
    }
  }
  return args.concat(options.args ?? []);
}

function flagValue(key, value) {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new TypeError(`server option ${key}: expected a string, a finite number or a boolean, got ${JSON.stringify(value)}`);
}
