// Types of the Node client of Bunting. The protocol part, between the two marker
// lines below, is generated from schemas/openrpc.json by generate.mjs (a type for
// each schema, a params interface for each method, ProtocolMethods); `node
// clients/node/generate.mjs --check` fails while it is out of date. The rest is
// written by hand: the types that follow the channel or the flag type asked for,
// the notifications, the client, its errors and the OpenFeature provider.
// test/declarations.test.mjs checks the whole against the document.

import { EventEmitter } from "node:events";

// ---- Generated from schemas/openrpc.json by clients/node/generate.mjs; do not edit until the end marker ----
// Values of the protocol: a type for each schema of `components.schemas`.

/** A channel of content. */
export type Channel = "banners" | "contentCards" | "featureFlags";
/** The channels whose items can be clicked and dismissed. */
export type InteractiveChannel = "contentCards" | "banners";
/** A moment as Unix seconds (a number; it may have a fraction). */
export type UnixTime = number;
/**
 * When a refresh of this channel last finished for the current user, in Unix seconds: 0 before the
 * first successful sync for this user (reading the definitions at start-up is not a sync), null
 * while the channel is disabled.
 */
export type LastSyncAt = number | null;
/** An opaque subscription id, unique within the server process. Clients must not parse it. */
export type SubscriptionId = string;
/**
 * A typed value attached to a feature flag or banner: `{type, value}`; the value's JSON type
 * follows `type`.
 */
export type Property =
  | { type: "string"; value: string }
  | { type: "number"; value: number }
  | { type: "boolean"; value: boolean }
  | { type: "image"; value: string }
  | { type: "jsonobject"; value: { [key: string]: unknown } }
  | { type: "datetime"; value: number };
/** Properties by key. */
export type Properties = { [key: string]: Property };
/**
 * A feature flag as evaluated for the current user; `metadata` (flagd's, the flag's over the flag
 * set's) when there is any.
 */
export interface FeatureFlag {
  /** The flag key. */
  id: string;
  enabled: boolean;
  properties: Properties;
  /** Present when the flag has one; flag impressions are de-duplicated by it. */
  trackingString?: string;
  metadata?: FlagMetadata;
}
/** The banner that fills a placement for the current user. */
export interface Banner {
  /** The banner's id. */
  id: string;
  /** The placement it fills. */
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
/**
 * A content card as listed for the current user. A card of type `control` has `isControl` true and
 * every other card false; a control card is never meant to be shown, but its impression is logged.
 */
export interface ContentCard {
  id: string;
  type: "classic" | "captionedImage" | "imageOnly" | "control";
  isControl: boolean;
  title?: string;
  description?: string;
  imageUrl?: string;
  /** Image width / height. */
  aspectRatio?: number;
  url?: string;
  linkText?: string;
  /** Key-value pairs (strings) for the app; `{}` when there are none. */
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
 * The listed cards: pinned first, then newest `created` first, then by `id`. Expired and dismissed
 * cards are not listed. `unviewedCount` counts listed cards not yet viewed, control cards excluded.
 */
export interface ContentCardsData {
  cards: ContentCard[];
  unviewedCount: number;
}
/** Banners by placement id. Placements without a banner are absent. */
export type BannersData = { [key: string]: Banner };
/** Every feature flag of the current user. */
export type FeatureFlagsData = FeatureFlag[];
export interface ContentCardsSnapshot {
  contentCards: ContentCardsData;
  lastSyncAt: LastSyncAt;
  notSynced?: NotSyncedWhy;
  /**
   * With `explain: true`: each item of the definitions for this channel, in document order, and why
   * it is or is not here.
   */
  explain?: Explanation[];
}
export interface BannersSnapshot {
  banners: BannersData;
  lastSyncAt: LastSyncAt;
  notSynced?: NotSyncedWhy;
  /**
   * With `explain: true`: each item of the definitions for this channel, in document order, and why
   * it is or is not here.
   */
  explain?: Explanation[];
}
export interface FeatureFlagsSnapshot {
  featureFlags: FeatureFlagsData;
  lastSyncAt: LastSyncAt;
  notSynced?: NotSyncedWhy;
  /**
   * With `explain: true`: each item of the definitions for this channel, in document order, and why
   * it is or is not here.
   */
  explain?: Explanation[];
}
export type EventType =
  | "CACHE_REPLAY"
  | "CACHE_LOAD"
  | "DATA_UPDATED"
  | "IMPRESSION"
  | "CLICK"
  | "DISMISS"
  | "CUSTOM"
  | "EXPOSURE"
  | "ERROR";
/**
 * `AUTO_SERVER_REFRESH`: a refresh the server started (session start, user change, definitions
 * changed, channel enabled, SDK enabled). `MANUAL_SERVER_REFRESH`: a `refresh` request.
 * `CLIENT_ACTION`: a local change such as a dismissal.
 */
export type DataUpdatedReason = "AUTO_SERVER_REFRESH" | "MANUAL_SERVER_REFRESH" | "CLIENT_ACTION";
/**
 * Why a refresh failed (the `reason` of an `ERROR` event). `SERVER_ERROR`: HTTP 5xx, 429 without a
 * usable Retry-After, or a network failure. `CLIENT_ERROR`: HTTP 4xx other than 429, or a redirect
 * that is not followed (an authentication failure, 401 or 403, is retried first). `RATE_LIMITED`:
 * refused by the client-side token bucket, or HTTP 429 with Retry-After. `SDK_DISABLED`: the SDK is
 * disabled. `INVALID_SERVER_DATA`: data that cannot be interpreted (a document that does not parse
 * or validate, one larger than 128 MiB, or an HTML page). `FEATURE_DISABLED`: the channel is
 * disabled, or no configuration has arrived yet.
 */
export type ErrorReason =
  | "SERVER_ERROR"
  | "CLIENT_ERROR"
  | "RATE_LIMITED"
  | "SDK_DISABLED"
  | "INVALID_SERVER_DATA"
  | "FEATURE_DISABLED";
/**
 * `SDK_WILL_RETRY`: the server retries by itself (backoff: `--retry-initial-delay`, then doubling
 * with jitter, capped by `--retry-max-delay`, at most `--retry-max-attempts` retries).
 * `INTEGRATOR_MAY_RETRY`: the server gave up; the client may call `refresh` again. `DO_NOT_RETRY`:
 * retrying cannot help.
 */
export type RetryState = "SDK_WILL_RETRY" | "INTEGRATOR_MAY_RETRY" | "DO_NOT_RETRY";
/** `ENQUEUED`: the event was committed to local storage. `FLUSHED`: the sink accepted it. */
export type AnalyticsAction = "ENQUEUED" | "FLUSHED";
/**
 * User attributes, merged into the user's stored attributes key by key at the top level: a key
 * given replaces the stored value, a key given as null removes the attribute, keys not given stay.
 * Values are any JSON. Evaluation sees them at the top level of the flagd context, next to
 * `targetingKey` (the user id), so the keys `targetingKey` and `$flagd` are reserved and refused.
 */
export type Attributes = { [key: string]: unknown };
/** `{}` */
export type EmptyResult = { [key: string]: never };
/** `{subscriptionId}`, or null while the SDK is disabled (no subscription is made then). */
export type SubscribeResult = { subscriptionId: SubscriptionId } | null;
export interface ChannelStatus {
  enabled: boolean;
  lastSyncAt: LastSyncAt;
  /** Items in the current user's cache: listed cards, filled placements, or flags. */
  itemCount: number;
}
/** The server's and the engine's state. */
export interface StatusResult {
  /** The version of this build, e.g. `0.1.0`. */
  version: string;
  /** The framing of the connection; null before the first bytes decided it. */
  framing: "ndjson" | "lsp" | null;
  /** Seconds since the server started (monotonic clock). */
  uptime: number;
  /** The current user; null for the anonymous user before any `changeUser`. */
  userId: string | null;
  /** The open session; null when no session is open. */
  sessionId: string | null;
  sdkEnabled: boolean;
  channels: { banners: ChannelStatus; contentCards: ChannelStatus; featureFlags: ChannelStatus };
  /** Analytics events committed locally and not yet accepted by the sink. */
  pendingAnalytics: number;
  definitions: DefinitionsStatus;
  stream?: StreamStatus;
  /** With `--clock manual`: the manual clock, `time` in Unix seconds and `date` in RFC 3339. */
  clock?: { kind: "manual"; time: UnixTime; date: string };
  /** With `--faults`: the injected failures still armed. */
  faults?: ArmedFault[];
}
export interface FlushResult {
  /** Events the sink accepted in this flush. */
  flushed: number;
  /** Events still queued afterwards (refused or failed, or enqueued meanwhile). */
  pending: number;
}
/**
 * The word in `error.data.reason`, one per kind of failure; see `components.errors` for the code
 * each goes with.
 */
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
  | "CHANNEL_DISABLED"
  | "LIMIT_REACHED"
  | "INVALID_TEMPLATE"
  | "TEMPLATE_LIMIT"
  | "TEMPLATE_ABORTED"
  | "NOT_ENABLED";
/** The `data` of every error response. Which fields appear depends on `reason`. */
export interface ErrorData {
  reason: RPCErrorReason;
  /**
   * The param at fault: its name, `name[index]` for an element of an array param, or `""` for the
   * params as a whole.
   */
  field?: string;
  /** What is wrong with `field`. */
  why?: string;
  /** The method concerned. */
  method?: string;
  /** Byte offset of a parse error in the message. */
  position?: number;
  /** 1-based line of a parse error in the message, or of a template error in the template. */
  line?: number;
  /**
   * 1-based column of a parse error in the message, or of a template error in the template, in
   * Unicode scalars.
   */
  column?: number;
  /** The parser's or storage's own words. */
  detail?: string;
  /** The message size limit in bytes. */
  limit?: number;
  /** METHOD_NOT_FOUND: the known method the name most likely meant. */
  suggestion?: string;
  channel?: Channel;
  /** TEMPLATE_ABORTED: the text given to `abort_message` (may be empty). */
  abortMessage?: string;
}
/**
 * For reference (not sent over JSON-RPC): one analytics event as the sink receives it, as an NDJSON
 * line of the `--sink` file or an element of `events` in a POSTed batch (see AnalyticsBatch). Sinks
 * must ignore fields they do not know. No session events are sent: every event is an impression,
 * click or dismissal of an item, a `custom` event of `track` (channel `featureFlags`, `itemId` its
 * name), or an `experiment_viewed` exposure (channel `featureFlags`, `itemId` the experiment key,
 * with `experimentKey`, `variationId`, `variationKey`, `hashAttribute`, `hashValue` and
 * `featureId`).
 */
export interface AnalyticsEvent {
  /** Unique; the same on every re-send, so that a re-send after a crash can be recognised. */
  eventId: string;
  kind: "impression" | "click" | "dismiss" | "custom" | "experiment_viewed";
  channel: Channel;
  /** Card id, flag id, or banner placement id. */
  itemId: string;
  /** The user the event belongs to; null for the anonymous user. */
  userId: string | null;
  time: UnixTime;
  /** On banner clicks that named a button. */
  buttonId?: string;
  /** The flag's `trackingString` or the banner's `trackingId`, when the item has one. */
  trackingString?: string;
  /** A random id made once per storage; tells anonymous users apart. */
  deviceId: string;
  /** The session the event happened in; absent outside a session. */
  sessionId?: string;
  /** On banner events: the banner that filled the placement. */
  bannerId?: string;
  /** Present (true) when the item was a control card or banner. */
  isControl?: true;
  /** `custom` events: the name given to `track` (also `itemId`). */
  name?: string;
  /** `custom` events: the value given to `track`. */
  value?: number;
  /** `custom` events: the details given to `track`. */
  details?: { [key: string]: unknown };
  /** `experiment_viewed` only. */
  experimentKey?: string;
  /** `experiment_viewed` only. */
  variationId?: number;
  /** `experiment_viewed` only. */
  variationKey?: string;
  /** `experiment_viewed` only. */
  hashAttribute?: string;
  /** Any JSON value. `experiment_viewed` only. */
  hashValue?: unknown;
  /** `experiment_viewed` only. */
  featureId?: string | null;
}
/** For reference: the body POSTed to an http(s) sink. */
export interface AnalyticsBatch {
  events: AnalyticsEvent[];
}
/**
 * flagd flag metadata: the flag set's `metadata` overlaid with the flag's own. Values are strings,
 * numbers and booleans.
 */
export type FlagMetadata = { [key: string]: string | number | boolean };
/**
 * The type a flag is asked for as (OpenFeature's typed resolution): `integer` is a number without a
 * fraction (a whole real such as 2.0 counts), `float` any number, `object` an object or array.
 */
export type FlagType = "boolean" | "string" | "integer" | "float" | "object";
/**
 * Many flags resolved for one context: `flags` maps each flag key to its resolution (as
 * `evaluateFlag` answers it); `metadata` is the flag set's, when it has any.
 */
export interface EvaluateFlagsResult {
  flags: { [key: string]: EvaluateFlagResult };
  metadata?: FlagMetadata;
}
/** The id of the stored event: the same in its `CUSTOM` notifications and at the sink. */
export interface TrackResult {
  eventId: string;
}
/**
 * One thing wrong in the definitions though they loaded: where (a JSON pointer, and line and column
 * in the text) and what.
 */
export interface DefinitionsProblem {
  pointer: string;
  line: number;
  column: number;
  message: string;
}
/**
 * The definitions: where they are read from (a path, a URL without any user:password, or `(bundled
 * example)`), whether a document is loaded and when it was adopted, the first 100 problems of the
 * loaded document (a flag in error, a banner or card left out; `problemCount` says how many there
 * are: `bunting validate` lists them all), and the source's problem now when the last check found
 * one, and the items the current user's last refreshes left out because their templates gave no
 * text (`aborted`: `abort_message` ran, or rendering failed; the first 100).
 */
export interface DefinitionsStatus {
  location: string;
  loaded: boolean;
  loadedAt?: UnixTime;
  problems: DefinitionsProblem[];
  /** How many problems the document has; `problems` lists the first 100. */
  problemCount?: number;
  lastError?: string;
  /**
   * Items the last refresh of each channel left out for the current user because their templates
   * gave no text; empty when none.
   */
  aborted?: UnrenderedItem[];
}
/**
 * The Server-Sent Events stream of the definitions (`--stream URL`, or the one a GrowthBook server
 * announced with `x-sse-support: enabled`); absent from `status` when there is none. `connected` is
 * true from the server's event-stream answer until the connection ends; `since` is when it
 * connected, or when it went down (or began to connect). `reconnects` counts the tries to connect
 * after the first, `events` the events received (documents, empty events, skipped ones).
 * `lastEventId` is what the next connection sends as `Last-Event-ID`; `lastError` why the stream is
 * down, while it is.
 */
export interface StreamStatus {
  /** The stream's URL, without user:password and with query values hidden. */
  location: string;
  /**
   * Announced by the definitions server (GrowthBook's `x-sse-support: enabled` leading to
   * `{apiHost}/sub/{clientKey}`) rather than given with `--stream`.
   */
  discovered: boolean;
  connected: boolean;
  since?: UnixTime;
  lastEventId?: string;
  reconnects: number;
  events: number;
  lastError?: string;
}
/**
 * Only in `getSnapshot`'s answer: present when the channel has not been refreshed for the current
 * user yet (no definitions loaded yet, or no refresh for this user), saying why and what to do —
 * the same words as `getFeatureFlag`'s -32008 `NOT_SYNCED`. Absent once the channel is synced, and
 * when the definitions turn the channel off (`lastSyncAt` null).
 */
export type NotSyncedWhy = string;
/**
 * A GrowthBook feature's value for one context and why, as GrowthBook's SDKs and its cross-SDK test
 * suite (`cases.json`) write it: `value`, `on` (JavaScript truthiness), `off`, `source`
 * (`defaultValue`, `force`, `experiment`, `unknownFeature`, `prerequisite`, `cyclicPrerequisite`,
 * `override`), `ruleId` ("" when none), and `experiment` and `experimentResult` when the source is
 * `experiment`.
 */
export interface FeatureResult {
  /** Any JSON value; null when the feature has none. */
  value: unknown;
  on: boolean;
  off: boolean;
  source: "defaultValue" | "force" | "experiment" | "unknownFeature" | "prerequisite" | "cyclicPrerequisite" | "override";
  ruleId: string;
  /**
   * The experiment rule as GrowthBook's SDK shows it (key, variations, weights, coverage,
   * hashAttribute, …).
   */
  experiment?: { [key: string]: unknown };
  /**
   * GrowthBook's ExperimentResult: inExperiment, variationId, value, hashUsed, hashAttribute,
   * hashValue, featureId, key, stickyBucketUsed, bucket, …
   */
  experimentResult?: { [key: string]: unknown };
  explain?: FlagExplanation;
}
/**
 * An exposure: the current user was assigned an arm of a GrowthBook experiment by hash (not by a
 * forced variation or override), when the app read the feature (`evaluateFeature` without
 * `attributes`, or `logImpression` of the feature's flag). Stored (`ENQUEUED`, after the commit) or
 * accepted by the sink (`FLUSHED`), once per user, experiment and variation a session; sent to the
 * event subscriptions of the `featureFlags` channel.
 */
export interface ExposureEvent {
  subscriptionId: SubscriptionId;
  channel: "featureFlags";
  type: "EXPOSURE";
  action: AnalyticsAction;
  eventId: string;
  exposure: Exposure;
}
/** Which arm of which experiment, by which hash. */
export interface Exposure {
  experimentKey: string;
  variationId: number;
  /** The variation's meta key, or its index as a string. */
  variationKey: string;
  hashAttribute: string;
  /** The hash attribute's value as the attributes hold it. */
  hashValue: unknown;
  featureId: string | null;
}
/**
 * A moment as a request may give it: Unix seconds (a number, or its text) or an RFC 3339 date-time
 * with its offset (`2026-12-08T09:00:00Z`, `2026-12-08 10:00:00.5+01:00`), between the years 0000
 * and 9999.
 */
export type TimeInput = number | string;
/**
 * The manual clock after the change: `time` in Unix seconds and `date` in RFC 3339 (UTC).
 * `advanceClock` adds `steps`, the timer deadlines it stepped through, and `coalesced`, true when
 * it stepped through the most one advance takes (100,000) and let the rest of the span pass at
 * once.
 */
export interface ClockResult {
  time: UnixTime;
  date: string;
  steps?: number;
  coalesced?: boolean;
}
/**
 * Where an injected failure goes: `definitions` (each fetch of the definitions source: polls,
 * retries, refreshes), `sink` (each delivery of a batch of analytics), `stream` (each connection of
 * the definitions stream given with `--stream`: a failing answer is an outage, a 2xx with a `body`
 * a connection that pushes the body as one event, then drops).
 */
export type FaultTarget = "definitions" | "sink" | "stream";
/**
 * The answer an injected failure gives, read as the failure model reads the same answer from an
 * HTTP server (README, "When a server is down or refuses"): an HTTP answer (`status`, optional
 * `headers` such as `Retry-After`, optional `body`: a string, or any other JSON value written as
 * its text), or `timeout` (the request ran out of time: SERVER_ERROR, retried), `disconnect` (the
 * connection dropped: SERVER_ERROR, retried) or `invalidData` (an answer that cannot be used:
 * INVALID_SERVER_DATA, not retried).
 */
export type FaultResponse =
  | "timeout"
  | "disconnect"
  | "invalidData"
  | { status: number; headers?: { [key: string]: string }; body?: unknown };
/** An injected failure still armed: its target, how many more requests get it, and the answer. */
export interface ArmedFault {
  target: FaultTarget;
  times: number;
  response: FaultResponse;
}
/** Every failure still armed, each target's in the order they will be given. */
export interface FaultsResult {
  faults: ArmedFault[];
}
/**
 * Why one item is or is not in a channel for the user: `in` (the user gets it), `outcome` (a word
 * to switch on) and `why` (a sentence). Banners and cards: `SHOWN`, `CONTROL` (the user is in the
 * item's control group; a control item stands in), `NOT_TARGETED`, `TARGETING_ERROR` (the targeting
 * could not be evaluated; counted as false), `NOT_STARTED` and `ENDED` (its schedule), `EXPIRED`,
 * `OUTRANKED` (banners: one of higher priority, or listed earlier at the same priority, fills the
 * placement), `DISMISSED`, `INVALID` (left out when the definitions loaded, with `pointer` and its
 * problems), `NOT_RENDERED` (admitted, but one of its Liquid templates gave this user no text:
 * `why` names the field's pointer and the reason, such as `abort_message`'s). Flags: the outcome is
 * flagd's reason, `in` says whether the channel lists the flag (not when its properties' templates
 * give this user no text: `why` says so), with `variant`, `reason` and `rule` (the JSON pointer of
 * the targeting that decided, when one did); GrowthBook features: the outcome is their `source`. In
 * a `getSnapshot`, `in` is whether this snapshot holds the item; when that differs from what is
 * decided now (the clock or the document moved since the last refresh), `why` says the next refresh
 * applies it.
 */
export interface Explanation {
  id?: string;
  placementId?: string;
  pointer?: string;
  in: boolean;
  outcome: string;
  why: string;
  variant?: string | null;
  reason?: string;
  rule?: string;
}
/**
 * Why a flag resolves as it does: `why` in words; `rule`, the JSON pointer of the targeting that
 * decided (a flagd flag's `/flags/<key>/targeting`) or the GrowthBook rule's id; `listed`, whether
 * the `featureFlags` channel lists it; `source` for a GrowthBook feature.
 */
export interface FlagExplanation {
  why: string;
  rule?: string;
  listed?: boolean;
  source?: string;
}
/**
 * An item whose template gave the current user no text at the last refresh of its channel, so that
 * the item is left out for this user: `abort_message` ran (TEMPLATE_ABORTED, `message` holds its
 * text), or rendering failed (TEMPLATE_LIMIT, INVALID_TEMPLATE). `pointer` is the field's place in
 * the document; `line` and `column` are in the template's own text.
 */
export interface UnrenderedItem {
  channel: Channel;
  /** The card's or banner's id, or the flag's key. */
  id: string;
  /** The JSON pointer of the field whose template gave no text. */
  pointer: string;
  reason: "TEMPLATE_ABORTED" | "TEMPLATE_LIMIT" | "INVALID_TEMPLATE";
  message: string;
  line: number;
  column: number;
}

// The params of each method (NoParams where it takes none).

/** The params of a method that takes none. */
export type NoParams = { [key: string]: never };
/** The params of `changeUser`. */
export interface ChangeUserParams {
  /**
   * The new current user; becomes `targetingKey` in evaluation contexts (at most 997 characters,
   * Braze's limit on external ids).
   */
  userId: string;
  /**
   * Attributes of the new user, merged into the stored ones; merged, they may take at most 64 KiB
   * encoded (-32602 past that).
   */
  attributes?: Attributes;
}
/** The params of `setUserAttributes`. */
export interface SetUserAttributesParams {
  /** The attributes to merge; merged, they may take at most 64 KiB encoded (-32602 past that). */
  attributes: Attributes;
}
/** The params of `removeSubscription`. */
export interface RemoveSubscriptionParams {
  /** The id `subscribe` or `subscribeToUpdates` returned. */
  subscriptionId: SubscriptionId;
}
/** The params of `refresh`. */
export interface RefreshParams {
  /** The channel to refresh. */
  channel: Channel;
  /** Banners only: the placements to refresh, 1 to 10 distinct ids. */
  placementIds?: string[];
}
/** The params of `getFeatureFlag`. */
export interface GetFeatureFlagParams {
  /** The flag's id (its key). */
  id: string;
}
/** The params of `getBanner`. */
export interface GetBannerParams {
  /** The placement. */
  placementId: string;
}
/** The params of `logImpression`. */
export interface LogImpressionParams {
  /** The channel. */
  channel: Channel;
  /** One item. Card id (contentCards), flag id (featureFlags) or placement id (banners). */
  id?: string;
  /**
   * Several distinct items of the channel. Card id (contentCards), flag id (featureFlags) or
   * placement id (banners).
   */
  ids?: string[];
}
/** The params of `logClick`. */
export interface LogClickParams {
  /** `contentCards` or `banners`. */
  channel: InteractiveChannel;
  /** Card id, or banner placement id. */
  id: string;
  /** Banners only: the button clicked. */
  buttonId?: string;
}
/** The params of `logDismiss`. */
export interface LogDismissParams {
  /** `contentCards` or `banners`. */
  channel: InteractiveChannel;
  /** Card id, or banner placement id. */
  id: string;
}
/** The params of `track`. */
export interface TrackParams {
  /** The event's name (at most 255 bytes). */
  name: string;
  /** A number that goes with it (OpenFeature's tracking value). */
  value?: number;
  /** Anything else about it (at most 16 KiB encoded). */
  details?: { [key: string]: unknown };
  /**
   * The user the event is about (the evaluation context's targeting key), at most 997 characters;
   * the current user when left out. An event for a user other than the current one carries no
   * `sessionId`.
   */
  userId?: string;
  /**
   * The evaluation context's attributes at the time of the event (at most 64 KiB encoded), recorded
   * with it: `attributes` at the sink and in the event's notifications. `targetingKey` and `$flagd`
   * are reserved.
   */
  attributes?: { [key: string]: unknown };
}
/** The params of `evaluate`. */
export interface EvaluateParams {
  /** The JSONLogic rule. */
  rule: unknown;
  /** The data the rule reads with `var`. */
  data?: unknown;
}
/** The params of `evaluateFlags`. */
export interface EvaluateFlagsParams {
  /** The evaluation context, with `targetingKey`. */
  context: { targetingKey?: string; [key: string]: unknown };
  /**
   * The flags to resolve; every flag when left out. A key holding U+0000 is refused
   * (INVALID_PARAMS): it would name a member of the reply, which JSON readers such as jansson
   * refuse.
   */
  flagKeys?: string[];
}
/** The params of `evaluateFeature`. */
export interface EvaluateFeatureParams {
  /** The feature's key. */
  featureKey: string;
  /**
   * GrowthBook's context for this request alone (its attributes); the current user's when absent.
   */
  attributes?: { [key: string]: unknown };
  /** Adds `explain` (FlagExplanation): why the feature has its value, and the rule that decided. */
  explain?: boolean;
}
/** The params of `evaluateFeatures`. */
export interface EvaluateFeaturesParams {
  /** GrowthBook's context for this request alone; the current user's when absent. */
  attributes?: { [key: string]: unknown };
  /**
   * The features to evaluate; all when absent. A key holding U+0000 is refused (INVALID_PARAMS): it
   * would name a member of the reply, which JSON readers such as jansson refuse.
   */
  featureKeys?: string[];
}
/** The params of `evaluateCondition`. */
export interface EvaluateConditionParams {
  /** The condition. */
  condition: { [key: string]: unknown };
  /** The attributes the condition tests. */
  attributes: { [key: string]: unknown };
  /** Saved groups (id → values) for `$inGroup`; the definitions' when absent. */
  savedGroups?: { [key: string]: unknown };
}
/** The params of `renderTemplate`. */
export interface RenderTemplateParams {
  /** The Liquid template (at most 1 MiB; more is TEMPLATE_LIMIT). */
  template: string;
  /** Plain Liquid variables, read by `{{ name }}`. */
  data?: { [key: string]: unknown };
  /**
   * A user's attributes, read by `${name}`; the current user's when neither this nor `data` is
   * given.
   */
  attributes?: { [key: string]: unknown };
}
/** The params of `setClock`. */
export interface SetClockParams {
  /** The new time: Unix seconds or an RFC 3339 date-time. */
  time: TimeInput;
}
/** The params of `advanceClock`. */
export interface AdvanceClockParams {
  /** How long passes, in seconds (≥ 0, at most a hundred years). */
  seconds: number;
}
/** The params of `injectFault`. */
export interface InjectFaultParams {
  /** Where the failure goes. */
  target: FaultTarget;
  /** The answer given instead of the real one. */
  response: FaultResponse;
  /** How many requests get it (1 by default). */
  times?: number;
}
/** The params of `clearFaults`. */
export interface ClearFaultsParams {
  /** The target to disarm; every one when left out. */
  target?: FaultTarget;
}

/**
 * The protocol's methods as the document declares them, each a method of Bunting (those
 * that resolve to a Subscription, or whose types follow a param, are declared on Bunting).
 */
export interface ProtocolMethods {
  // --- Protocol methods (generated) ---
  /** Returns this OpenRPC document. */
  rpcDiscover(params?: NoParams, options?: CallOptions): Promise<OpenRPCDocument>;
  /** Reports the server's state. */
  status(params?: NoParams, options?: CallOptions): Promise<StatusResult>;
  /** Switches to another user and starts a session for them. */
  changeUser(params: ChangeUserParams, options?: CallOptions): Promise<EmptyResult>;
  /** Merges attributes into the current user's attributes. */
  setUserAttributes(params: SetUserAttributesParams, options?: CallOptions): Promise<EmptyResult>;
  /** Starts a session for the current user. */
  openSession(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Ends the current session and flushes analytics. */
  closeSession(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Ends a subscription. */
  removeSubscription(params: RemoveSubscriptionParams, options?: CallOptions): Promise<{ removed: boolean }>;
  /** Refreshes a channel; the outcome arrives as events. */
  refresh(params: RefreshParams, options?: CallOptions): Promise<EmptyResult>;
  /** Returns one feature flag, or null. */
  getFeatureFlag(params: GetFeatureFlagParams, options?: CallOptions): Promise<FeatureFlag | null>;
  /** Returns the banner of a placement, or null. */
  getBanner(params: GetBannerParams, options?: CallOptions): Promise<Banner | null>;
  /** Logs impressions of cards, flags or banners. */
  logImpression(params: LogImpressionParams, options?: CallOptions): Promise<EmptyResult>;
  /** Logs a click on a card or banner. */
  logClick(params: LogClickParams, options?: CallOptions): Promise<EmptyResult>;
  /** Dismisses a card or banner. */
  logDismiss(params: LogDismissParams, options?: CallOptions): Promise<EmptyResult>;
  /** Records a custom event on the durable analytics path. */
  track(params: TrackParams, options?: CallOptions): Promise<TrackResult>;
  /** Sends queued analytics to the sink and waits for its answer. */
  flush(params?: NoParams, options?: CallOptions): Promise<FlushResult>;
  /** Deletes everything stored. */
  wipeData(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Disables the SDK: no network, no logging. */
  disableSDK(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Enables the SDK again. */
  enableSDK(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Evaluates a JSONLogic rule. */
  evaluate(params: EvaluateParams, options?: CallOptions): Promise<{ result: unknown }>;
  /** Evaluates many flags for one context, in one request. */
  evaluateFlags(params: EvaluateFlagsParams, options?: CallOptions): Promise<EvaluateFlagsResult>;
  /** Evaluates a GrowthBook feature. */
  evaluateFeature(params: EvaluateFeatureParams, options?: CallOptions): Promise<FeatureResult>;
  /** Evaluates many GrowthBook features in one round trip. */
  evaluateFeatures(params?: EvaluateFeaturesParams, options?: CallOptions): Promise<{ features: { [key: string]: FeatureResult } }>;
  /** Evaluates a GrowthBook condition. */
  evaluateCondition(params: EvaluateConditionParams, options?: CallOptions): Promise<{ result: boolean }>;
  /** Renders a Liquid template. */
  renderTemplate(params: RenderTemplateParams, options?: CallOptions): Promise<{ text: string }>;
  /** Flushes pending work and exits. */
  shutdown(params?: NoParams, options?: CallOptions): Promise<EmptyResult>;
  /** Sets the manual clock (`serve --clock manual`). */
  setClock(params: SetClockParams, options?: CallOptions): Promise<ClockResult>;
  /** Lets time pass on the manual clock (`serve --clock manual`). */
  advanceClock(params: AdvanceClockParams, options?: CallOptions): Promise<ClockResult>;
  /** Makes the next requests to the source, the sink or the stream fail (`serve --faults`). */
  injectFault(params: InjectFaultParams, options?: CallOptions): Promise<FaultsResult>;
  /** Disarms injected failures (`serve --faults`). */
  clearFaults(params?: ClearFaultsParams, options?: CallOptions): Promise<FaultsResult>;
  // --- End of the protocol methods (generated) ---
}
// ---- End of the generated protocol types ----

// ---------------------------------------------------------------------------
// Values of the protocol (components.schemas of the document)







export type ContentCardType = "classic" | "captionedImage" | "imageOnly" | "control";


/**
 * A feed of content cards (`getSnapshot` and `subscribe` with `extras`): only the cards whose
 * `extras` hold every key given with exactly that value are listed, and counted in `unviewedCount`.
 */
export type ExtrasFilter = { [key: string]: string };


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
  /** With `explain: true`: why the flag resolves as it does. */
  explain?: FlagExplanation;
}




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
export interface GetSnapshotParams<C extends Channel = Channel> {
  channel: C;
  /** Content cards only: list just this feed's cards, and count them in `unviewedCount`. */
  extras?: ExtrasFor<C>;
  /** Adds `explain`: each item of the definitions for the channel and why it is or is not in this snapshot. */
  explain?: boolean;
}
/** A flagd evaluation context: `targetingKey` and attributes at the top level. */
export type EvaluationContext = { targetingKey?: string; [key: string]: unknown };
export interface EvaluateFlagParams<T extends FlagType = FlagType> {
  flagKey: string;
  context: EvaluationContext;
  /** Ask for a value of this type; another type resolves to `ERROR`/`TYPE_MISMATCH`. */
  type?: T;
  /** Adds `explain`: why the flag resolves as it does, and the targeting that decided. */
  explain?: boolean;
}

// ---------------------------------------------------------------------------
// Errors



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
/** -32010 LIMIT_REACHED: a bound of the server reached, such as more subscriptions than `--max-subscriptions`. */
export declare class LimitReachedError extends BuntingError {}
/** -32011 NOT_ENABLED: a method for testing campaigns on a server not started for it (`clock: "manual"`, `faults: true`). */
export declare class NotEnabledError extends BuntingError {}
/**
 * -32012 INVALID_TEMPLATE, TEMPLATE_LIMIT, TEMPLATE_ABORTED: a Liquid template given to
 * `renderTemplate` that does not parse or fails to render, reached a limit, or ran `abort_message`
 * (`data.abortMessage`); `data.line` and `data.column` are in the template.
 */
export declare class TemplateError extends BuntingError {
  readonly data: FieldWhy & { line: number; column: number; abortMessage?: string };
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
  /** An http(s) URL of a Server-Sent Events stream of the definitions (nchan, say): an event's document is adopted at once; polls wait while it is connected. */
  stream?: string;
  /** Seconds the stream may send nothing, not even a comment, before it counts as dropped (60). */
  streamIdleTimeout?: number;
  /** The largest definitions document: a file, a URL's answer or a stream's event (128 MiB). */
  maxDocumentSize?: number;
  /** Refuse definitions with any problem at all (by default, as flagd, the rest serves). */
  strict?: boolean;
  /** The key (base64) that decrypts an encrypted GrowthBook payload. */
  decryptionKey?: string;
  /** Serve even if the definitions file cannot be used at start-up (subscribers are told why). */
  startWithoutDefinitions?: boolean;
  /** A directory, or `:memory:`. */
  storage?: string;
  /** Where to note documents that loaded, so that a start on one answers at once (default: the storage directory's). */
  cacheDir?: string;
  /** Neither use nor keep notes of documents that loaded: every start loads in full before serving. */
  noCache?: boolean;
  /** Days after which stored users not seen are forgotten (90); 0 keeps the current user only. */
  forgetAfter?: number;
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
  /** `Name: value` headers for the definitions, stream and sink URLs; one flag each. */
  header?: string[];
  caFile?: string;
  connectTimeout?: number;
  /** Seconds one HTTP request may take (not a call timeout: see `callTimeout`). */
  timeout?: number;
  logLevel?: "off" | "error" | "warn" | "info" | "debug";
  maxMessageSize?: number;
  /** Bytes of text one reply may carry; a larger result is answered `REPLY_TOO_LARGE`. */
  maxReplySize?: number;
  /** Subscriptions kept at once; past it `subscribe` is answered `LIMIT_REACHED`. */
  maxSubscriptions?: number;
  /** For test scripts: `manual` or `manual=TIME` (Unix seconds or RFC 3339), a clock moved only by `setClock` and `advanceClock`; `system` by default. */
  clock?: string;
  /** For test scripts: allow `injectFault` and `clearFaults`, failures of the definitions, the sink or the stream on demand. */
  faults?: boolean;
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
 * A subscription: an EventEmitter of "event", an async iterator of the events not
 * yet taken, and `waitFor`, which takes the first matching event, arrived or not.
 * An event goes to the listeners and to the first waiter that takes it; only one
 * that found neither is kept (the first listener added takes those over), so a
 * subscription with a listener keeps nothing for a later `waitFor`.
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
  /** The predicate is given events of the types asked for. */
  waitFor<T extends TypeOf<E>>(filter: EventFilter<Extract<E, { type: T }>> & { type: OneOrMore<T> }): Promise<Extract<E, { type: T }>>;
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

  /** Subscribes to a channel's events; null while the SDK is disabled. */
  subscribe<C extends Channel>(params: SubscribeParams<C>, options?: CallOptions): Promise<Subscription<BuntingEvent<C>> | null>;
  /** @deprecated The `updates` pattern; use `subscribe`. */
  subscribeToUpdates<C extends Channel>(
    params: SubscribeToUpdatesParams<C>,
    options?: CallOptions,
  ): Promise<Subscription<UpdatesNotification<C>> | null>;
  /** Subscribes to the definitions' READY, CHANGED and ERROR (OpenFeature's provider events); null while the SDK is disabled. */
  subscribeToDefinitions(params?: NoParams, options?: CallOptions): Promise<Subscription<DefinitionsEvent> | null>;
  /** The channel's cache snapshot. */
  getSnapshot<C extends Channel>(params: GetSnapshotParams<C>, options?: CallOptions): Promise<SnapshotByChannel[C]>;
  /** Resolves a flag for a context as flagd does; with `type`, the value is of that type (or null, TYPE_MISMATCH). */
  evaluateFlag<T extends FlagType = never>(params: EvaluateFlagParams<T>, options?: CallOptions): Promise<EvaluateFlagResult<FlagValue<T>>>;

  // --- End of the protocol methods ---
}
/** The rest of the protocol's methods, as generated from the document (ProtocolMethods above). */
export interface Bunting extends ProtocolMethods {}

/** The methods of the document the client was generated from. */
export declare const protocolMethods: ReadonlyArray<{
  method: string;
  name: string;
  subscribes: boolean;
  deprecated: boolean;
  params: ReadonlyArray<{ name: string; required: boolean }>;
}>;

// ---------------------------------------------------------------------------
// OpenFeature: a provider to the interface of @openfeature/server-sdk and @openfeature/web-sdk

/** The provider events, as the OpenFeature SDKs name them. */
export declare const ProviderEvents: Readonly<{
  Ready: "PROVIDER_READY";
  Error: "PROVIDER_ERROR";
  ConfigurationChanged: "PROVIDER_CONFIGURATION_CHANGED";
  Stale: "PROVIDER_STALE";
}>;
export type ProviderEventType = (typeof ProviderEvents)[keyof typeof ProviderEvents];
export interface ProviderEventDetails {
  message?: string;
  /** PROVIDER_CONFIGURATION_CHANGED: the flags added, removed or whose resolution could differ. */
  flagsChanged?: string[];
  errorCode?: string;
  metadata?: { [key: string]: string | number | boolean };
}
/** What the SDKs call on `provider.events`. */
export declare class ProviderEventEmitter {
  addHandler(eventType: ProviderEventType, handler: (details: ProviderEventDetails) => unknown): void;
  removeHandler(eventType: ProviderEventType, handler: (details: ProviderEventDetails) => unknown): void;
  removeAllHandlers(eventType?: ProviderEventType): void;
  getHandlers(eventType: ProviderEventType): Array<(details: ProviderEventDetails) => unknown>;
  emit(eventType: ProviderEventType, details?: ProviderEventDetails): void;
  setLogger(logger: unknown): this;
}
/** An OpenFeature evaluation context: `targetingKey` and attributes at the top level. */
export type OpenFeatureContext = { targetingKey?: string; [key: string]: unknown };
/** OpenFeature's ResolutionDetails: on an error, `value` is the caller's default. */
export interface ResolutionDetails<T> {
  value: T;
  variant?: string;
  reason?: string;
  errorCode?: string;
  errorMessage?: string;
  flagMetadata: { [key: string]: string | number | boolean };
}
/** A resolution: at once in the static paradigm when the context is held, else a promise. */
export type Resolution<T> = ResolutionDetails<T> | Promise<ResolutionDetails<T>>;
export interface ProviderOptions {
  /**
   * "dynamic" (default): each resolution is an `evaluateFlag` call, for a server that evaluates
   * for another user on every request. "static": every flag held for the context (one
   * `evaluateFlags` when it changes), for a program that serves one user at a time.
   */
  paradigm?: "dynamic" | "static";
  /** Milliseconds initialize waits for the definitions' first READY or ERROR (30,000). */
  readyTimeout?: number;
}
export declare class BuntingProvider {
  /** With a client (left open at onClose), or the options of a client to spawn and close. */
  constructor(client?: Bunting | SpawnOptions, options?: ProviderOptions);
  readonly metadata: { readonly name: "bunting" };
  readonly hooks: unknown[];
  readonly events: ProviderEventEmitter;
  readonly paradigm: "dynamic" | "static";
  /** The client; set at initialize when the provider spawns its own. */
  readonly client: Bunting | undefined;
  initialize(context?: OpenFeatureContext): Promise<void>;
  onClose(): Promise<void>;
  /** The web SDK's context change: the new context's flags are held before it reads any. */
  onContextChange(oldContext: OpenFeatureContext, newContext: OpenFeatureContext): Promise<void>;
  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context?: OpenFeatureContext, logger?: unknown): Resolution<boolean>;
  resolveStringEvaluation(flagKey: string, defaultValue: string, context?: OpenFeatureContext, logger?: unknown): Resolution<string>;
  resolveNumberEvaluation(flagKey: string, defaultValue: number, context?: OpenFeatureContext, logger?: unknown): Resolution<number>;
  resolveObjectEvaluation<T extends object>(flagKey: string, defaultValue: T, context?: OpenFeatureContext, logger?: unknown): Resolution<T>;
  /** `track` for the context's targeting key, with its attributes; does not wait. */
  track(trackingEventName: string, context?: OpenFeatureContext, details?: { value?: number; [key: string]: unknown }): void;
}

/** Where `Bunting.spawn` would find the binary; throws BuntingBinaryNotFoundError. */
export declare function findBinary(options?: { binary?: string; env?: { [name: string]: string | undefined }; cwd?: string }): string;
