// Types of the Node client of Bunting, written by hand. test/declarations.test.mjs
// checks them against schemas/openrpc.json: every method of the document is a method
// of Bunting below, with a params interface naming the same params, optional exactly
// where the document says so, and the enums below list the document's values.

import { EventEmitter } from "node:events";

// ---------------------------------------------------------------------------
// Values of the protocol (components.schemas of the document)

/** A channel of content. */
export type Channel = "banners" | "contentCards" | "featureFlags";
/** The channels whose items can be clicked and dismissed. */
export type InteractiveChannel = "contentCards" | "banners";
/** A moment as Unix seconds (it may have a fraction). */
export type UnixTime = number;
/** 0 before the first successful sync for this user, null while the channel is disabled. */
export type LastSyncAt = number | null;
/** An opaque subscription id. */
export type SubscriptionId = string;

/** A typed value attached to a feature flag or banner. */
export type Property =
  | { type: "string"; value: string }
  | { type: "number"; value: number }
  | { type: "boolean"; value: boolean }
  /** The string URL of the image. */
  | { type: "image"; value: string }
  | { type: "jsonobject"; value: { [key: string]: unknown } }
  /** Unix seconds. */
  | { type: "datetime"; value: number };

export type Properties = { [key: string]: Property };

/** flagd flag metadata: the flag set's `metadata` overlaid with the flag's own. */
export type FlagMetadata = { [key: string]: string | number | boolean };

/** A feature flag as evaluated for the current user. */
export interface FeatureFlag {
  /** The flag key. */
  id: string;
  enabled: boolean;
  properties: Properties;
  /** Present when the flag has one; flag impressions are de-duplicated by it. */
  trackingString?: string;
  /** flagd's metadata of the flag and its flag set; absent when there is none. */
  metadata?: FlagMetadata;
}

/** The banner that fills a placement for the current user. */
export interface Banner {
  id: string;
  placementId: string;
  html: string;
  /** A control banner is never meant to be shown, but its impression is logged. */
  isControl: boolean;
  isTestSend: boolean;
  /** Absent when the banner does not expire. */
  expiresAt?: UnixTime;
  properties: Properties;
  trackingId?: string;
}

export type ContentCardType = "classic" | "captionedImage" | "imageOnly" | "control";

/** A content card as listed for the current user. */
export interface ContentCard {
  id: string;
  type: ContentCardType;
  /** True exactly for cards of type `control`. */
  isControl: boolean;
  title?: string;
  description?: string;
  imageUrl?: string;
  /** Image width / height. */
  aspectRatio?: number;
  url?: string;
  linkText?: string;
  /** Key-value pairs for the app; `{}` when there are none. */
  extras: { [key: string]: string };
  created: UnixTime;
  updated?: UnixTime;
  expiresAt?: UnixTime;
  pinned: boolean;
  dismissible: boolean;
  /** Set by `logImpression`. */
  viewed: boolean;
  /** Set by `logClick`. */
  clicked: boolean;
}

/**
 * A feed of content cards (`getSnapshot` and `subscribe` with `extras`): only the cards whose
 * `extras` hold every key given with exactly that value are listed, and counted in `unviewedCount`.
 */
export type ExtrasFilter = { [key: string]: string };

/** Listed cards, pinned first, then newest first; `unviewedCount` leaves control cards out. */
export interface ContentCardsData {
  cards: ContentCard[];
  unviewedCount: number;
}
/** Banners by placement id; placements without a banner are absent. */
export type BannersData = { [placementId: string]: Banner };
export type FeatureFlagsData = FeatureFlag[];

export interface ContentCardsSnapshot {
  contentCards: ContentCardsData;
  lastSyncAt: LastSyncAt;
}
export interface BannersSnapshot {
  banners: BannersData;
  lastSyncAt: LastSyncAt;
}
export interface FeatureFlagsSnapshot {
  featureFlags: FeatureFlagsData;
  lastSyncAt: LastSyncAt;
}
/** Each channel's snapshot and data, for typing by channel. */
export interface SnapshotByChannel {
  contentCards: ContentCardsSnapshot;
  banners: BannersSnapshot;
  featureFlags: FeatureFlagsSnapshot;
}
export interface DataByChannel {
  contentCards: ContentCardsData;
  banners: BannersData;
  featureFlags: FeatureFlagsData;
}
/** One channel's cached data for the current user, with `lastSyncAt`. */
export type CacheSnapshot<C extends Channel = Channel> = SnapshotByChannel[C];

export type EventType = "CACHE_REPLAY" | "CACHE_LOAD" | "DATA_UPDATED" | "IMPRESSION" | "CLICK" | "DISMISS" | "CUSTOM" | "ERROR";
export type DataUpdatedReason = "AUTO_SERVER_REFRESH" | "MANUAL_SERVER_REFRESH" | "CLIENT_ACTION";
export type ErrorReason =
  | "SERVER_ERROR"
  | "CLIENT_ERROR"
  | "RATE_LIMITED"
  | "SDK_DISABLED"
  | "INVALID_SERVER_DATA"
  | "FEATURE_DISABLED";
export type RetryState = "SDK_WILL_RETRY" | "INTEGRATOR_MAY_RETRY" | "DO_NOT_RETRY";
export type AnalyticsAction = "ENQUEUED" | "FLUSHED";

/** User attributes, merged key by key; a key given as null removes the attribute. */
export type Attributes = { [key: string]: unknown };
/** `{}` */
export type EmptyResult = { [key: string]: never };

export interface ChannelStatus {
  enabled: boolean;
  lastSyncAt: LastSyncAt;
  /** Listed cards, filled placements, or flags. */
  itemCount: number;
}

export interface StatusResult {
  version: string;
  /** null before the first bytes decided it. */
  framing: "ndjson" | "lsp" | null;
  /** Seconds since the server started. */
  uptime: number;
  /** null for the anonymous user. */
  userId: string | null;
  sessionId: string | null;
  sdkEnabled: boolean;
  channels: { banners: ChannelStatus; contentCards: ChannelStatus; featureFlags: ChannelStatus };
  /** Events committed locally and not yet accepted by the sink. */
  pendingAnalytics: number;
  definitions: DefinitionsStatus;
}

/** One thing wrong in definitions that loaded anyway (a flag in error, a banner or card left out). */
export interface DefinitionsProblem {
  /** A JSON pointer into the document, e.g. `/flags/checkout/defaultVariant`. */
  pointer: string;
  line: number;
  column: number;
  message: string;
}

/** `status().definitions`: where they come from, whether and when a document is loaded, what is wrong. */
export interface DefinitionsStatus {
  /** A path, a URL without user:password, or `(bundled example)`. */
  location: string;
  loaded: boolean;
  /** When the document in use was adopted; absent while none is. */
  loadedAt?: UnixTime;
  problems: DefinitionsProblem[];
  /** The source's problem now, when the last check found one. */
  lastError?: string;
}

export interface FlushResult {
  /** Events the sink accepted in this flush. */
  flushed: number;
  /** Events still queued afterwards. */
  pending: number;
}

/** The type a flag is asked for as (`evaluateFlag` `type`): OpenFeature's typed resolution. */
export type FlagType = "boolean" | "string" | "integer" | "float" | "object";
/** The values each FlagType accepts: `integer` is a number without a fraction, `object` an object or array. */
export interface ValueByFlagType {
  boolean: boolean;
  string: string;
  integer: number;
  float: number;
  object: { [key: string]: unknown } | unknown[];
}
/** The value a resolution asked for as T has; any JSON when no type was asked for. */
export type FlagValue<T extends FlagType = never> = [T] extends [never] ? unknown : ValueByFlagType[T];

/** flagd's resolution reasons (others may come). */
export type FlagResolutionReason = "STATIC" | "DEFAULT" | "TARGETING_MATCH" | "DISABLED" | "ERROR" | (string & {});
/** OpenFeature's error codes. */
export type FlagErrorCode =
  | "FLAG_NOT_FOUND"
  | "PARSE_ERROR"
  | "TYPE_MISMATCH"
  | "TARGETING_KEY_MISSING"
  | "INVALID_CONTEXT"
  | "GENERAL"
  | (string & {});

/** The flag as flagd resolves it; V is the value's type when `evaluateFlag` was asked for a `type`. */
export interface EvaluateFlagResult<V = unknown> {
  /** The variant's value; null when `errorCode` is present (a TYPE_MISMATCH included). */
  value: V | null;
  /** The variant's key; null when no variant was resolved. */
  variant: string | null;
  /** e.g. `STATIC`, `DEFAULT`, `TARGETING_MATCH`, `DISABLED`, `ERROR`. */
  reason: FlagResolutionReason;
  /** e.g. `FLAG_NOT_FOUND`, `PARSE_ERROR`, `TYPE_MISMATCH`, `GENERAL`; then `reason` is `ERROR`. */
  errorCode?: FlagErrorCode;
  /** What went wrong, in words, with `errorCode`. */
  errorMessage?: string;
  /** The flag's metadata over the flag set's; absent when empty. */
  metadata?: FlagMetadata;
}

/** `evaluateFlags`: each flag key's resolution, and the flag set's metadata. */
export interface EvaluateFlagsResult {
  flags: { [flagKey: string]: EvaluateFlagResult };
  /** The flag set's metadata; absent when empty. */
  metadata?: FlagMetadata;
}

/** `track`: the stored event's id, the same in its `CUSTOM` events and at the sink. */
export interface TrackResult {
  eventId: string;
}

/** What `subscribe` answers on the wire; the client resolves to a Subscription instead. */
export type SubscribeResult = { subscriptionId: SubscriptionId } | null;

export interface RemoveSubscriptionResult {
  removed: boolean;
}

export interface EvaluateResult {
  /** The rule's value, any JSON. */
  result: unknown;
}

/** The OpenRPC document of the server (`rpc.discover`). */
export interface OpenRPCDocument {
  openrpc: string;
  info: { title: string; version: string; description?: string };
  methods: Array<{ name: string; params: unknown[]; [key: string]: unknown }>;
  components?: { [key: string]: unknown };
  [key: string]: unknown;
}

/** For reference: one analytics event as the sink receives it. */
export interface AnalyticsEvent {
  eventId: string;
  kind: "impression" | "click" | "dismiss" | "custom";
  channel: Channel;
  /** Card id, flag id, banner placement id, or a custom event's name. */
  itemId: string;
  userId: string | null;
  time: UnixTime;
  buttonId?: string;
  trackingString?: string;
  deviceId: string;
  sessionId?: string;
  bannerId?: string;
  isControl?: true;
  /** `custom` events: the name given to `track` (also `itemId`). */
  name?: string;
  /** `custom` events: the value given to `track`. */
  value?: number;
  /** `custom` events: the details given to `track`. */
  details?: { [key: string]: unknown };
  /** `custom` events: the attributes given to `track`. */
  attributes?: { [key: string]: unknown };
  [key: string]: unknown;
}
/** For reference: the body POSTed to an http(s) sink. */
export interface AnalyticsBatch {
  events: AnalyticsEvent[];
}

// ---------------------------------------------------------------------------
// Notifications

interface EventHeader<C extends Channel, T extends EventType> {
  subscriptionId: SubscriptionId;
  channel: C;
  type: T;
}
/** The item an analytics event is about: `card`, `banner` or `flag`, following the channel. */
export interface ItemByChannel {
  contentCards: { card: ContentCard };
  banners: { banner: Banner };
  featureFlags: { flag: FeatureFlag };
}
interface AnalyticsFields {
  /** `ENQUEUED` once stored, then `FLUSHED` once the sink accepted it. */
  action: AnalyticsAction;
  /** The same on `ENQUEUED` and `FLUSHED`, and at the sink. */
  eventId: string;
}

/** Sent once to a new subscription, right after the `subscribe` reply. */
export type CacheReplayEvent<C extends Channel = Channel> = C extends Channel
  ? EventHeader<C, "CACHE_REPLAY"> & { cacheSnapshot: SnapshotByChannel[C] }
  : never;
/** The cache changed without a refresh: user change, wipe, channel turned off, loaded from storage. */
export type CacheLoadEvent<C extends Channel = Channel> = C extends Channel
  ? EventHeader<C, "CACHE_LOAD"> & { cacheSnapshot: SnapshotByChannel[C] }
  : never;
/** Every finished refresh, even one that changed nothing, and local changes such as a dismissal. */
export type DataUpdatedEvent<C extends Channel = Channel> = C extends Channel
  ? EventHeader<C, "DATA_UPDATED"> & { cacheSnapshot: SnapshotByChannel[C]; reason: DataUpdatedReason }
  : never;
export type ImpressionEvent<C extends Channel = Channel> = C extends Channel
  ? EventHeader<C, "IMPRESSION"> & AnalyticsFields & ItemByChannel[C]
  : never;
export type ClickEvent<C extends InteractiveChannel = InteractiveChannel> = C extends InteractiveChannel
  ? EventHeader<C, "CLICK"> & AnalyticsFields & ItemByChannel[C] & { /** On banner clicks that named one. */ buttonId?: string }
  : never;
export type DismissEvent<C extends InteractiveChannel = InteractiveChannel> = C extends InteractiveChannel
  ? EventHeader<C, "DISMISS"> & AnalyticsFields & ItemByChannel[C]
  : never;
/** What `track` was given, as its `CUSTOM` events carry it. */
export interface TrackedEvent {
  name: string;
  value?: number;
  details?: { [key: string]: unknown };
  userId?: string;
  attributes?: { [key: string]: unknown };
}
/** A `track` event was stored (`ENQUEUED`) or accepted by the sink (`FLUSHED`); to featureFlags subscriptions. */
export interface CustomEvent {
  subscriptionId: SubscriptionId;
  channel: "featureFlags";
  type: "CUSTOM";
  /** `ENQUEUED` once stored, then `FLUSHED` once the sink accepted it. */
  action: AnalyticsAction;
  /** The one `track` answered; the same on `ENQUEUED` and `FLUSHED`, and at the sink. */
  eventId: string;
  event: TrackedEvent;
}
/** A refresh failed or was refused, the sink refused analytics, or storage is in trouble. */
export type ErrorEvent<C extends Channel = Channel> = C extends Channel
  ? EventHeader<C, "ERROR"> & {
      reason: ErrorReason;
      retryState: RetryState;
      /** Present exactly when `reason` is `RATE_LIMITED`. */
      rateLimitedUntil?: UnixTime;
      message?: string;
    }
  : never;

/** An `event` notification's params, for a subscription of channel C. */
export type BuntingEvent<C extends Channel = Channel> =
  | CacheReplayEvent<C>
  | CacheLoadEvent<C>
  | DataUpdatedEvent<C>
  | ImpressionEvent<C>
  | ClickEvent<Extract<C, InteractiveChannel>>
  | DismissEvent<Extract<C, InteractiveChannel>>
  | ("featureFlags" extends C ? CustomEvent : never)
  | ErrorEvent<C>;
/** The document's name for BuntingEvent. */
export type EventNotificationParams = BuntingEvent;

/** An `updates` notification's params (deprecated pattern): the channel's data, no `lastSyncAt`. */
export type UpdatesNotification<C extends Channel = Channel> = C extends Channel
  ? { subscriptionId: SubscriptionId; channel: C } & { [K in C]: DataByChannel[K] }
  : never;
/** The document's name for UpdatesNotification. */
export type UpdatesNotificationParams = UpdatesNotification;

/** The types of `definitions` notifications: OpenFeature's provider events. */
export type DefinitionsEventType = "READY" | "CHANGED" | "ERROR";
/**
 * The definitions in use are loaded and current: right after `subscribeToDefinitions` when they
 * are, when the first document loads, and when the source answers again unchanged after an ERROR
 * (OpenFeature's PROVIDER_READY).
 */
export interface DefinitionsReadyEvent {
  subscriptionId: SubscriptionId;
  type: "READY";
  /** When the document in use was adopted. */
  loadedAt: UnixTime;
}
/**
 * A new document was adopted; it comes before the DATA_UPDATED events it causes
 * (OpenFeature's PROVIDER_CONFIGURATION_CHANGED with flags_changed).
 */
export interface DefinitionsChangedEvent {
  subscriptionId: SubscriptionId;
  type: "CHANGED";
  loadedAt: UnixTime;
  /** The flags added, removed, or whose resolution could differ. */
  flagsChanged: string[];
}
/**
 * The source failed or sent a document that cannot be used (OpenFeature's PROVIDER_STALE when
 * `stale`, else PROVIDER_ERROR).
 */
export interface DefinitionsErrorEvent {
  subscriptionId: SubscriptionId;
  type: "ERROR";
  reason: ErrorReason;
  retryState: RetryState;
  /** Present exactly when `reason` is `RATE_LIMITED`. */
  rateLimitedUntil?: UnixTime;
  message?: string;
  /** True while older definitions still serve; false when none are loaded. */
  stale: boolean;
}
/** A `definitions` notification's params, to a subscription of `subscribeToDefinitions`. */
export type DefinitionsEvent = DefinitionsReadyEvent | DefinitionsChangedEvent | DefinitionsErrorEvent;
/** The document's name for DefinitionsEvent. */
export type DefinitionsNotificationParams = DefinitionsEvent;
/** Whatever a subscription can receive: `event`, `updates` or `definitions` params. */
export type AnyEvent = BuntingEvent | UpdatesNotification | DefinitionsEvent;

// ---------------------------------------------------------------------------
// Params, one interface per method (NoParams where it takes none)

/** The params of a method that takes none. */
export type NoParams = { [key: string]: never };

export interface ChangeUserParams {
  /** The new current user; becomes `targetingKey` in evaluation contexts. */
  userId: string;
  /** Merged into the new user's stored attributes. */
  attributes?: Attributes;
}
export interface SetUserAttributesParams {
  attributes: Attributes;
}
/** `extras` is for content cards only (the server answers -32602 for another channel). */
type ExtrasFor<C extends Channel> = "contentCards" extends C ? ExtrasFilter : never;
export interface SubscribeParams<C extends Channel = Channel> {
  channel: C;
  /** Content cards only: the subscription's snapshots list just this feed's cards. */
  extras?: ExtrasFor<C>;
}
export interface SubscribeToUpdatesParams<C extends Channel = Channel> {
  channel: C;
}
export interface RemoveSubscriptionParams {
  subscriptionId: SubscriptionId;
}
export interface RefreshParams {
  channel: Channel;
  /** `banners` only: at most 10 distinct placement ids. */
  placementIds?: string[];
}
export interface GetSnapshotParams<C extends Channel = Channel> {
  channel: C;
  /** Content cards only: list just this feed's cards, and count them in `unviewedCount`. */
  extras?: ExtrasFor<C>;
}
export interface GetFeatureFlagParams {
  id: string;
}
export interface GetBannerParams {
  placementId: string;
}
/** Exactly one of `id` and `ids`. */
export interface LogImpressionParams {
  channel: Channel;
  /** Card id, flag id, or banner placement id. */
  id?: string;
  /** Several distinct items of the channel. */
  ids?: string[];
}
export interface LogClickParams {
  channel: InteractiveChannel;
  /** Card id or banner placement id. */
  id: string;
  /** `banners` only. */
  buttonId?: string;
}
export interface LogDismissParams {
  channel: InteractiveChannel;
  /** Card id or banner placement id. */
  id: string;
}
export interface EvaluateParams {
  /** A JSONLogic rule; a literal evaluates to itself. */
  rule: unknown;
  data?: unknown;
}
/** A flagd evaluation context: `targetingKey` and attributes at the top level. */
export type EvaluationContext = { targetingKey?: string; [key: string]: unknown };
export interface EvaluateFlagParams<T extends FlagType = FlagType> {
  flagKey: string;
  context: EvaluationContext;
  /** Ask for a value of this type; another type resolves to `ERROR`/`TYPE_MISMATCH`. */
  type?: T;
}
export interface EvaluateFlagsParams {
  context: EvaluationContext;
  /** The flags to resolve, each once; every flag of the definitions when left out. */
  flagKeys?: string[];
}
export interface TrackParams {
  /** At most 255 bytes. */
  name: string;
  /** A finite number (OpenFeature's tracking value). */
  value?: number;
  details?: { [key: string]: unknown };
  /** The event's user (the evaluation context's targeting key); the current user when left out. */
  userId?: string;
  /** The evaluation context's attributes, recorded with the event. */
  attributes?: { [key: string]: unknown };
}

// ---------------------------------------------------------------------------
// Errors

export type RPCErrorReason =
  | "INVALID_JSON"
  | "INVALID_UTF8"
  | "TOO_DEEP"
  | "NUMBER_OUT_OF_RANGE"
  | "DUPLICATE_KEY"
  | "EMPTY_MESSAGE"
  | "MESSAGE_TOO_LARGE"
  | "INVALID_HEADER"
  | "MISSING_CONTENT_LENGTH"
  | "INVALID_CONTENT_LENGTH"
  | "CONTENT_LENGTH_MISMATCH"
  | "TRUNCATED_MESSAGE"
  | "INVALID_REQUEST"
  | "EMPTY_BATCH"
  | "BATCH_TOO_LARGE"
  | "REPLY_TOO_LARGE"
  | "METHOD_NOT_FOUND"
  | "INVALID_PARAMS"
  | "INTERNAL_ERROR"
  | "NOT_IMPLEMENTED"
  | "NOT_FOUND"
  | "NOT_ALLOWED"
  | "SDK_DISABLED"
  | "INVALID_RULE"
  | "SHUTTING_DOWN"
  | "STORAGE_ERROR"
  | "NOT_SYNCED"
  | "CHANNEL_DISABLED";

/** The `data` of an error reply; which fields appear depends on `reason`. */
export interface ErrorData {
  reason: RPCErrorReason | (string & {});
  /** The param at fault: its name, `name[index]`, or `""` for the params as a whole. */
  field?: string;
  /** What is wrong with `field`. */
  why?: string;
  method?: string;
  position?: number;
  line?: number;
  column?: number;
  detail?: string;
  limit?: number;
  /** METHOD_NOT_FOUND: the known method the name most likely meant (`sattus` → `status`). */
  suggestion?: string;
  /** NOT_SYNCED, CHANNEL_DISABLED: the channel read. */
  channel?: Channel;
  /** Fields of reasons this client does not know yet. */
  [key: string]: unknown;
}

/** The `error` member of a JSON-RPC reply. */
export interface RPCErrorObject {
  code: number;
  message: string;
  data?: ErrorData;
}

/** An error reply of the server. Subclasses follow `data.reason`. */
export declare class BuntingError extends Error {
  constructor(error: RPCErrorObject, method?: string);
  /** The JSON-RPC error code, e.g. -32602. */
  readonly code: number;
  readonly data: ErrorData | undefined;
  /** `data.reason`, e.g. `NOT_FOUND`. */
  readonly reason: RPCErrorReason | (string & {}) | undefined;
  /** The method whose call failed. */
  readonly method: string | undefined;
}
type FieldWhy = ErrorData & { field: string; why: string };
/** -32700: INVALID_JSON, INVALID_UTF8, TOO_DEEP, … and the LSP framing errors (CONTENT_LENGTH_MISMATCH, …). */
export declare class ParseError extends BuntingError {}
/** -32600: INVALID_REQUEST, EMPTY_BATCH, MESSAGE_TOO_LARGE, BATCH_TOO_LARGE, REPLY_TOO_LARGE. */
export declare class InvalidRequestError extends BuntingError {}
/** -32601 METHOD_NOT_FOUND: `data.method`, and `data.suggestion` when a known method is a likely slip of it. */
export declare class MethodNotFoundError extends BuntingError {
  readonly data: ErrorData & { method: string; suggestion?: string };
}
/** -32602 INVALID_PARAMS: `data.field` and `data.why`. */
export declare class InvalidParamsError extends BuntingError {
  readonly data: FieldWhy;
}
/** -32603 INTERNAL_ERROR. */
export declare class InternalError extends BuntingError {}
/** -32001 NOT_IMPLEMENTED. */
export declare class NotImplementedError extends BuntingError {
  readonly data: ErrorData & { method: string };
}
/** -32002 NOT_FOUND: an id that names nothing for the current user. */
export declare class NotFoundError extends BuntingError {
  readonly data: FieldWhy;
}
/** -32003 NOT_ALLOWED: e.g. dismissing a card that is not dismissible. */
export declare class NotAllowedError extends BuntingError {
  readonly data: FieldWhy;
}
/** -32004 SDK_DISABLED. */
export declare class SDKDisabledError extends BuntingError {
  readonly data: ErrorData & { method: string };
}
/** -32005 INVALID_RULE. */
export declare class InvalidRuleError extends BuntingError {
  readonly data: FieldWhy;
}
/** -32006 SHUTTING_DOWN: read after `shutdown`. */
export declare class ShuttingDownError extends BuntingError {}
/** -32007 STORAGE_ERROR. */
export declare class StorageError extends BuntingError {}
type ChannelWhy = ErrorData & { channel: Channel; why: string };
/**
 * -32008 NOT_SYNCED: `getFeatureFlag`/`getBanner` of a channel never refreshed for the current
 * user. Subscribe before `changeUser` or `openSession`, or call `refresh`.
 */
export declare class NotSyncedError extends BuntingError {
  readonly data: ChannelWhy;
}
/** -32009 CHANNEL_DISABLED: `getFeatureFlag`/`getBanner` of a channel the definitions turn off. */
export declare class ChannelDisabledError extends BuntingError {
  readonly data: ChannelWhy;
}

/** A call or a wait that did not finish in time (nothing is cancelled on the server). */
export declare class BuntingTimeoutError extends Error {
  constructor(what: string, timeout: number, details?: { method?: string });
  readonly code: "ETIMEDOUT";
  /** Milliseconds. */
  readonly timeout: number;
  /** The method of a call that timed out. */
  readonly method: string | undefined;
}

/** The server is gone or the client was closed; `stderr` holds the server's last lines. */
export declare class BuntingClosedError extends Error {
  constructor(why: string, details?: { exitCode?: number | null; signal?: string | null; stderr?: string[]; method?: string });
  readonly code: "ECLOSED";
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderr: string[];
  readonly method: string | undefined;
}

/** No bunting binary was found. */
export declare class BuntingBinaryNotFoundError extends Error {
  constructor(searched: string[]);
  readonly code: "ENOENT";
  /** Where the client looked. */
  readonly searched: string[];
}

type ErrorClass = new (error: RPCErrorObject, method?: string) => BuntingError;
/** The class of each `data.reason` the client knows. */
export declare const errorClassByReason: Readonly<{ [reason: string]: ErrorClass }>;
/** The BuntingError (of the right class) for a reply's `error` member. */
export declare function errorFromReply(error: RPCErrorObject, method?: string): BuntingError;

// ---------------------------------------------------------------------------
// The client

export interface CallOptions {
  /** Milliseconds before the call rejects with BuntingTimeoutError; Infinity for none. */
  timeout?: number;
  /** Aborting rejects the call with the signal's reason. */
  signal?: AbortSignal;
}

/** Options of the client itself. */
export interface ClientOptions {
  /** The bunting executable; else BUNTING_BIN, the PATH, `.build/release/bunting` here or above. */
  binary?: string;
  /** `ndjson` (the default) or `lsp`; passed to the server as `--framing`. */
  framing?: "ndjson" | "lsp";
  /** Default timeout of calls and waits, in ms (30,000); Infinity for none. */
  callTimeout?: number;
  /** How long `close()` waits for the server to exit before killing it, in ms (5,000). */
  closeTimeout?: number;
  /** How many lines of the server's stderr to keep for error messages (50). */
  stderrLines?: number;
  /** Events kept per subscription until taken; past this the oldest are dropped (10,000). */
  maxBufferedEvents?: number;
  /** The server's working directory. */
  cwd?: string;
  /** The server's environment (default: this process's). */
  env?: { [name: string]: string | undefined };
  /** More arguments for `bunting serve`, after those made from the options. */
  args?: string[];
}

/** `bunting serve` flags: `pollInterval: 2` is `--poll-interval 2`. */
export interface ServeOptions {
  /** A file (watched) or an http(s) URL (polled). */
  definitions?: string;
  /** Refuse definitions with any problem at all (by default, as flagd, the rest serves). */
  strict?: boolean;
  /** Serve even if the definitions file cannot be used at start-up (subscribers are told why). */
  startWithoutDefinitions?: boolean;
  /** A directory, or `:memory:`. */
  storage?: string;
  /** Where to note documents that loaded, so that a start on one answers at once (default: the storage directory's). */
  cacheDir?: string;
  /** Neither use nor keep notes of documents that loaded: every start loads in full before serving. */
  noCache?: boolean;
  /** An NDJSON file or an http(s) URL. */
  sink?: string;
  pollInterval?: number;
  flushInterval?: number;
  maxQueuedEvents?: number;
  retryInitialDelay?: number;
  retryMaxDelay?: number;
  retryMaxAttempts?: number;
  /** `N/S`: N tokens, one back every S seconds. */
  refreshRateLimit?: string;
  /** Seconds the end of input or `shutdown` waits for a fetch under way and the last flush. */
  shutdownTimeout?: number;
  /** `Name: value` headers for the definitions and sink URLs; one flag each. */
  header?: string[];
  caFile?: string;
  connectTimeout?: number;
  /** Seconds one HTTP request may take (not a call timeout: see `callTimeout`). */
  timeout?: number;
  logLevel?: "off" | "error" | "warn" | "info" | "debug";
  maxMessageSize?: number;
}

export type SpawnOptions = ClientOptions & ServeOptions;

/** How the server ended. */
export interface ExitInfo {
  exitCode: number | null;
  signal: string | null;
  /** Whether `close()` had to kill it. */
  killed: boolean;
}

type TypeOf<E> = E extends { type: infer T } ? T : never;
type FieldOf<E, K extends string> = E extends { [P in K]: infer V } ? V : never;
type OneOrMore<T> = T | readonly T[];

/** What a subscription's `waitFor` matches: each field given must match, and the predicate. */
export interface EventFilter<E = BuntingEvent> {
  type?: OneOrMore<TypeOf<E>>;
  reason?: OneOrMore<FieldOf<E, "reason">>;
  action?: OneOrMore<AnalyticsAction>;
  predicate?: (event: E) => boolean;
  /** Milliseconds (default: the client's callTimeout); rejects with BuntingTimeoutError. */
  timeout?: number;
  signal?: AbortSignal;
}

/** What the client-wide `waitFor` matches, across every subscription (`definitions` events have no channel). */
export interface ClientEventFilter extends EventFilter<BuntingEvent | DefinitionsEvent> {
  channel?: OneOrMore<Channel>;
  subscriptionId?: OneOrMore<SubscriptionId>;
}

/**
 * A subscription: an EventEmitter of "event" (events that arrive while nobody
 * listens go to the first listener added), an async iterator of the events not
 * yet taken, and `waitFor`, which takes the first matching event, arrived or not.
 */
export declare class Subscription<E = BuntingEvent> extends EventEmitter implements AsyncIterable<E> {
  /** The server's subscription id. */
  readonly id: SubscriptionId;
  /** The channel subscribed to; undefined for `subscribeToDefinitions`. */
  readonly channel: Channel | undefined;
  /** The method that made it, e.g. `subscribe`. */
  readonly method: string;
  readonly ended: boolean;
  /** Arrived events not yet taken. */
  readonly bufferedCount: number;
  /** Events dropped because more than `maxBufferedEvents` waited. */
  readonly droppedCount: number;
  /** Takes every arrived event not yet taken, oldest first. */
  takeBuffered(): E[];
  waitFor<T extends TypeOf<E>>(filter: EventFilter<E> & { type: OneOrMore<T> }): Promise<Extract<E, { type: T }>>;
  waitFor(filter?: EventFilter<E>): Promise<E>;
  /** `removeSubscription`; the iteration then ends. */
  unsubscribe(options?: CallOptions): Promise<RemoveSubscriptionResult>;
  /** Unsubscribes, unless it has ended or the client is closed. */
  dispose(): Promise<void>;
  /** The same as dispose(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
  [Symbol.asyncIterator](): AsyncIterator<E>;

  on(name: "event", listener: (event: E) => void): this;
  on(name: "end", listener: (error: BuntingClosedError) => void): this;
  once(name: "event", listener: (event: E) => void): this;
  once(name: "end", listener: (error: BuntingClosedError) => void): this;
  off(name: "event", listener: (event: E) => void): this;
  off(name: "end", listener: (error: BuntingClosedError) => void): this;
  on(name: string | symbol, listener: (...args: any[]) => void): this;
  once(name: string | symbol, listener: (...args: any[]) => void): this;
  off(name: string | symbol, listener: (...args: any[]) => void): this;
}

/** The client of one `bunting serve` process. */
export declare class Bunting extends EventEmitter {
  /** Starts `bunting serve` with the options as flags; resolves once the process runs. */
  static spawn(options?: SpawnOptions): Promise<Bunting>;

  readonly pid: number | undefined;
  readonly framing: "ndjson" | "lsp";
  /** Default timeout of calls and waits, in ms. */
  callTimeout: number;
  /** The binary and the arguments the server was started with. */
  readonly command: string[];
  /** Whether the connection has ended: every call then rejects with BuntingClosedError. */
  readonly closed: boolean;
  /** The live subscriptions, by id. */
  readonly subscriptions: Map<SubscriptionId, Subscription<AnyEvent>>;
  /** The last lines the server wrote to stderr. */
  readonly stderrLines: string[];
  /** Resolves once the server has exited and its output is read. */
  readonly exited: Promise<ExitInfo>;
  /** How the server ended, once it has (and its output is read); null until then. */
  readonly exitInfo: ExitInfo | null;

  /** `shutdown`, then wait for the exit; SIGKILL after `timeout` ms (closeTimeout). */
  close(options?: { timeout?: number }): Promise<ExitInfo>;
  [Symbol.asyncDispose](): Promise<void>;

  /** Calls any method by name. */
  call<R = unknown>(method: string, params?: object, options?: CallOptions): Promise<R>;
  /** Sends a notification: the method runs and nothing is answered. */
  notify(method: string, params?: object): void;
  /** Takes the first matching event of any subscription, arrived or not. */
  waitFor<T extends EventType, C extends Channel>(
    filter: ClientEventFilter & { type: OneOrMore<T>; channel: OneOrMore<C> },
  ): Promise<Extract<BuntingEvent<C>, { type: T }>>;
  /** Without a channel, a `definitions` event of the type matches too (READY, CHANGED, ERROR). */
  waitFor<T extends EventType | DefinitionsEventType>(
    filter: ClientEventFilter & { type: OneOrMore<T> },
  ): Promise<Extract<BuntingEvent | DefinitionsEvent, { type: T }>>;
  waitFor(filter?: ClientEventFilter): Promise<AnyEvent>;

  on(name: "event", listener: (event: AnyEvent, subscription: Subscription<AnyEvent> | undefined) => void): this;
  on(name: "notification", listener: (method: string, params: unknown) => void): this;
  on(name: "stderr", listener: (line: string) => void): this;
  on(name: "exit", listener: (exit: ExitInfo) => void): this;
  on(name: "close", listener: (error: BuntingClosedError) => void): this;
  on(name: "protocolError", listener: (error: Error) => void): this;
  on(name: "unexpectedReply", listener: (message: unknown) => void): this;
  once(name: "exit", listener: (exit: ExitInfo) => void): this;
  once(name: "close", listener: (error: BuntingClosedError) => void): this;
  on(name: string | symbol, listener: (...args: any[]) => void): this;
  once(name: string | symbol, listener: (...args: any[]) => void): this;

  // --- Protocol methods: one per method of schemas/openrpc.json ---

  /** Returns the OpenRPC document (`rpc.discover`). */
  rpcDiscover(params?: NoParams, options?: CallOptions): Promise<OpenRPCDocument>;
  /** Reports the server's state. */
  status(params?: NoParams, options?: CallOptions): Promise<StatusResult>;
  /** Switches to another user and starts a session for them. */
  changeUser(params: ChangeUserParams, options?: CallOptions): Promise<EmptyResult>;
  /** Merges attributes into the current user's; triggers no refresh. */
  setUserAttributes(params: SetUserAttributesParams, options?: CallOptions): Promise<EmptyResult>;
  /** Starts a session: refreshes each subscribed channel. */
  openSession(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Ends the session and flushes analytics. */
  closeSession(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Subscribes to a channel's events; null while the SDK is disabled. */
  subscribe<C extends Channel>(params: SubscribeParams<C>, options?: CallOptions): Promise<Subscription<BuntingEvent<C>> | null>;
  /** @deprecated The `updates` pattern; use `subscribe`. */
  subscribeToUpdates<C extends Channel>(
    params: SubscribeToUpdatesParams<C>,
    options?: CallOptions,
  ): Promise<Subscription<UpdatesNotification<C>> | null>;
  /** Subscribes to the definitions' READY, CHANGED and ERROR (OpenFeature's provider events); null while the SDK is disabled. */
  subscribeToDefinitions(params?: NoParams, options?: CallOptions): Promise<Subscription<DefinitionsEvent> | null>;
  /** Ends a subscription. */
  removeSubscription(params: RemoveSubscriptionParams, options?: CallOptions): Promise<RemoveSubscriptionResult>;
  /** Refreshes a channel; the outcome arrives as events. */
  refresh(params: RefreshParams, options?: CallOptions): Promise<EmptyResult>;
  /** The channel's cache snapshot. */
  getSnapshot<C extends Channel>(params: GetSnapshotParams<C>, options?: CallOptions): Promise<SnapshotByChannel[C]>;
  /** One feature flag, or null. */
  getFeatureFlag(params: GetFeatureFlagParams, options?: CallOptions): Promise<FeatureFlag | null>;
  /** The banner of a placement, or null. */
  getBanner(params: GetBannerParams, options?: CallOptions): Promise<Banner | null>;
  /** Logs impressions of cards, flags or banners. */
  logImpression(params: LogImpressionParams, options?: CallOptions): Promise<EmptyResult>;
  /** Logs a click of a card or banner. */
  logClick(params: LogClickParams, options?: CallOptions): Promise<EmptyResult>;
  /** Dismisses a card or banner. */
  logDismiss(params: LogDismissParams, options?: CallOptions): Promise<EmptyResult>;
  /** Records a custom event (`CUSTOM` events to featureFlags subscriptions, `kind` `custom` at the sink). */
  track(params: TrackParams, options?: CallOptions): Promise<TrackResult>;
  /** Sends queued analytics; resolves once the sink answered. */
  flush(params?: NoParams, options?: CallOptions): Promise<FlushResult>;
  /** Forgets every user's data and the analytics queue. */
  wipeData(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Disables the SDK. */
  disableSDK(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Enables the SDK again. */
  enableSDK(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Evaluates a JSONLogic rule. */
  evaluate(params: EvaluateParams, options?: CallOptions): Promise<EvaluateResult>;
  /** Resolves a flag for a context as flagd does; with `type`, the value is of that type (or null, TYPE_MISMATCH). */
  evaluateFlag<T extends FlagType = never>(params: EvaluateFlagParams<T>, options?: CallOptions): Promise<EvaluateFlagResult<FlagValue<T>>>;
  /** Resolves every flag (or those of `flagKeys`) for one context. */
  evaluateFlags(params: EvaluateFlagsParams, options?: CallOptions): Promise<EvaluateFlagsResult>;
  /** Asks the server to exit (prefer `close()`, which waits for it). */
  shutdown(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;

  // --- End of the protocol methods ---
}

/** The methods of the document the client was generated from. */
export declare const protocolMethods: ReadonlyArray<{
  method: string;
  name: string;
  subscribes: boolean;
  deprecated: boolean;
  params: ReadonlyArray<{ name: string; required: boolean }>;
}>;

/** Where `Bunting.spawn` would find the binary; throws BuntingBinaryNotFoundError. */
export declare function findBinary(options?: { binary?: string; env?: { [name: string]: string | undefined }; cwd?: string }): string;
