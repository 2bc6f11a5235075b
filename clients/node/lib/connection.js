// JSON-RPC over a pair of streams: numbered requests with a deadline each,
// replies matched by id, notifications routed to their subscription. The
// process around it (lib/bunting.js) decides when the connection ends.

import { EventEmitter } from "node:events";
import { BuntingClosedError, BuntingTimeoutError, errorFromReply } from "./errors.js";
import { eventMatcher } from "./event-filter.js";
import { framingFor } from "./framing.js";
import { deliver, end, peekQueued, Subscription, takeQueued } from "./subscription.js";
import { firstAccepting, keepAlive, Waiter } from "./waiter.js";

const DEFAULT_CALL_TIMEOUT = 30_000;
const DEFAULT_MAX_BUFFERED_EVENTS = 10_000;

export class Connection extends EventEmitter {
  #output;
  #encode;
  #decoder;
  #nextId = 0;
  /**
   * The calls awaiting their reply, in the order they were made.
   * @type {Map<number, {method: string, params: any, resolve: Function, reject: Function, deadline: number,
   *   timeout: number, onResult?: Function, signal?: AbortSignal, onAbort?: Function}>}
   */
  #pending = new Map();
  /**
   * One timer for every call's deadline, armed for the earliest: a timer per call
   * cost about as much as the rest of the client's work on a call.
   */
  #deadlineTimer = undefined;
  #timerDeadline = Infinity;
  /** Calls that timed out but whose late reply still matters (a subscription to undo). */
  #late = new Map();
  /** @type {Map<string, Subscription>} the live subscriptions, by id: where events go */
  #subscriptions = new Map();
  /** @type {Set<Subscription>} the live ones and the ended ones with events still queued: where `waitFor` looks */
  #queues = new Set();
  /** @type {Waiter[]} waiters of the client-wide `waitFor` */
  #waiters = [];
  #eventSeq = 0;
  #maxBufferedEvents;
  /** @type {Error | null} why the connection ended, once it has */
  #ended = null;
  /** @type {{why: string, details: object} | null} what each call's closed error is made of */
  #closedDetails = null;
  /** @type {{ref?: () => void, unref?: () => void}[]} what keeps the process alive while a call or a wait is pending */
  #handles;
  /**
   * How many calls and waits are pending. The server's output keeps the process
   * alive only while one is: a program that is done with its client exits without
   * `close()`, and its server then ends with its input.
   */
  #holds = 0;
  [keepAlive] = {
    hold: () => {
      if (this.#holds++ === 0) for (const handle of this.#handles) handle.ref?.();
    },
    release: () => {
      if (--this.#holds === 0) for (const handle of this.#handles) handle.unref?.();
    },
  };

  /**
   * @param {{input: import("node:stream").Readable, output: import("node:stream").Writable,
   *   framing?: "ndjson" | "lsp", callTimeout?: number, maxBufferedEvents?: number,
   *   handles?: {ref?: () => void, unref?: () => void}[]}} options `handles` (the input by
   *   default) keep the process alive while a call or a wait is pending, and only then
   */
  constructor({ input, output, framing = "ndjson", callTimeout = DEFAULT_CALL_TIMEOUT, maxBufferedEvents = DEFAULT_MAX_BUFFERED_EVENTS, handles = [input] }) {
    super();
    const { decoder, encode } = framingFor(framing);
    this.#decoder = decoder;
    this.#encode = encode;
    this.#output = output;
    this.#maxBufferedEvents = maxBufferedEvents;
    /** The framing of both directions. */
    this.framing = framing;
    /** Milliseconds a call (and a `waitFor`) may take when it does not say; Infinity for no limit. */
    this.callTimeout = callTimeout;
    this.#handles = handles;
    input.on("data", (chunk) => this.#read(chunk));
    for (const handle of handles) handle.unref?.();
  }

  /** Whether the connection has ended; every call then rejects. */
  get closed() {
    return this.#ended !== null;
  }

  /** The live subscriptions, by id. */
  get subscriptions() {
    return new Map(this.#subscriptions);
  }

  /**
   * Calls a method by name with by-name params; resolves to its result.
   * @param {string} method
   * @param {object} [params]
   * @param {{timeout?: number, signal?: AbortSignal}} [options]
   */
  call(method, params, options) {
    return this.#request(method, params, options, undefined);
  }

  /** Sends a notification: the method runs, and no reply comes. */
  notify(method, params) {
    if (this.#ended) throw this.#closedError(method);
    this.#send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /**
   * Calls a method that answers `{subscriptionId}` (or null) and resolves to a
   * Subscription (or null). The Subscription exists before the next message is
   * read, so the events that follow the reply at once are kept for it.
   */
  subscribeWith(method, params, options) {
    return this.#request(method, params, options, (result) => this.#adopt(method, params, result));
  }

  /**
   * Takes the first event of any subscription that matches: one already arrived
   * (oldest first), else the next to arrive. Events it does not match stay.
   * @param {{type?: string | string[], channel?: string | string[], reason?: string | string[],
   *   action?: string | string[], subscriptionId?: string | string[], predicate?: Function,
   *   timeout?: number, signal?: AbortSignal}} [filter]
   */
  waitFor(filter = {}) {
    let waiter;
    try {
      const matches = eventMatcher(filter);
      let earliest;
      for (const subscription of this.#queues) {
        if (subscription.ended && subscription.bufferedCount === 0) {
          this.#queues.delete(subscription);
          continue;
        }
        const queued = subscription[peekQueued](matches);
        if (queued && (!earliest || queued.seq < earliest.queued.seq)) earliest = { subscription, queued };
      }
      if (earliest) {
        const { subscription, queued } = earliest;
        return Promise.resolve(subscription[takeQueued]((event) => event === queued.event).event);
      }
      if (this.#ended) return Promise.reject(this.#ended);
      waiter = new Waiter(filter, this.callTimeout, this.#waiters, this[keepAlive]);
    } catch (error) {
      return Promise.reject(error);
    }
    return waiter.promise;
  }

  /**
   * Ends the connection: pending calls, waiters and subscriptions fail with a
   * BuntingClosedError that says why (with the server's last stderr lines).
   * @param {string} why
   * @param {{exitCode?: number | null, signal?: string | null, stderr?: string[]}} [details]
   */
  terminate(why, details = {}) {
    if (this.#ended) return;
    this.#ended = new BuntingClosedError(why, details);
    this.#closedDetails = { why, details };
    clearTimeout(this.#deadlineTimer);
    this.#timerDeadline = Infinity;
    for (const [id, entry] of this.#pending) {
      this.#pending.delete(id);
      entry.signal?.removeEventListener("abort", entry.onAbort);
      entry.reject(this.#closedError(entry.method));
    }
    for (let count = this.#late.size; count > 0; count--) this[keepAlive].release();
    this.#late.clear();
    for (const waiter of this.#waiters.slice()) waiter.fail(this.#ended);
    for (const subscription of this.#subscriptions.values()) this.#endSubscription(subscription, this.#ended);
    this.emit("close", this.#ended);
  }

  #closedError(method) {
    const { why, details } = this.#closedDetails ?? { why: "the connection is closed", details: {} };
    return new BuntingClosedError(why, { ...details, method });
  }

  #request(method, params, options = {}, onResult) {
    if (this.#ended) return Promise.reject(this.#closedError(method));
    if (params !== undefined && (params === null || typeof params !== "object" || Array.isArray(params))) {
      return Promise.reject(new TypeError(`${method}: params must be an object`));
    }
    const id = ++this.#nextId;
    let json;
    try {
      json =
        params === undefined
          ? `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}}`
          : `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`;
    } catch (error) {
      return Promise.reject(error);
    }
    const timeout = options.timeout ?? this.callTimeout;
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((settleResolve, settleReject) => {
      const alive = this[keepAlive];
      alive.hold();
      const resolve = (value) => {
        alive.release();
        settleResolve(value);
      };
      const reject = (error) => {
        alive.release();
        settleReject(error);
      };
      const deadline = Number.isFinite(timeout) ? performance.now() + timeout : Infinity;
      const entry = { method, params, resolve, reject, deadline, timeout, onResult, onAbort: undefined, signal };
      if (deadline < this.#timerDeadline) this.#armDeadlineTimer(deadline);
      if (signal) {
        entry.onAbort = () => this.#abandon(id, signal.reason);
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      this.#pending.set(id, entry);
      this.#output.write(this.#encode(json));
    });
  }

  #send(message) {
    this.#output.write(this.#encode(JSON.stringify(message)));
  }

  /** Gives up on a call (timeout or abort); the server still runs it. */
  #abandon(id, error) {
    const entry = this.#pending.get(id);
    if (!entry) return;
    this.#pending.delete(id);
    entry.signal?.removeEventListener("abort", entry.onAbort);
    // A subscription made after the caller gave up would never be removed: undo it when it
    // comes (the process waits for that reply as for any other).
    if (entry.onResult) {
      this[keepAlive].hold();
      this.#late.set(id, entry);
    }
    entry.reject(error);
  }

  #armDeadlineTimer(deadline) {
    clearTimeout(this.#deadlineTimer);
    this.#timerDeadline = deadline;
    this.#deadlineTimer = setTimeout(() => this.#expireCalls(), Math.max(0, deadline - performance.now()));
    // The process's pipes keep Node running while calls are pending; the timer need not.
    this.#deadlineTimer.unref?.();
  }

  /** Rejects the calls past their deadline, and arms the timer for the next one. */
  #expireCalls() {
    this.#timerDeadline = Infinity;
    // Timers count whole milliseconds: a deadline within one is due.
    const now = performance.now() + 1;
    let next = Infinity;
    for (const [id, entry] of this.#pending) {
      if (entry.deadline <= now) {
        this.#abandon(id, new BuntingTimeoutError(entry.method, entry.timeout, { method: entry.method }));
      } else if (entry.deadline < next) {
        next = entry.deadline;
      }
    }
    if (next < Infinity) this.#armDeadlineTimer(next);
  }

  #read(chunk) {
    let bodies;
    try {
      bodies = this.#decoder.push(chunk);
    } catch (error) {
      this.emit("protocolError", error);
      this.terminate(`the server's output cannot be read: ${error.message}`);
      return;
    }
    for (const body of bodies) {
      let message;
      try {
        message = JSON.parse(body);
      } catch (error) {
        this.emit("protocolError", new Error(`the server sent a message that is not JSON: ${error.message}`));
        continue;
      }
      if (Array.isArray(message)) {
        for (const element of message) this.#dispatch(element);
      } else {
        this.#dispatch(message);
      }
    }
  }

  #dispatch(message) {
    if (message === null || typeof message !== "object") return;
    if (typeof message.method === "string") {
      if (message.id === undefined) this.#notification(message.method, message.params);
      return;
    }
    const entry = this.#pending.get(message.id);
    if (!entry) {
      const late = this.#late.get(message.id);
      if (late) {
        this.#late.delete(message.id);
        this[keepAlive].release();
      }
      if (late && message.result && typeof message.result.subscriptionId === "string") {
        this.notify("removeSubscription", { subscriptionId: message.result.subscriptionId });
      } else if (!late) {
        this.emit("unexpectedReply", message);
      }
      return;
    }
    this.#pending.delete(message.id);
    entry.signal?.removeEventListener("abort", entry.onAbort);
    if (message.error !== undefined) {
      entry.reject(errorFromReply(message.error, entry.method));
      return;
    }
    let result = message.result;
    if (entry.method === "removeSubscription" && result?.removed) {
      const subscription = this.#subscriptions.get(entry.params?.subscriptionId);
      if (subscription) this.#endSubscription(subscription, new BuntingClosedError(`subscription ${subscription.id} was removed`));
    }
    if (entry.onResult) {
      try {
        result = entry.onResult(result);
      } catch (error) {
        entry.reject(error);
        return;
      }
    }
    entry.resolve(result);
  }

  #adopt(method, params, result) {
    if (result === null || result === undefined) return null;
    if (typeof result.subscriptionId !== "string") {
      throw new Error(`${method} answered ${JSON.stringify(result)} instead of {subscriptionId}`);
    }
    const subscription = new Subscription(this, {
      id: result.subscriptionId,
      channel: params?.channel,
      method,
      maxBuffered: this.#maxBufferedEvents,
    });
    this.#subscriptions.set(subscription.id, subscription);
    this.#queues.add(subscription);
    return subscription;
  }

  #notification(method, params) {
    this.emit("notification", method, params);
    if (typeof params?.subscriptionId !== "string") return;
    const subscription = this.#subscriptions.get(params.subscriptionId);
    if (!subscription) {
      // Removed, or given up on before its reply came: seen by the client's listeners only.
      this.emit("event", params, undefined);
      return;
    }
    this.emit("event", params, subscription);
    const clientWaiter = firstAccepting(this.#waiters, params);
    subscription[deliver](++this.#eventSeq, params, clientWaiter);
  }

  #endSubscription(subscription, error) {
    this.#subscriptions.delete(subscription.id);
    if (subscription.bufferedCount === 0) this.#queues.delete(subscription);
    subscription[end](error);
  }
}
