// The client of one `bunting serve` process: spawns it, drains its stderr,
// and ends it with `shutdown`, killing it only when it does not exit in time.

import { spawn as spawnProcess } from "node:child_process";
import { once } from "node:events";
import { findBinary } from "./find-binary.js";
import { framingFor } from "./framing.js";
import { BuntingMethods } from "./methods.generated.js";
import { serveArguments } from "./serve-arguments.js";
import { StderrTail } from "./stderr-tail.js";

const DEFAULT_CLOSE_TIMEOUT = 5_000;
const DEFAULT_STDERR_LINES = 50;

export class Bunting extends BuntingMethods {
  /**
   * Starts `bunting serve` and resolves to its client once the process runs.
   * Options the client does not use itself become `bunting serve` flags:
   * `{definitions: "d.json", pollInterval: 2, header: ["A: b"]}` →
   * `--definitions d.json --poll-interval 2 --header 'A: b'`.
   * @param {import("../index.js").SpawnOptions} [options]
   * @returns {Promise<Bunting>}
   */
  static async spawn(options = {}) {
    const framing = options.framing ?? "ndjson";
    framingFor(framing);
    const env = options.env ?? process.env;
    const binary = findBinary({ binary: options.binary, env, cwd: options.cwd });
    const args = serveArguments(options, framing);
    const child = spawnProcess(binary, args, { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const client = new Bunting(child, { ...options, framing, binary, args });
    await new Promise((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    return client;
  }

  #child;
  #stderr;
  #closeTimeout;
  #exit = null;
  #exited;
  #closing = null;
  #killed = false;

  /** Use `Bunting.spawn`. */
  constructor(child, options) {
    super({
      input: child.stdout,
      output: child.stdin,
      framing: options.framing,
      callTimeout: options.callTimeout,
      maxBufferedEvents: options.maxBufferedEvents,
      // A pending call ends with the server's reply or its exit: both must be waited for.
      handles: [child.stdout, child],
    });
    this.#child = child;
    this.#closeTimeout = options.closeTimeout ?? DEFAULT_CLOSE_TIMEOUT;
    this.#stderr = new StderrTail(options.stderrLines ?? DEFAULT_STDERR_LINES);
    /** The binary and arguments the server was started with. */
    this.command = [options.binary, ...options.args];

    // Neither the child nor its pipes keep this process alive: the connection holds the
    // output while a call or a wait is pending. A program that forgets close() exits, and
    // the server ends with its input, as after close().
    child.stdin.unref?.();
    child.stderr.unref?.();
    // The pipes' own errors (EPIPE once the server is gone) are told through the end of the process.
    child.stdin.on("error", () => {});
    child.stdout.on("error", () => {});
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text) => {
      for (const line of this.#stderr.push(text)) this.emit("stderr", line);
    });
    child.stderr.on("end", () => {
      const rest = this.#stderr.end();
      if (rest !== undefined) this.emit("stderr", rest);
    });
    // "close" comes after "exit" and after stdout and stderr ended: every reply and
    // every line of stderr has been read by then.
    this.#exited = new Promise((resolve) => {
      child.once("close", (exitCode, signal) => {
        this.#exit = { exitCode, signal, killed: this.#killed };
        this.terminate(this.#describeExit(), { exitCode, signal, stderr: this.#stderr.lines });
        this.emit("exit", this.#exit);
        resolve(this.#exit);
      });
    });
    // The connection ends by itself when the output cannot be read: the server, alive
    // but not understood, is asked to stop.
    this.once("close", () => {
      if (this.#exit === null) {
        this.#child.stdin.end();
        this.#child.kill("SIGTERM");
      }
    });
    child.once("error", (error) => {
      // A spawn that failed never emits "close" when no pipe was opened.
      if (child.pid === undefined) {
        this.#exit = { exitCode: null, signal: null, killed: false };
        this.terminate(`the server could not be started: ${error.message}`);
      }
    });
  }

  /** The server's process id. */
  get pid() {
    return this.#child.pid;
  }

  /** The last lines the server wrote to stderr (as many as `stderrLines`). */
  get stderrLines() {
    return this.#stderr.lines;
  }

  /** `{exitCode, signal, killed}` once the server has exited and its output is read; null until then. */
  get exitInfo() {
    return this.#exit;
  }

  /** Resolves to `{exitCode, signal, killed}` once the server has exited and its output is read. */
  get exited() {
    // Asked for, the exit is waited for: the process stays alive until it comes.
    if (this.#exit === null) this.#child.ref();
    return this.#exited;
  }

  /**
   * Asks the server to shut down (`shutdown`, which flushes analytics and closes
   * storage), closes its stdin, and waits for it to exit. A server that has not
   * exited within `timeout` ms is killed (SIGKILL). Safe to call more than once.
   * @param {{timeout?: number}} [options]
   * @returns {Promise<{exitCode: number | null, signal: string | null, killed: boolean}>}
   */
  close({ timeout = this.#closeTimeout } = {}) {
    this.#closing ??= this.#close(timeout);
    return this.#closing;
  }

  async #close(timeout) {
    if (this.#exit) return this.#exit;
    // Waited for: the process stays alive until the server has exited.
    this.#child.ref();
    const killer = setTimeout(() => {
      this.#killed = true;
      this.#child.kill("SIGKILL");
    }, timeout);
    try {
      if (!this.closed) await this.call("shutdown", undefined, { timeout });
    } catch {
      // Not answered in time, or the server is already gone: the exit decides.
    }
    this.#child.stdin.end();
    const exit = await this.#exited;
    clearTimeout(killer);
    return exit;
  }

  #describeExit() {
    if (this.#closing && !this.#killed) return "the client was closed";
    const { exitCode, signal } = this.#exit;
    const how = signal ? `was killed by ${signal}` : `exited with status ${exitCode}`;
    return `the server ${how}${this.#killed ? " (it did not exit in time after shutdown)" : ""}`;
  }
}

if (typeof Symbol.asyncDispose === "symbol") {
  // `await using client = await Bunting.spawn()` closes it at the end of the block.
  Object.defineProperty(Bunting.prototype, Symbol.asyncDispose, {
    value: async function asyncDispose() {
      await this.close();
    },
    configurable: true,
    writable: true,
  });
}
