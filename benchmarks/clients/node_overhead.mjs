#!/usr/bin/env node
// What the Node client adds to a call: ping-pong round trips of getFeatureFlag
// through the client (`await client.getFeatureFlag(...)`), next to a raw loop
// over the same kind of child-process pipes (write the request, wait for the
// reply's last byte), in the same run against the same release binary. Both
// framings. Rounds alternate which goes first; each measurement is a fresh
// server, set up the same way (a synced user, so the flag is found). Besides the
// round-trip percentiles it reports the CPU time this Node process spent per call,
// which other load on the machine disturbs less than latency.
//
//   node benchmarks/clients/node_overhead.mjs [--binary PATH] [--rounds N] [--round-trips N]
//                                             [--warmup N] [--json PATH]
//
// The binary: --binary, else BUNTING_BIN, else .build/release/bunting (build it with
// `swift build -c release --static-swift-stdlib --product bunting`).

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { parseArgs } from "node:util";
import { Bunting, findBinary } from "../../clients/node/index.js";

const { values } = parseArgs({
  options: {
    binary: { type: "string" },
    rounds: { type: "string", default: "5" },
    "round-trips": { type: "string", default: "20000" },
    warmup: { type: "string", default: "2000" },
    json: { type: "string" },
  },
});
const binary = findBinary({ binary: values.binary });
const rounds = Number(values.rounds);
const roundTrips = Number(values["round-trips"]);
const warmup = Number(values.warmup);
const FLAG = "new-checkout"; // in the bundled example definitions
const SERVE = ["serve", "--storage", ":memory:"];

/** Nanoseconds of each measured round trip. */
async function measureClient(framing) {
  const client = await Bunting.spawn({ binary, framing, storage: ":memory:" });
  try {
    const flags = await client.subscribe({ channel: "featureFlags" });
    await client.changeUser({ userId: "bench", attributes: { tier: "gold" } });
    await flags.waitFor({ type: "DATA_UPDATED" });
    await flags.unsubscribe();
    const reply = await client.getFeatureFlag({ id: FLAG });
    if (reply?.id !== FLAG) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
    for (let i = 0; i < warmup; i++) await client.getFeatureFlag({ id: FLAG });
    const samples = new Float64Array(roundTrips);
    const cpu = process.cpuUsage();
    for (let i = 0; i < roundTrips; i++) {
      const start = process.hrtime.bigint();
      await client.getFeatureFlag({ id: FLAG });
      samples[i] = Number(process.hrtime.bigint() - start);
    }
    return { samples, cpu: cpuPerCall(cpu) };
  } finally {
    await client.close();
  }
}

/**
 * The floor: the same pipes with nothing in between. Each reply is checked by
 * its first bytes; `parse` also JSON.parses it, as any client must.
 */
async function measureRaw(framing, { parse }) {
  const child = spawn(binary, [...SERVE, "--framing", framing], { stdio: ["pipe", "pipe", "ignore"] });
  const frame = framing === "lsp" ? (json) => `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}` : (json) => `${json}\n`;
  const reader = framing === "lsp" ? lspReader() : ndjsonReader();
  // Messages not yet taken, and the taker waiting for the next one.
  const arrived = [];
  let waiting = null;
  child.stdout.on("data", (chunk) => {
    for (const message of reader(chunk)) {
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve(message);
      } else {
        arrived.push(message);
      }
    }
  });
  const next = () => (arrived.length > 0 ? Promise.resolve(arrived.shift()) : new Promise((resolve) => (waiting = resolve)));
  const send = (object) => child.stdin.write(frame(JSON.stringify(object)));
  try {
    // The same set-up as the client's: subscribe, change user, wait for the refresh.
    send({ jsonrpc: "2.0", id: "s", method: "subscribe", params: { channel: "featureFlags" } });
    const { subscriptionId } = JSON.parse(await next()).result;
    send({ jsonrpc: "2.0", id: "u", method: "changeUser", params: { userId: "bench", attributes: { tier: "gold" } } });
    while (!(await next()).toString().includes('"type":"DATA_UPDATED"'));
    send({ jsonrpc: "2.0", id: "r", method: "removeSubscription", params: { subscriptionId } });
    while (!(await next()).toString().includes('"id":"r"'));
    if (arrived.length > 0) throw new Error(`unexpected messages: ${arrived.join("\n")}`);
    const request = frame(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "getFeatureFlag", params: { id: FLAG } }));
    const expected = Buffer.from('{"jsonrpc":"2.0","id":7,"result":{"id":"new-checkout"');
    const once = async () => {
      const reply = next();
      child.stdin.write(request);
      const message = await reply;
      if (parse) {
        if (JSON.parse(message.toString()).result.id !== FLAG) throw new Error("unexpected reply");
      } else if (message.compare(expected, 0, expected.length, 0, expected.length) !== 0) {
        throw new Error(`unexpected reply ${message}`);
      }
    };
    for (let i = 0; i < warmup; i++) await once();
    const samples = new Float64Array(roundTrips);
    const cpu = process.cpuUsage();
    for (let i = 0; i < roundTrips; i++) {
      const start = process.hrtime.bigint();
      await once();
      samples[i] = Number(process.hrtime.bigint() - start);
    }
    return { samples, cpu: cpuPerCall(cpu) };
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once("close", resolve));
  }
}

function ndjsonReader() {
  let pending = [];
  return (chunk) => {
    const messages = [];
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, newline));
      messages.push(pending.length === 1 ? pending[0] : Buffer.concat(pending));
      pending = [];
      start = newline + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
    return messages;
  };
}

function lspReader() {
  let buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const messages = [];
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end === -1) break;
      const length = Number(/Content-Length: *(\d+)/i.exec(buffer.toString("latin1", 0, end))[1]);
      if (buffer.length < end + 4 + length) break;
      messages.push(buffer.subarray(end + 4, end + 4 + length));
      buffer = buffer.subarray(end + 4 + length);
    }
    return messages;
  };
}

/** Microseconds of this process's CPU (user + system) per round trip since `start`. */
function cpuPerCall(start) {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / roundTrips;
}

/** Nearest-rank percentile of sorted samples, in microseconds. */
function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] / 1000;
}

const modes = [
  ["raw pipe", (framing) => measureRaw(framing, { parse: false })],
  ["raw pipe + JSON.parse", (framing) => measureRaw(framing, { parse: true })],
  ["client", (framing) => measureClient(framing)],
];
const results = {};
for (let round = 0; round < rounds; round++) {
  for (const framing of ["ndjson", "lsp"]) {
    const order = round % 2 === 0 ? modes : [...modes].reverse();
    for (const [name, measure] of order) {
      const measured = await measure(framing);
      ((results[framing] ??= {})[name] ??= []).push(measured);
      const p50 = percentile(Float64Array.from(measured.samples).sort(), 50);
      process.stderr.write(`round ${round + 1}/${rounds} ${framing} ${name}: p50 ${p50.toFixed(1)} µs, CPU ${measured.cpu.toFixed(1)} µs a call\n`);
    }
  }
}

const rows = [];
for (const framing of ["ndjson", "lsp"]) {
  const stats = {};
  for (const [name] of modes) {
    const measured = results[framing][name];
    const pooled = Float64Array.from(measured.flatMap(({ samples }) => Array.from(samples))).sort();
    const cpus = measured.map(({ cpu }) => cpu).sort((a, b) => a - b);
    stats[name] = {
      p50: percentile(pooled, 50),
      p90: percentile(pooled, 90),
      p99: percentile(pooled, 99),
      roundP50s: measured.map(({ samples }) => percentile(Float64Array.from(samples).sort(), 50)),
      // The median round's: CPU time is less disturbed by other processes than latency.
      cpu: cpus[Math.floor(cpus.length / 2)],
    };
  }
  const base = stats["raw pipe"];
  for (const [name] of modes) {
    const s = stats[name];
    rows.push({
      framing,
      mode: name,
      ...s,
      p50Ratio: s.p50 / base.p50,
      p99Ratio: s.p99 / base.p99,
      p50Added: s.p50 - base.p50,
      cpuRatio: s.cpu / base.cpu,
    });
  }
}

const fmt = (n) => n.toFixed(1);
const header = ["framing", "mode", "p50 µs", "p90 µs", "p99 µs", "p50 ×raw", "p99 ×raw", "p50 added µs", "node CPU µs/call", "CPU ×raw", "round p50s µs"];
const table = rows.map((r) => [
  r.framing,
  r.mode,
  fmt(r.p50),
  fmt(r.p90),
  fmt(r.p99),
  `${r.p50Ratio.toFixed(2)}×`,
  `${r.p99Ratio.toFixed(2)}×`,
  fmt(r.p50Added),
  fmt(r.cpu),
  `${r.cpuRatio.toFixed(2)}×`,
  r.roundP50s.map(fmt).join(" "),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
console.log(`getFeatureFlag ping-pong, ${rounds} rounds × ${roundTrips} round trips (after ${warmup} warm-up) per mode and framing`);
console.log(`binary ${binary}; node ${process.version}; ${availableParallelism()} CPUs (${cpus()[0]?.model ?? "?"})`);
console.log(line(header));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const row of table) console.log(line(row));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ binary, node: process.version, rounds, roundTrips, warmup, rows }, null, 2)}\n`);
