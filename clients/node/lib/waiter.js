// One pending `waitFor` (or a pending `next()` of an iterator): a matcher, a
// deadline, and the list it sits in until an event or an error settles it.

import { BuntingTimeoutError } from "./errors.js";
import { describeFilter, eventMatcher } from "./event-filter.js";

let lastOrder = 0;

/**
 * What a connection gives its waiters: `hold()` while something waits on the server,
 * `release()` once it no longer does. The process stays alive while anything holds it.
 */
export const keepAlive = Symbol("keepAlive");

export class Waiter {
  /**
   * @param {object} filter the caller's filter (with `timeout` and `signal`)
   * @param {number} defaultTimeout milliseconds, when the filter gives none
   * @param {Waiter[]} list where it waits; it removes itself when settled
   * @param {{hold: () => void, release: () => void}} [alive] held until it is settled
   */
  constructor(filter, defaultTimeout, list, alive) {
    this.matches = eventMatcher(filter);
    this.#alive = alive;
    // Registration order decides which waiter gets an event that several would take.
    this.order = ++lastOrder;
    this.#list = list;
    this.promise = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    const timeout = filter.timeout ?? defaultTimeout;
    if (Number.isFinite(timeout)) {
      this.#timer = setTimeout(() => this.fail(new BuntingTimeoutError(describeFilter(filter), timeout)), timeout);
    }
    const signal = filter.signal;
    if (signal) {
      if (signal.aborted) {
        queueMicrotask(() => this.fail(signal.reason));
      } else {
        this.#onAbort = () => this.fail(signal.reason);
        this.#signal = signal;
        signal.addEventListener("abort", this.#onAbort, { once: true });
      }
    }
    list.push(this);
    alive?.hold();
  }

  #list;
  #alive;
  #resolve;
  #reject;
  #timer;
  #signal;
  #onAbort;
  settled = false;

  /** @returns {boolean} whether the event is one this waiter takes; a throwing predicate fails it */
  accepts(event) {
    try {
      return this.matches(event);
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  take(event) {
    if (this.#settle()) this.#resolve(event);
  }

  fail(error) {
    if (this.#settle()) this.#reject(error);
  }

  #settle() {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
    const index = this.#list.indexOf(this);
    if (index !== -1) this.#list.splice(index, 1);
    this.#alive?.release();
    return true;
  }
}

/** @returns {Waiter | undefined} the earliest waiter of the list that takes the event */
export function firstAccepting(list, event) {
  for (const waiter of list.slice()) {
    if (!waiter.settled && waiter.accepts(event)) return waiter;
  }
  return undefined;
}
