// Errors a call can reject with. An error reply of the server becomes a
// BuntingError of the class of its `data.reason`; the client's own failures
// (a timeout, a server that went away) have classes of their own.

/** An error reply of the server: JSON-RPC `code`, `message`, `data`, and `reason` (`data.reason`). */
export class BuntingError extends Error {
  /**
   * @param {{code: number, message: string, data?: any}} error the reply's `error` member
   * @param {string} [method] the method whose call failed
   */
  constructor(error, method) {
    super(error.message);
    this.name = new.target.name;
    this.code = error.code;
    this.data = error.data;
    this.method = method;
  }

  /** The word in `data.reason` to switch on, e.g. `NOT_FOUND`; undefined when the server sent none. */
  get reason() {
    return this.data?.reason;
  }
}

/** -32700: the server could not parse a message (a client bug, or bytes written around the client). */
export class ParseError extends BuntingError {}
/** -32600: not a valid JSON-RPC request, an empty or too large batch, a message over the size limit. */
export class InvalidRequestError extends BuntingError {}
/** -32601 METHOD_NOT_FOUND: the server has no such method; `data.suggestion` names the one it likely meant. */
export class MethodNotFoundError extends BuntingError {}
/** -32602 INVALID_PARAMS: `data.field` names the param at fault and `data.why` says why. */
export class InvalidParamsError extends BuntingError {}
/** -32603 INTERNAL_ERROR. */
export class InternalError extends BuntingError {}
/** -32001 NOT_IMPLEMENTED: a protocol method this build does not implement. */
export class NotImplementedError extends BuntingError {}
/** -32002 NOT_FOUND: an id that names nothing for the current user. */
export class NotFoundError extends BuntingError {}
/** -32003 NOT_ALLOWED: well formed, but not allowed for this item (e.g. a card that is not dismissible). */
export class NotAllowedError extends BuntingError {}
/** -32004 SDK_DISABLED: refused while the SDK is disabled. */
export class SDKDisabledError extends BuntingError {}
/** -32005 INVALID_RULE: a JSONLogic rule that does not compile or exceeds the work budget. */
export class InvalidRuleError extends BuntingError {}
/** -32006 SHUTTING_DOWN: the request was read after `shutdown`. */
export class ShuttingDownError extends BuntingError {}
/** -32007 STORAGE_ERROR: local storage failed; the server goes on from memory. */
export class StorageError extends BuntingError {}
/**
 * -32008 NOT_SYNCED (`data.channel`): the channel was never refreshed for the current user.
 * Subscribe to the channel before `changeUser` or `openSession`, or call `refresh`.
 */
export class NotSyncedError extends BuntingError {}
/** -32009 CHANNEL_DISABLED (`data.channel`): the definitions turn this channel off. */
export class ChannelDisabledError extends BuntingError {}
/** -32010 LIMIT_REACHED (`data.why`): a bound of the server reached, such as its subscriptions. */
export class LimitReachedError extends BuntingError {}
/**
 * -32011 NOT_ENABLED (`data.method`): a method for testing campaigns on a server not started for it
 * (`setClock` and `advanceClock` need `clock: "manual"`, `injectFault` and `clearFaults` `faults: true`).
 */
export class NotEnabledError extends BuntingError {}
/**
 * -32012 (`data.line`, `data.column` in the template): a Liquid template given to `renderTemplate`
 * gave no text. INVALID_TEMPLATE: it does not parse, or rendering failed; TEMPLATE_LIMIT: a bound
 * was reached; TEMPLATE_ABORTED: it ran `abort_message` (`data.abortMessage`).
 */
export class TemplateError extends BuntingError {}

const classByReason = {
  INVALID_JSON: ParseError,
  INVALID_UTF8: ParseError,
  TOO_DEEP: ParseError,
  NUMBER_OUT_OF_RANGE: ParseError,
  DUPLICATE_KEY: ParseError,
  EMPTY_MESSAGE: ParseError,
  INVALID_HEADER: ParseError,
  MISSING_CONTENT_LENGTH: ParseError,
  INVALID_CONTENT_LENGTH: ParseError,
  CONTENT_LENGTH_MISMATCH: ParseError,
  TRUNCATED_MESSAGE: ParseError,
  INVALID_REQUEST: InvalidRequestError,
  EMPTY_BATCH: InvalidRequestError,
  MESSAGE_TOO_LARGE: InvalidRequestError,
  BATCH_TOO_LARGE: InvalidRequestError,
  REPLY_TOO_LARGE: InvalidRequestError,
  METHOD_NOT_FOUND: MethodNotFoundError,
  INVALID_PARAMS: InvalidParamsError,
  INTERNAL_ERROR: InternalError,
  NOT_IMPLEMENTED: NotImplementedError,
  NOT_FOUND: NotFoundError,
  NOT_ALLOWED: NotAllowedError,
  SDK_DISABLED: SDKDisabledError,
  INVALID_RULE: InvalidRuleError,
  SHUTTING_DOWN: ShuttingDownError,
  STORAGE_ERROR: StorageError,
  NOT_SYNCED: NotSyncedError,
  CHANNEL_DISABLED: ChannelDisabledError,
  LIMIT_REACHED: LimitReachedError,
  NOT_ENABLED: NotEnabledError,
  INVALID_TEMPLATE: TemplateError,
  TEMPLATE_LIMIT: TemplateError,
  TEMPLATE_ABORTED: TemplateError,
};

// A reason this client does not know yet still gets the class of its code's family.
const classByCode = {
  [-32700]: ParseError,
  [-32600]: InvalidRequestError,
  [-32601]: MethodNotFoundError,
  [-32602]: InvalidParamsError,
  [-32603]: InternalError,
  [-32001]: NotImplementedError,
  [-32002]: NotFoundError,
  [-32003]: NotAllowedError,
  [-32004]: SDKDisabledError,
  [-32005]: InvalidRuleError,
  [-32006]: ShuttingDownError,
  [-32007]: StorageError,
  [-32008]: NotSyncedError,
  [-32009]: ChannelDisabledError,
  [-32010]: LimitReachedError,
  [-32011]: NotEnabledError,
  [-32012]: TemplateError,
};

/** The reasons this client has a class for, and the class (for tests and tools). */
export const errorClassByReason = Object.freeze({ ...classByReason });

/**
 * @param {{code: number, message: string, data?: any}} error the `error` member of a reply
 * @param {string} [method] the method whose call failed
 * @returns {BuntingError}
 */
export function errorFromReply(error, method) {
  const reason = error?.data?.reason;
  const ErrorClass =
    (typeof reason === "string" && Object.hasOwn(classByReason, reason) && classByReason[reason]) ||
    classByCode[error?.code] ||
    BuntingError;
  return new ErrorClass(error, method);
}

/** A call, or a wait for an event, that did not finish in time. Nothing was cancelled on the server. */
export class BuntingTimeoutError extends Error {
  /**
   * @param {string} what e.g. `getFeatureFlag` or `an event {"type":"DATA_UPDATED"}`
   * @param {number} timeout milliseconds
   */
  constructor(what, timeout, { method } = {}) {
    super(`${what} did not finish within ${timeout} ms`);
    this.name = "BuntingTimeoutError";
    this.code = "ETIMEDOUT";
    this.timeout = timeout;
    this.method = method;
  }
}

/**
 * The server is gone (it exited, was killed, or its output broke) or the client was closed:
 * every call pending then, and every call after, rejects with this. `stderr` holds the
 * server's last lines of stderr, which usually say why.
 */
export class BuntingClosedError extends Error {
  /**
   * @param {string} why
   * @param {{exitCode?: number | null, signal?: string | null, stderr?: string[], method?: string}} [details]
   */
  constructor(why, { exitCode = null, signal = null, stderr = [], method } = {}) {
    const tail = stderr.length > 0 ? `\n--- last lines of the server's stderr ---\n${stderr.join("\n")}` : "";
    super(`${method ? `${method}: ` : ""}${why}${tail}`);
    this.name = "BuntingClosedError";
    this.code = "ECLOSED";
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderr = stderr;
    this.method = method;
  }
}

/** No `bunting` binary was found; `searched` lists where the client looked. */
export class BuntingBinaryNotFoundError extends Error {
  /** @param {string[]} searched */
  constructor(searched) {
    super(
      "no bunting binary found; pass {binary}, set BUNTING_BIN, put bunting on the PATH, " +
        `or build .build/release/bunting. Looked at:\n  ${searched.join("\n  ")}`,
    );
    this.name = "BuntingBinaryNotFoundError";
    this.code = "ENOENT";
    this.searched = searched;
  }
}
