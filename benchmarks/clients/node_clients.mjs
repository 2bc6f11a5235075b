#!/usr/bin/env node
// The Node side of the clients benchmark: round trips of evaluateFlag with a
// context per call (the server-side paradigm) through the raw pipe, the raw pipe
// with each request encoded and each reply parsed (JSON), the client and the dynamic provider; and the static
// provider's reads for one user. Every mode on a server of its own, each round
// in a rotating order; round trips are sampled one by one, reads in blocks of
// 100 calls. Writes the statistics as JSON for report.py.
//
//   node benchmarks/clients/node_clients.mjs --binary PATH --workload PATH --json OUT
//                                            [--rounds N] [--round-trips N] [--reads N]

import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Bunting, BuntingProvider } from "../../clients/node/index.js";

const { values } = parseArgs({
  options: {
    binary: { type: "string" },
    workload: { type: "string" },
    json: { type: "string" },
    rounds: { type: "string", default: "3" },
    "round-trips": { type: "string", default: "5000" },
    reads: { type: "string", default: "200000" },
  },
});
const binary = values.binary;
const made = JSON.parse(readFileSync(values.workload, "utf8"));
const definitions = values.workload.replace(/\.json$/, ".definitions.json");
const rounds = Number(values.rounds);
const roundTrips = Number(values["round-trips"]);
const reads = Number(values.reads);
const BLOCK = 100;
const contexts = made.contexts;

async function spawnClient() {
  return Bunting.spawn({ binary, storage: ":memory:", definitions });
}

/** Nanoseconds of each call of `once(index)`. */
async function sampled(count, once) {
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await once(i);
    samples[i] = Number(process.hrtime.bigint() - start);
  }
  return samples;
}

/** The raw pipe: each request's bytes (made before timing) written, the reply's last byte awaited. */
async function rawPipe(count, { parse }) {
  const child = spawn(binary, ["serve", "--framing", "ndjson", "--storage", ":memory:", "--definitions", definitions], { stdio: ["pipe", "pipe", "ignore"] });
  const frames = contexts.map((context, index) =>
    `${JSON.stringify({ jsonrpc: "2.0", id: index + 1, method: "evaluateFlag", params: { flagKey: "attribute-rule", context, type: "boolean" } })}\n`);
  let pending = [];
  let waiting = null;
  child.stdout.on("data", (chunk) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, newline));
      const message = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      pending = [];
      start = newline + 1;
      const resolve = waiting;
      waiting = null;
      resolve?.(message);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  const once = async (index) => {
    const reply = new Promise((resolve) => (waiting = resolve));
    // With `parse`, what any client does at least: encode each request, parse each reply.
    child.stdin.write(parse
      ? `${JSON.stringify({ jsonrpc: "2.0", id: index, method: "evaluateFlag", params: { flagKey: "attribute-rule", context: contexts[index % contexts.length], type: "boolean" } })}\n`
      : frames[index % frames.length]);
    const message = await reply;
    if (parse && typeof JSON.parse(message.toString()).result.value !== "boolean") throw new Error(`unexpected reply ${message}`);
  };
  try {
    await sampled(Math.max(200, count / 10), once);
    return await sampled(count, once);
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once("close", resolve));
  }
}

async function clientCalls(count) {
  const client = await spawnClient();
  try {
    const once = (index) => client.evaluateFlag({ flagKey: "attribute-rule", context: contexts[index % contexts.length], type: "boolean" });
    await sampled(Math.max(200, count / 10), once);
    return await sampled(count, once);
  } finally {
    await client.close();
  }
}

async function dynamicProvider(count) {
  const client = await spawnClient();
  const provider = new BuntingProvider(client);
  await provider.initialize({});
  try {
    const once = (index) => provider.resolveBooleanEvaluation("attribute-rule", false, contexts[index % contexts.length], console);
    await sampled(Math.max(200, count / 10), once);
    return await sampled(count, once);
  } finally {
    await provider.onClose();
    await client.close();
  }
}

/** The static provider's reads of `flag` for the workload's one user, timed in blocks. */
async function staticReads(flag, count) {
  const client = await spawnClient();
  const provider = new BuntingProvider(client, { paradigm: "static" });
  await provider.initialize({ ...made.oneUser });
  try {
    const block = () => {
      // A new object each call, as the server SDK merges its contexts for every evaluation.
      for (let i = 0; i < BLOCK; i++) provider.resolveBooleanEvaluation(flag, false, { ...made.oneUser }, console);
    };
    for (let i = 0; i < count / BLOCK / 10; i++) block();
    const samples = new Float64Array(Math.max(1, Math.floor(count / BLOCK)));
    for (let i = 0; i < samples.length; i++) {
      const start = process.hrtime.bigint();
      block();
      samples[i] = Number(process.hrtime.bigint() - start) / BLOCK;
    }
    const read = provider.resolveBooleanEvaluation(flag, false, { ...made.oneUser });
    if (typeof read.then === "function" || typeof read.value !== "boolean") throw new Error(`a held read answered ${JSON.stringify(read)}`);
    return samples;
  } finally {
    await provider.onClose();
    await client.close();
  }
}

const modes = [
  ["round trips", "raw pipe", () => rawPipe(roundTrips, { parse: false })],
  ["round trips", "raw pipe + JSON", () => rawPipe(roundTrips, { parse: true })],
  ["round trips", "client.evaluateFlag", () => clientCalls(roundTrips)],
  ["round trips", "BuntingProvider dynamic", () => dynamicProvider(roundTrips)],
  ["attribute rule, one user", "BuntingProvider static", () => staticReads("attribute-rule", reads)],
  ["25/75 rollout, one user", "BuntingProvider static", () => staticReads("rollout", reads)],
];

const samples = new Map();
for (let round = 0; round < rounds; round++) {
  const shift = (round * 2) % modes.length;
  for (const [group, name, measure] of [...modes.slice(shift), ...modes.slice(0, shift)]) {
    const key = `${group}\t${name}`;
    const measured = await measure();
    samples.set(key, [...(samples.get(key) ?? []), ...measured]);
  }
  process.stderr.write(`node: round ${round + 1} of ${rounds} done\n`);
}

function summary(values) {
  const ordered = Float64Array.from(values).sort();
  const at = (fraction) => ordered[Math.min(ordered.length - 1, Math.floor(fraction * ordered.length))] / 1000;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), mean: ordered.reduce((a, b) => a + b, 0) / ordered.length / 1000, count: ordered.length };
}

const rows = [...samples].map(([key, values]) => {
  const [group, mode] = key.split("\t");
  return { language: "node", group, mode, ...summary(values) };
});
writeFileSync(values.json, `${JSON.stringify({ node: process.version, rounds, roundTrips, reads, rows }, null, 1)}\n`);
