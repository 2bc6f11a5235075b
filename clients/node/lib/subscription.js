// A subscription of the server (`subscribe`, `subscribeToUpdates`, and any later
// method that answers `{subscriptionId}`), seen three ways at once:
// - an EventEmitter of "event": every event, as it arrives;
// - an async iterator of the events not yet taken;
// - `waitFor(filter)`, which takes the first matching event, already arrived or not.
// An event goes once to each: to the "event" listeners, and to the first waiter
// (of `waitFor`, an iterator, or the client's `waitFor`) that accepts it. Only an
// event that found neither is kept, in one queue: the replay that follows the
// subscribe reply before the caller could add a listener, the events a request
// caused before its caller awaits them. The first listener added takes the queue
// over; while a subscription has a listener it keeps nothing, so a program that
// only listens holds no event in memory.

import { EventEmitter } from "node:events";
import { BuntingClosedError } from "./errors.js";
import { eventMatcher } from "./event-filter.js";
import { firstAccepting, keepAlive, Waiter } from "./waiter.js";

/** Internal entry points of the connection that owns the subscription. */
export const deliver = Symbol("deliver");
export const takeQueued = Symbol("takeQueued");
export const peekQueued = Symbol("peekQueued");
export const end = Symbol("end");

export class Subscription extends EventEmitter {
  /** @type {{seq: number, event: object}[]} events that found neither a listener nor a waiter, in arrival order */
  #queue = [];
  /** @type {Waiter[]} */
  #waiters = [];
  #connection;
  #maxBuffered;
  #ended = null;
  #dropped = 0;

  /**
   * @param {object} connection the client that made it
   * @param {{id: string, channel: string, method: string, maxBuffered: number}} details
   */
  constructor(connection, { id, channel, method, maxBuffered }) {
    super();
    this.#connection = connection;
    this.#maxBuffered = maxBuffered;
    /** The server's subscription id. */
    this.id = id;
    /** The channel subscribed to. */
    this.channel = channel;
    /** The method that made it, e.g. `subscribe`. */
    this.method = method;
    this.on("newListener", (name) => {
      if (name !== "event" || this.#queue.length === 0 || this.listenerCount("event") > 0) return;
      // The first listener takes over what was kept. Taken now, so that no waiter takes
      // it meanwhile; emitted once the listener is in place (newListener fires before),
      // and before any later event: those come from I/O callbacks, after the microtasks.
      const kept = this.#queue.splice(0);
      queueMicrotask(() => {
        for (const { event } of kept) this.emit("event", event);
      });
    });
  }

  /** Whether the subscription has ended (removed, or the client closed). */
  get ended() {
    return this.#ended !== null;
  }

  /** How many arrived events are waiting to be taken. */
  get bufferedCount() {
    return this.#queue.length;
  }

  /** Events dropped, oldest first, because more than `maxBufferedEvents` waited to be taken. */
  get droppedCount() {
    return this.#dropped;
  }

  /** Takes every arrived event not yet taken, oldest first. */
  takeBuffered() {
    return this.#queue.splice(0).map((entry) => entry.event);
  }

  /**
   * Takes the first event that matches: one already arrived, else the next to arrive.
   * @param {{type?: string | string[], reason?: string | string[], action?: string | string[],
   *   predicate?: (event: object) => boolean, timeout?: number, signal?: AbortSignal}} [filter]
   */
  waitFor(filter = {}) {
    let waiter;
    try {
      const queued = this[takeQueued](eventMatcher(filter));
      if (queued !== undefined) return Promise.resolve(queued.event);
      if (this.#ended) return Promise.reject(this.#ended);
      waiter = new Waiter(filter, this.#connection.callTimeout, this.#waiters, this.#connection[keepAlive]);
    } catch (error) {
      return Promise.reject(error);
    }
    return waiter.promise;
  }

  /** Ends the subscription on the server (`removeSubscription`); resolves to `{removed}`. */
  async unsubscribe(options) {
    if (this.#ended) return { removed: false };
    return this.#connection.call("removeSubscription", { subscriptionId: this.id }, options);
  }

  /** Unsubscribes, unless it has ended or the client is closed (for Symbol.asyncDispose). */
  async dispose() {
    if (!this.#ended && !this.#connection.closed) await this.unsubscribe();
  }

  [Symbol.asyncIterator]() {
    const subscription = this;
    const mine = new Set();
    return {
      next() {
        const queued = subscription[takeQueued](() => true);
        if (queued !== undefined) return Promise.resolve({ value: queued.event, done: false });
        if (subscription.#ended) return Promise.resolve({ value: undefined, done: true });
        const waiter = new Waiter({ timeout: Infinity }, Infinity, subscription.#waiters, subscription.#connection[keepAlive]);
        waiter.iterator = true;
        mine.add(waiter);
        return waiter.promise.then(
          (event) => {
            mine.delete(waiter);
            return { value: event, done: false };
          },
          (error) => {
            mine.delete(waiter);
            // The end of the subscription is the end of the iteration, not an error.
            if (error === subscription.#ended || error === endOfIteration) return { value: undefined, done: true };
            throw error;
          },
        );
      },
      return() {
        for (const waiter of mine) waiter.fail(subscription.#ended ?? endOfIteration);
        mine.clear();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** Called by the connection for each event of this subscription. */
  [deliver](seq, event, clientWaiter) {
    const mine = firstAccepting(this.#waiters, event);
    // Whoever asked first gets it: a waiter of this subscription or one of the client.
    const taker = mine && clientWaiter ? (mine.order < clientWaiter.order ? mine : clientWaiter) : mine ?? clientWaiter;
    const heard = this.listenerCount("event") > 0;
    if (heard) this.emit("event", event);
    if (taker) {
      taker.take(event);
      return;
    }
    if (heard) return;
    this.#queue.push({ seq, event });
    if (this.#queue.length > this.#maxBuffered) {
      this.#queue.shift();
      this.#dropped += 1;
    }
  }

  /** @returns {{seq: number, event: object} | undefined} the first queued match, removed */
  [takeQueued](matches) {
    const index = this.#queue.findIndex((entry) => matches(entry.event));
    return index === -1 ? undefined : this.#queue.splice(index, 1)[0];
  }

  /** @returns {{seq: number, event: object} | undefined} the first queued match, left in place */
  [peekQueued](matches) {
    return this.#queue.find((entry) => matches(entry.event));
  }

  /** Called by the connection when the subscription is removed or the client closes. */
  [end](error) {
    if (this.#ended) return;
    this.#ended = error;
    for (const waiter of this.#waiters.slice()) waiter.fail(error);
    this.emit("end", error);
  }
}

const endOfIteration = new BuntingClosedError("the iteration was ended");

if (typeof Symbol.asyncDispose === "symbol") {
  // `await using flags = await client.subscribe(...)` unsubscribes at the end of the block.
  Object.defineProperty(Subscription.prototype, Symbol.asyncDispose, {
    value: async function asyncDispose() {
      await this.dispose();
    },
    configurable: true,
    writable: true,
  });
}
