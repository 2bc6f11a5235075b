// The two framings `bunting serve` speaks: one JSON value per line, or LSP's
// `Content-Length` header blocks. Decoders are fed raw chunks from a pipe and
// hand back whole message bodies as strings; lengths are counted in bytes.

const NEWLINE = 0x0a;
const HEADER_END = Buffer.from("\r\n\r\n");

/** Splits newline-delimited JSON into lines; blank lines are skipped, a trailing CR is dropped. */
export class NdjsonDecoder {
  #pending = [];

  /** @param {Buffer} chunk @returns {string[]} the complete messages in it */
  push(chunk) {
    const messages = [];
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      let line = chunk.subarray(start, newline);
      if (this.#pending.length > 0) {
        this.#pending.push(line);
        line = Buffer.concat(this.#pending);
        this.#pending = [];
      }
      if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
      if (line.length > 0) messages.push(line.toString("utf8"));
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    // A copy of the tail alone, so that a large chunk is not kept alive by a few bytes.
    if (start < chunk.length) this.#pending.push(Buffer.from(chunk.subarray(start)));
    return messages;
  }

  /** Bytes of an unfinished message, if input ended inside one. */
  get bufferedBytes() {
    return this.#pending.reduce((total, part) => total + part.length, 0);
  }
}

/** Reads `Content-Length: N\r\n\r\n` + N bytes frames; other headers are ignored. */
export class LspDecoder {
  #buffer = Buffer.alloc(0);
  /** The body length of the frame being read, or -1 while reading its headers. */
  #bodyLength = -1;

  /** @param {Buffer} chunk @returns {string[]} the complete messages in it */
  push(chunk) {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const messages = [];
    for (;;) {
      if (this.#bodyLength === -1) {
        const end = this.#buffer.indexOf(HEADER_END);
        if (end === -1) break;
        this.#bodyLength = parseContentLength(this.#buffer.toString("latin1", 0, end));
        this.#buffer = this.#buffer.subarray(end + HEADER_END.length);
      }
      if (this.#buffer.length < this.#bodyLength) break;
      messages.push(this.#buffer.toString("utf8", 0, this.#bodyLength));
      this.#buffer = this.#buffer.subarray(this.#bodyLength);
      this.#bodyLength = -1;
    }
    // Keep only what is unread, not the whole chunk it came in.
    if (this.#buffer.length > 0 && this.#buffer.byteOffset > 0) this.#buffer = Buffer.from(this.#buffer);
    return messages;
  }

  get bufferedBytes() {
    return this.#buffer.length;
  }
}

function parseContentLength(headerBlock) {
  for (const line of headerBlock.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon !== -1 && line.slice(0, colon).trim().toLowerCase() === "content-length") {
      const value = line.slice(colon + 1).trim();
      if (/^[0-9]+$/.test(value)) return Number(value);
    }
  }
  throw new FramingError(`a header block without a usable Content-Length: ${JSON.stringify(headerBlock)}`);
}

/** The server's output could not be read as frames of the chosen framing. */
export class FramingError extends Error {
  constructor(message) {
    super(message);
    this.name = "FramingError";
  }
}

/** @param {string} json @returns {string} the frame to write for one message */
export function encodeNdjson(json) {
  return json + "\n";
}

/** @param {string} json @returns {string} the frame to write for one message */
export function encodeLsp(json) {
  return `Content-Length: ${Buffer.byteLength(json, "utf8")}\r\n\r\n${json}`;
}

/** @param {"ndjson" | "lsp"} framing */
export function framingFor(framing) {
  switch (framing) {
    case "ndjson":
      return { decoder: new NdjsonDecoder(), encode: encodeNdjson };
    case "lsp":
      return { decoder: new LspDecoder(), encode: encodeLsp };
    default:
      throw new TypeError(`framing must be "ndjson" or "lsp", not ${JSON.stringify(framing)}`);
  }
}
