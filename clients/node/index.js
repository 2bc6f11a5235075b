// The Node client of Bunting: `Bunting.spawn()` starts `bunting serve` and
// gives one promise-returning method per protocol method.

export { Bunting } from "./lib/bunting.js";
export { Subscription } from "./lib/subscription.js";
export { protocolMethods } from "./lib/methods.generated.js";
export {
  BuntingBinaryNotFoundError,
  BuntingClosedError,
  BuntingError,
  BuntingTimeoutError,
  ChannelDisabledError,
  LimitReachedError,
  errorClassByReason,
  errorFromReply,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  InvalidRuleError,
  MethodNotFoundError,
  NotAllowedError,
  NotEnabledError,
  NotFoundError,
  NotImplementedError,
  NotSyncedError,
  ParseError,
  SDKDisabledError,
  ShuttingDownError,
  StorageError,
  TemplateError,
} from "./lib/errors.js";
export { findBinary } from "./lib/find-binary.js";
export { BuntingProvider, ProviderEventEmitter, ProviderEvents } from "./lib/openfeature.js";
