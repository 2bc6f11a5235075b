// The decoders on their own: frames split anywhere, fused, and counted in bytes.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeLsp, encodeNdjson, FramingError, LspDecoder, NdjsonDecoder } from "../lib/framing.js";

const messages = [
  { jsonrpc: "2.0", id: 1, result: { greeting: "こんにちは 👋 — ça va?" } },
  { jsonrpc: "2.0", method: "event", params: { text: "Bêta ✨", emoji: "🦊🦊🦊" } },
  { jsonrpc: "2.0", id: 2, result: {} },
];

function feedInPieces(decoder, bytes, pieceLength) {
  const out = [];
  for (let start = 0; start < bytes.length; start += pieceLength) {
    out.push(...decoder.push(bytes.subarray(start, start + pieceLength)));
  }
  return out;
}

for (const [name, encode, Decoder] of [
  ["ndjson", encodeNdjson, NdjsonDecoder],
  ["lsp", encodeLsp, LspDecoder],
]) {
  describe(`${name} framing`, () => {
    const bytes = Buffer.from(messages.map((message) => encode(JSON.stringify(message))).join(""), "utf8");

    it("reads frames fed a byte at a time, splitting multi-byte characters", () => {
      const decoder = new Decoder();
      assert.deepEqual(feedInPieces(decoder, bytes, 1).map((body) => JSON.parse(body)), messages);
      assert.equal(decoder.bufferedBytes, 0);
    });

    it("reads frames fused into one chunk, and in pieces of every length", () => {
      for (let pieceLength = 2; pieceLength <= bytes.length; pieceLength += 7) {
        const decoder = new Decoder();
        assert.deepEqual(feedInPieces(decoder, bytes, pieceLength).map((body) => JSON.parse(body)), messages, `pieces of ${pieceLength}`);
      }
    });

    it("keeps an unfinished frame until the rest arrives", () => {
      const decoder = new Decoder();
      const cut = bytes.length - 3;
      assert.equal(decoder.push(bytes.subarray(0, cut)).length, 2);
      assert.ok(decoder.bufferedBytes > 0);
      assert.deepEqual(JSON.parse(decoder.push(bytes.subarray(cut))[0]), messages[2]);
    });
  });
}

describe("LSP framing", () => {
  it("counts Content-Length in bytes of UTF-8, not in characters", () => {
    const json = JSON.stringify({ text: "🦊é" });
    const frame = encodeLsp(json);
    const declared = Number(/Content-Length: (\d+)/.exec(frame)[1]);
    assert.equal(declared, Buffer.byteLength(json));
    assert.notEqual(declared, json.length);
  });

  it("ignores other headers and the case of Content-Length", () => {
    const body = '{"id":1}';
    const decoder = new LspDecoder();
    const frame = `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    assert.deepEqual(decoder.push(Buffer.from(frame)), [body]);
  });

  it("refuses a header block without a usable Content-Length", () => {
    assert.throws(() => new LspDecoder().push(Buffer.from("Content-Type: x\r\n\r\n{}")), FramingError);
    assert.throws(() => new LspDecoder().push(Buffer.from("Content-Length: ten\r\n\r\n{}")), FramingError);
  });
});

describe("NDJSON framing", () => {
  it("skips blank lines and drops a trailing CR", () => {
    const decoder = new NdjsonDecoder();
    assert.deepEqual(decoder.push(Buffer.from('\n{"a":1}\r\n\n{"b":2}\n')), ['{"a":1}', '{"b":2}']);
  });
});
