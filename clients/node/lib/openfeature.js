// An OpenFeature provider over a Bunting client, written to the provider
// interface of @openfeature/server-sdk and @openfeature/web-sdk (it imports
// neither: register it with whichever the program uses).
//
// Two paradigms. "dynamic" (the default; OpenFeature's server-side paradigm, a
// context per call) resolves each flag with `evaluateFlag`, given the type asked
// for. "static" (the client-side paradigm, one user at a time) holds every
// flag's resolution for the current evaluation context, from one
// `evaluateFlags` round trip whenever the context changes, kept current on the
// definitions' CHANGED and the feature-flags channel's refreshes: a read finds
// the context held and answers at once, without a promise, as the web SDK
// wants; the server SDK awaits what it is given either way.

import { Bunting } from "./bunting.js";

/** The provider events (the SDKs' ProviderEvents values). */
export const ProviderEvents = Object.freeze({
  Ready: "PROVIDER_READY",
  Error: "PROVIDER_ERROR",
  ConfigurationChanged: "PROVIDER_CONFIGURATION_CHANGED",
  Stale: "PROVIDER_STALE",
});

const PARADIGMS = ["dynamic", "static"];
const ERROR_CODES = new Set([
  "PROVIDER_NOT_READY", "PROVIDER_FATAL", "FLAG_NOT_FOUND", "PARSE_ERROR", "TYPE_MISMATCH",
  "TARGETING_KEY_MISSING", "INVALID_CONTEXT", "GENERAL",
]);
const RESERVED = new Set(["targetingKey", "$flagd"]);

/**
 * The events a provider emits, with the methods the SDKs call on `provider.events`
 * (their ProviderEventEmitter): addHandler, removeHandler, removeAllHandlers,
 * getHandlers, emit, setLogger.
 */
export class ProviderEventEmitter {
  /** @type {Map<string, Set<Function>>} */
  #handlers = new Map();
  #logger = console;

  addHandler(eventType, handler) {
    let handlers = this.#handlers.get(eventType);
    if (!handlers) this.#handlers.set(eventType, (handlers = new Set()));
    handlers.add(handler);
  }

  removeHandler(eventType, handler) {
    this.#handlers.get(eventType)?.delete(handler);
  }

  removeAllHandlers(eventType) {
    if (eventType === undefined) this.#handlers.clear();
    else this.#handlers.delete(eventType);
  }

  getHandlers(eventType) {
    return [...(this.#handlers.get(eventType) ?? [])];
  }

  emit(eventType, details = {}) {
    for (const handler of this.getHandlers(eventType)) {
      try {
        const returned = handler(details);
        if (returned && typeof returned.catch === "function") returned.catch((error) => this.#logger.error?.("a provider event handler failed:", error));
      } catch (error) {
        this.#logger.error?.("a provider event handler failed:", error);
      }
    }
  }

  setLogger(logger) {
    this.#logger = logger;
    return this;
  }
}

export class BuntingProvider {
  /** @readonly */
  metadata = Object.freeze({ name: "bunting" });
  /** @readonly */
  hooks = [];
  /** @readonly */
  events = new ProviderEventEmitter();

  #client;
  #spawnOptions;
  #static;
  #readyTimeout;
  #subscriptions = [];
  /** @type {HeldFlags | null} the static paradigm's flags of the context last asked for */
  #held = null;
  /** The evaluateFlags under way, if any: one at a time, so that the newest answer is kept. */
  #holding = Promise.resolve();
  #changed = false;

  /**
   * @param {Bunting | object} [clientOrOptions] a client (it stays open at onClose), or
   *   the options of `Bunting.spawn` for one the provider spawns at initialize and closes at onClose
   * @param {{paradigm?: "dynamic" | "static", readyTimeout?: number}} [options]
   */
  constructor(clientOrOptions = {}, { paradigm = "dynamic", readyTimeout = 30_000 } = {}) {
    if (!PARADIGMS.includes(paradigm)) {
      throw new TypeError(`paradigm must be "dynamic" or "static", not ${JSON.stringify(paradigm)}`);
    }
    if (clientOrOptions instanceof Bunting) this.#client = clientOrOptions;
    else this.#spawnOptions = clientOrOptions;
    this.#static = paradigm === "static";
    this.#readyTimeout = readyTimeout;
    /** "dynamic" or "static". */
    this.paradigm = paradigm;
  }

  /** The client; set once initialized when the provider spawns its own. */
  get client() {
    return this.#client;
  }

  /** Subscribes to the definitions and resolves at their first READY; rejects on an ERROR with nothing loaded. */
  async initialize(context) {
    this.#client ??= await Bunting.spawn(this.#spawnOptions);
    const client = this.#client;
    const definitions = await client.subscribeToDefinitions();
    if (definitions === null) throw new Error("Bunting's SDK is disabled (subscribeToDefinitions answered null)");
    this.#subscriptions.push(definitions);
    const first = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Bunting loaded no definitions within ${this.#readyTimeout} ms`)), this.#readyTimeout);
      let settled = false;
      definitions.on("event", (event) => {
        if (!settled) {
          // The first READY or ERROR settles initialize; the SDK tells its outcome.
          settled = true;
          clearTimeout(timer);
          resolve(event);
          return;
        }
        this.#onDefinitions(event);
      });
      definitions.once("end", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    if (first.type === "ERROR" && !first.stale) throw new Error(describeError(first));
    if (this.#static) {
      // Refreshes of the flags (a session start, a manual refresh) resolve them again:
      // rules that read $flagd.timestamp may answer otherwise since.
      const flags = await client.subscribe({ channel: "featureFlags" });
      if (flags !== null) {
        this.#subscriptions.push(flags);
        flags.on("event", (event) => this.#onFlags(event));
      }
      await this.#hold(context ?? {});
    }
  }

  /** Removes its subscriptions; closes the client if it spawned it. */
  async onClose() {
    const subscriptions = this.#subscriptions.splice(0);
    this.#held = null;
    if (!this.#client) return;
    if (this.#spawnOptions) {
      await this.#client.close();
      return;
    }
    for (const subscription of subscriptions) await subscription.dispose().catch(() => {});
  }

  /** The web SDK's context change: the new context's flags, resolved before it reads any. */
  onContextChange(_oldContext, newContext) {
    return this.#hold(newContext ?? {}).then(() => undefined);
  }

  resolveBooleanEvaluation(flagKey, defaultValue, context) {
    return this.#resolve(flagKey, defaultValue, context, "boolean");
  }

  resolveStringEvaluation(flagKey, defaultValue, context) {
    return this.#resolve(flagKey, defaultValue, context, "string");
  }

  resolveNumberEvaluation(flagKey, defaultValue, context) {
    return this.#resolve(flagKey, defaultValue, context, "float");
  }

  resolveObjectEvaluation(flagKey, defaultValue, context) {
    return this.#resolve(flagKey, defaultValue, context, "object");
  }

  /**
   * Sends the event to Bunting's `track` for the context's targeting key, with its
   * attributes (the server's current user when the context has none). Does not wait.
   */
  track(trackingEventName, context, trackingEventDetails) {
    const params = { name: trackingEventName };
    if (trackingEventDetails) {
      const { value, ...details } = trackingEventDetails;
      if (value !== undefined) params.value = value;
      if (Object.keys(details).length > 0) params.details = details;
    }
    if (context) {
      const { targetingKey, ...rest } = context;
      if (typeof targetingKey === "string" && targetingKey !== "") params.userId = targetingKey;
      const attributes = Object.fromEntries(Object.entries(rest).filter(([key]) => !RESERVED.has(key)));
      if (Object.keys(attributes).length > 0) params.attributes = attributes;
    }
    this.#client?.track(params).catch((error) => {
      this.events.emit(ProviderEvents.Error, { message: `track ${JSON.stringify(trackingEventName)} failed: ${error.message}` });
    });
  }

  #resolve(flagKey, defaultValue, context = {}, type) {
    if (this.#static) {
      const held = this.#held;
      if (held !== null && sameValue(held.context, context)) return held.resolve(flagKey, defaultValue, type);
      return this.#hold(context).then(
        (again) => again.resolve(flagKey, defaultValue, type),
        (error) => failed(defaultValue, error),
      );
    }
    if (!this.#client) return Promise.resolve(failed(defaultValue, new Error("the provider is not initialized")));
    return this.#client.evaluateFlag({ flagKey, context, type }).then(
      (result) => details(result, defaultValue),
      (error) => failed(defaultValue, error),
    );
  }

  /** The flags of a new context: one evaluateFlags round trip, kept from now on. */
  #hold(context) {
    const holding = this.#holding.then(async () => {
      const held = this.#held;
      if (held !== null && sameValue(held.context, context)) return held;
      if (!this.#client) throw new Error("the provider is not initialized");
      const snapshot = structuredClone(context);
      const reply = await this.#client.evaluateFlags({ context: snapshot });
      return (this.#held = new HeldFlags(snapshot, reply));
    });
    this.#holding = holding.catch(() => {});
    return holding;
  }

  /** Resolves the held context's flags again; then tells `then`. */
  #refresh(then) {
    const refreshed = this.#holding.then(async () => {
      const held = this.#held;
      if (held !== null && this.#client) {
        try {
          this.#held = new HeldFlags(held.context, await this.#client.evaluateFlags({ context: held.context }));
        } catch (error) {
          this.events.emit(ProviderEvents.Error, { message: `resolving the flags again failed: ${error.message}` });
        }
      }
      then?.();
    });
    this.#holding = refreshed;
  }

  #onDefinitions(event) {
    const metadata = eventMetadata(event);
    switch (event.type) {
      case "READY":
        this.events.emit(ProviderEvents.Ready, { metadata });
        break;
      case "CHANGED": {
        const emit = () => this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: event.flagsChanged ?? [], metadata });
        if (!this.#static) {
          emit();
          break;
        }
        // Told once the new document's answers are held: a handler that reads a flag reads those.
        this.#changed = true;
        this.#refresh(emit);
        break;
      }
      case "ERROR":
        this.events.emit(event.stale ? ProviderEvents.Stale : ProviderEvents.Error, { message: describeError(event), errorCode: "GENERAL", metadata });
        break;
    }
  }

  #onFlags(event) {
    if (event.type !== "DATA_UPDATED" || (event.reason !== "AUTO_SERVER_REFRESH" && event.reason !== "MANUAL_SERVER_REFRESH")) return;
    if (this.#changed) {
      this.#changed = false; // the refresh a new document causes: its CHANGED resolved the flags already
      return;
    }
    this.#refresh();
  }
}

/** Every flag's resolution for one context (one evaluateFlags reply), and the details made of them so far. */
class HeldFlags {
  /** @type {Map<string, object>} `${type} ${flagKey}` → details that do not depend on the caller's default */
  #details = new Map();

  constructor(context, reply) {
    if (reply === null || typeof reply !== "object" || reply.flags === null || typeof reply.flags !== "object") {
      throw new Error(`evaluateFlags answered ${JSON.stringify(reply)}`);
    }
    this.context = context;
    this.flags = reply.flags;
  }

  resolve(flagKey, defaultValue, type) {
    const key = `${type} ${flagKey}`;
    const kept = this.#details.get(key);
    if (kept !== undefined) return kept;
    const result = Object.hasOwn(this.flags, flagKey) ? this.flags[flagKey] : undefined;
    if (result === undefined) {
      return details({ value: null, variant: null, reason: "ERROR", errorCode: "FLAG_NOT_FOUND", errorMessage: `flag ${JSON.stringify(flagKey)} not found` }, defaultValue);
    }
    const typedResult = typed(result, type);
    const made = details(typedResult, defaultValue);
    if (!typedResult.errorCode && typedResult.value !== null) this.#details.set(key, Object.freeze(made));
    return made;
  }
}

/** An untyped evaluateFlags result as evaluateFlag with `type` answers it (flagd's checks). */
function typed(result, type) {
  const value = result.value;
  if (result.errorCode || value === null || value === undefined || accepts(type, value)) return result;
  const mismatch = { value: null, variant: null, reason: "ERROR", errorCode: "TYPE_MISMATCH", errorMessage: `expected a value of type ${type}, got ${typeName(value)}` };
  if (result.metadata) mismatch.metadata = result.metadata;
  return mismatch;
}

function accepts(type, value) {
  switch (type) {
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "float":
      return typeof value === "number";
    case "integer":
      return Number.isSafeInteger(value);
    default:
      return typeof value === "object";
  }
}

function typeName(value) {
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string") return "string";
  if (Array.isArray(value)) return "array";
  return value === null ? "null" : "object";
}

/** The SDKs' ResolutionDetails of an evaluateFlag result. */
function details(result, defaultValue) {
  const flagMetadata = primitives(result.metadata);
  if (result.errorCode) {
    return {
      value: defaultValue,
      reason: "ERROR",
      errorCode: ERROR_CODES.has(result.errorCode) ? result.errorCode : "GENERAL",
      errorMessage: result.errorMessage ?? result.errorCode,
      flagMetadata,
    };
  }
  if (result.value === null || result.value === undefined) {
    // A flag whose targeting named no variant and that has no default: the caller's default.
    return { value: defaultValue, variant: result.variant ?? undefined, reason: result.reason ?? "DEFAULT", flagMetadata };
  }
  return { value: result.value, variant: result.variant ?? undefined, reason: result.reason, flagMetadata };
}

/** A failed call, as the caller's default with the error: the SDKs' way to report it. */
function failed(defaultValue, error) {
  const context = error?.data?.field?.startsWith?.("context");
  return { value: defaultValue, reason: "ERROR", errorCode: context ? "INVALID_CONTEXT" : "GENERAL", errorMessage: error?.message ?? String(error), flagMetadata: {} };
}

function primitives(metadata) {
  const kept = {};
  if (metadata && typeof metadata === "object") {
    for (const [key, value] of Object.entries(metadata)) {
      if (typeof value === "boolean" || typeof value === "number" || typeof value === "string") kept[key] = value;
    }
  }
  return kept;
}

function eventMetadata(event) {
  const kept = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === "subscriptionId" || key === "type" || key === "flagsChanged" || key === "message") continue;
    if (typeof value === "boolean" || typeof value === "number" || typeof value === "string") kept[key] = value;
  }
  return kept;
}

function describeError(event) {
  const words = [event.reason, event.retryState].filter(Boolean).join("/") || "ERROR";
  return event.message ? `${words}: ${event.message}` : words;
}

/** Whether two evaluation contexts hold the same values (dates by their time). */
function sameValue(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !sameValue(a[key], b[key])) return false;
  }
  return true;
}
