// Generated from schemas/openrpc.json (Bunting 0.1.0) by clients/node/generate.mjs.
// Do not edit: change the document, then run `node clients/node/generate.mjs`.

import { Connection } from "./connection.js";

/**
 * One method per method of the protocol. Each takes the method's params as an object
 * (by name) and the call's options, `{timeout, signal}`, and resolves to the result.
 * Error replies reject with a BuntingError of the class of their `data.reason`.
 */
export class BuntingMethods extends Connection {
  /**
   * Returns this OpenRPC document.
   *
   * Returns the OpenRPC document that describes this build: the document in
   * `schemas/openrpc.json`, embedded in the binary. Methods the build does not implement yet carry
   * `"x-implemented": false`.
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").OpenRPCDocument>} openrpcDocument
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // discover
   * await client.rpcDiscover();
   * // → {
   * //     "openrpc": "1.3.2",
   * //     "info": {"title":"Bunting","version":"0.1.0"},
   * //     "methods": [{"name":"rpc.discover","params":[],"x-implemented":true}]
   * //   }
   */
  rpcDiscover(params, options) {
    return this.call("rpc.discover", params, options);
  }

  /**
   * Reports the server's state.
   *
   * Reports the version, the framing in use (null before the first bytes decided it) and the
   * uptime in seconds. It also reports the current user (`userId`, null for the anonymous user),
   * the open session (`sessionId`, null when none), whether the SDK is enabled, per channel
   * whether it is enabled, its `lastSyncAt` and how many items the cache holds, and how many
   * analytics events wait for the sink. Reads only: it changes nothing, sends no notification, and
   * answers while the SDK is disabled. `definitions` says where the definitions are read from,
   * whether a document is loaded (and since when), every problem of the loaded document (a flag in
   * error, a banner or card left out, each with its pointer and line:column), the source's current
   * problem when the last check found one, and (`aborted`) the items the current user's last
   * refreshes left out because their Liquid templates gave this user no text (`abort_message`, a
   * render error). `stream`, when the definitions come over a Server-Sent Events stream too
   * (`--stream`, or GrowthBook's announced one), says whether it is connected and since when, the
   * last event id it would resume from, how many times it tried to connect again and how many
   * events came, and why it is down while it is. A server started with `--clock manual` adds
   * `clock` (`{kind: "manual", time, date}`), one started with `--faults` adds `faults`, the
   * injected failures still armed.
   *
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").StatusResult>} status
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // anonymous user, before any refresh
   * await client.status();
   * // → {
   * //     "version": "0.1.0",
   * //     "framing": "ndjson",
   * //     "uptime": 12.5,
   * //     "userId": null,
   * //     "sessionId": null,
   * //     "sdkEnabled": true,
   * //     "channels": {
   * //       "featureFlags": {"enabled":true,"lastSyncAt":0,"itemCount":0},
   * //       "banners": {"enabled":true,"lastSyncAt":0,"itemCount":0},
   * //       "contentCards": {"enabled":true,"lastSyncAt":0,"itemCount":0}
   * //     },
   * //     "pendingAnalytics": 0,
   * //     "definitions": {
   * //       "location": "(bundled example)",
   * //       "loaded": true,
   * //       "loadedAt": 1701000000.25,
   * //       "problems": [],
   * //       "aborted": []
   * //     }
   * //   }
   */
  status(params, options) {
    return this.call("status", params, options);
  }

  /**
   * Switches to another user and starts a session for them.
   *
   * Makes `userId` the current user; it is kept in storage, so a restart on the same storage
   * resumes as this user with this user's cached data. Before the switch, the previous user's
   * queued analytics are flushed (their `FLUSHED` events may follow), and a refresh still pending
   * for the previous user is dropped. `attributes`, when given, are merged into the new user's
   * attributes before anything is evaluated for them. After the `{}` response (written before the
   * new user's refresh is evaluated, so that a returning user's cached data reaches the client
   * meanwhile; a request read after `changeUser` still sees the refreshed data), each event
   * subscription receives `CACHE_LOAD` with the new user's cached data (empty, with `lastSyncAt`
   * 0, for a user never seen), each update subscription an `updates`, and a new session starts for
   * the new user: each channel that has a subscription is refreshed without costing a rate-limit
   * token, and `DATA_UPDATED`/`AUTO_SERVER_REFRESH` (or `ERROR`) follows as each refresh finishes.
   * Before the first `changeUser` the server acts for an anonymous user (`status.userId` null).
   * Changing to the current user only merges `attributes`: no event, no new session. While the SDK
   * is disabled it answers -32004 SDK_DISABLED and nothing changes.
   *
   * @param {object} params
   * @param {string} params.userId The new current user; becomes `targetingKey` in evaluation
   *     contexts (at most 997 characters, Braze's limit on external ids).
   * @param {import("../index.js").Attributes} [params.attributes] Attributes of the new user,
   *     merged into the stored ones; merged, they may take at most 64 KiB encoded (-32602 past
   *     that).
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // switch user
   * await client.changeUser({"userId":"user-42"});
   * // → {}
   */
  changeUser(params, options) {
    return this.call("changeUser", params, options);
  }

  /**
   * Merges attributes into the current user's attributes.
   *
   * Merges `attributes` into the current user's stored attributes (a key given replaces, a key
   * given as null removes, other keys stay). Triggers no refresh and sends no notification; the
   * next refresh evaluates with the new attributes. While the SDK is disabled it answers -32004
   * SDK_DISABLED.
   *
   * @param {object} params
   * @param {import("../index.js").Attributes} params.attributes The attributes to merge; merged,
   *     they may take at most 64 KiB encoded (-32602 past that).
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // set attributes
   * await client.setUserAttributes({"attributes":{"tier":"gold","country":"NL"}});
   * // → {}
   */
  setUserAttributes(params, options) {
    return this.call("setUserAttributes", params, options);
  }

  /**
   * Starts a session for the current user.
   *
   * Starts a new session for the current user (an open session ends first, as `closeSession` would
   * end it). After the `{}` response, each channel that has a subscription (event or update) is
   * refreshed without costing a rate-limit token: `DATA_UPDATED`/`AUTO_SERVER_REFRESH` (or
   * `ERROR`) follows as each refresh finishes. A channel with no subscription is not refreshed. A
   * session also bounds flag-impression de-duplication (once per flag per session) and refills the
   * banners' manual-refresh bucket (5 tokens per session by default). No session is open at
   * start-up. While the SDK is disabled it answers -32004 SDK_DISABLED.
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // open a session
   * await client.openSession();
   * // → {}
   */
  openSession(params, options) {
    return this.call("openSession", params, options);
  }

  /**
   * Ends the current session and flushes analytics.
   *
   * Ends the open session and starts a flush of the queued analytics; the `{}` response does not
   * wait for the sink (use `flush` for that), and `FLUSHED` events follow as the sink accepts
   * events. Without an open session it answers `{}` and does nothing. While the SDK is disabled
   * the session ends but nothing is sent.
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // close the session
   * await client.closeSession();
   * // → {}
   */
  closeSession(params, options) {
    return this.call("closeSession", params, options);
  }

  /**
   * Subscribes to a channel's events.
   *
   * Subscribes to a channel's events and answers `{subscriptionId}`. Right after the response the
   * subscription receives one `CACHE_REPLAY` event with the channel's cached data; later it
   * receives `CACHE_LOAD`, `DATA_UPDATED`, `IMPRESSION`, `CLICK`, `DISMISS` and `ERROR` events of
   * that channel (see the `event` notification). Subscribing starts no refresh. If the channel is
   * disabled, or no configuration has arrived yet, it still answers normally, then sends `ERROR`
   * `FEATURE_DISABLED` instead of `CACHE_REPLAY`: `DO_NOT_RETRY` when the definitions turn the
   * channel off, `SDK_WILL_RETRY` while the first document is being fetched (when the definitions
   * could not be read or were invalid, that `ERROR` carries the real cause instead: `SERVER_ERROR`
   * or `INVALID_SERVER_DATA`, with the source's message); the subscription stays, and when the
   * channel is enabled a refresh runs and `DATA_UPDATED` follows. If local storage was found
   * damaged at start-up (moved aside and started afresh) or cannot be used (state is kept in
   * memory only), an `ERROR` `CLIENT_ERROR`/`DO_NOT_RETRY` whose `message` says so follows the
   * `CACHE_REPLAY` (or the `FEATURE_DISABLED` error), on every subscription made while this server
   * runs. While the SDK is disabled it answers null and makes no subscription (subscriptions made
   * before `disableSDK` stay and work again after `enableSDK`). A server keeps at most
   * `--max-subscriptions` subscriptions (100 by default; -32010 `LIMIT_REACHED` past it); each
   * receives its own events. With `extras` (content cards only; -32602 for another channel) the
   * subscription's snapshots list only the cards of that feed.
   *
   * @param {object} params
   * @param {import("../index.js").Channel} params.channel The channel to subscribe to.
   * @param {import("../index.js").ExtrasFilter} [params.extras] Content cards only: the
   *     subscription's snapshots list just the cards whose `extras` hold all of these keys and
   *     values (a feed), with `unviewedCount` counting those.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").Subscription | null>} the Subscription (null where the
   *     server made none)
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").LimitReachedError} -32010 LIMIT_REACHED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // subscribe to content cards
   * await client.subscribe({"channel":"contentCards"});
   */
  subscribe(params, options) {
    return this.subscribeWith("subscribe", params, options);
  }

  /**
   * @deprecated Subscribes to a channel's cache updates (deprecated pattern).
   * Subscribes to a channel's cache updates (deprecated pattern).
   *
   * Deprecated: use `subscribe`. Subscribes to a channel's data and answers `{subscriptionId}`.
   * The subscription receives an `updates` notification whenever the channel's cache changes for
   * the current user: wherever an event subscription of the channel would receive `CACHE_LOAD` or
   * `DATA_UPDATED` (so also after a refresh that changed nothing), and nothing else: no replay on
   * subscribing, no analytics, no errors. While the SDK is disabled it answers null and makes no
   * subscription. `removeSubscription` ends it.
   *
   * @param {object} params
   * @param {import("../index.js").Channel} params.channel The channel to subscribe to.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").Subscription | null>} the Subscription (null where the
   *     server made none)
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").LimitReachedError} -32010 LIMIT_REACHED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // subscribe to flag updates
   * await client.subscribeToUpdates({"channel":"featureFlags"});
   */
  subscribeToUpdates(params, options) {
    return this.subscribeWith("subscribeToUpdates", params, options);
  }

  /**
   * Subscribes to what becomes of the definitions.
   *
   * Subscribes to the definitions themselves — OpenFeature's provider events — and answers
   * `{subscriptionId}`. Right after the response the subscription receives `definitions` `READY`
   * when definitions are loaded, or `ERROR` with the cause (`stale` false) when they could not be
   * loaded; while the first document is still being fetched, nothing until it arrives. Later:
   * `CHANGED` with the flags whose resolution could differ each time a new document is adopted,
   * `ERROR` when the source fails or sends an invalid document (`stale` true while older
   * definitions serve), and `READY` when the source answers again unchanged after an `ERROR`.
   * `removeSubscription` ends it. While the SDK is disabled it answers null.
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").Subscription | null>} the Subscription (null where the
   *     server made none)
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").LimitReachedError} -32010 LIMIT_REACHED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // subscribe
   * await client.subscribeToDefinitions();
   */
  subscribeToDefinitions(params, options) {
    return this.subscribeWith("subscribeToDefinitions", params, options);
  }

  /**
   * Ends a subscription.
   *
   * Ends a subscription of either kind. Answers `{removed: true}` when the id named a live
   * subscription and `{removed: false}` otherwise (unknown or already removed): an unknown id is
   * not an error. No notification for that subscription is written after the response. Answers
   * while the SDK is disabled.
   *
   * @param {object} params
   * @param {import("../index.js").SubscriptionId} params.subscriptionId The id `subscribe` or
   *     `subscribeToUpdates` returned.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<{removed: boolean}>} removal
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // remove a subscription
   * await client.removeSubscription({"subscriptionId":"sub-1"});
   * // → {"removed":true}
   */
  removeSubscription(params, options) {
    return this.call("removeSubscription", params, options);
  }

  /**
   * Refreshes a channel; the outcome arrives as events.
   *
   * Starts a manual refresh of a channel for the current user and answers `{}` at once; the
   * outcome arrives as events to the channel's subscriptions:
   * `DATA_UPDATED`/`MANUAL_SERVER_REFRESH` when it finishes (even with no change), or `ERROR`.
   * Unlike the other requests, its effect is not in place when the next request is handled: it
   * re-reads the source, which is I/O, and later requests are not held up for it, so a read sent
   * before its `DATA_UPDATED` (or `ERROR`) arrives answers from the cache as it was; a script
   * waits for that event before reading. A manual refresh re-reads the definitions source; if the
   * document changed, the other subscribed channels are refreshed too
   * (`DATA_UPDATED`/`AUTO_SERVER_REFRESH`). Manual refreshes are rate limited per channel by a
   * token bucket (defaults: content cards 5 tokens, one back every 180 s; banners 5 tokens per
   * session, one back every 180 s; feature flags 5 tokens, one back every 300 s;
   * `--refresh-rate-limit` overrides): a refused refresh sends `ERROR`
   * `RATE_LIMITED`/`INTEGRATOR_MAY_RETRY` with `rateLimitedUntil`. Failures are retried with
   * backoff (`ERROR` `SERVER_ERROR`/`SDK_WILL_RETRY` on each failed try, then
   * `INTEGRATOR_MAY_RETRY`); see ErrorReason and RetryState. A disabled channel sends `ERROR`
   * `FEATURE_DISABLED`/`DO_NOT_RETRY`; while the SDK is disabled it sends `ERROR`
   * `SDK_DISABLED`/`DO_NOT_RETRY` and nothing goes to the network. `placementIds` is for `banners`
   * only (with another channel it is -32602): at most 10 distinct placement ids (more is -32602);
   * the result merges into the cache: placements it did not name stay, named placements that now
   * have no banner are removed. Without `placementIds` a banners refresh covers every placement of
   * the definitions and replaces the banners cache.
   *
   * @param {object} params
   * @param {import("../index.js").Channel} params.channel The channel to refresh.
   * @param {string[]} [params.placementIds] Banners only: the placements to refresh, 1 to 10
   *     distinct ids.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // refresh content cards
   * await client.refresh({"channel":"contentCards"});
   * // → {}
   */
  refresh(params, options) {
    return this.call("refresh", params, options);
  }

  /**
   * Returns a channel's cached data.
   *
   * Returns the channel's cache snapshot for the current user, in the same shape as an event's
   * `cacheSnapshot`: `contentCards` → ContentCardsSnapshot, `banners` → BannersSnapshot,
   * `featureFlags` → FeatureFlagsSnapshot. While the channel is disabled the data is empty and
   * `lastSyncAt` is null. Before the channel was refreshed for the current user (before the first
   * definitions arrived, say), the answer carries `notSynced` with why and what to do, in the
   * words `getFeatureFlag`'s -32008 `NOT_SYNCED` uses, so that an empty list is never mistaken for
   * "nothing". Reads only: no refresh, no notification, nothing logged; answers from the cache
   * while the SDK is disabled. With `extras` (content cards only; -32602 for another channel) only
   * the cards of that feed are listed, and `unviewedCount` counts them. With `explain: true` the
   * snapshot carries `explain`: each item of the definitions for the channel (flags, banners or
   * cards, then the entries left out when the definitions loaded), decided for the current user
   * now, with whether this snapshot holds it and why (targeting, schedule, expiry, control group,
   * a banner of higher priority, a dismissal, a problem in the item).
   *
   * @param {object} params
   * @param {import("../index.js").Channel} params.channel The channel.
   * @param {import("../index.js").ExtrasFilter} [params.extras] Content cards only: list just the
   *     cards whose `extras` hold all of these keys and values.
   * @param {boolean} [params.explain] Adds `explain`: each item of the definitions for the channel
   *     and why it is or is not in this snapshot.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").CacheSnapshot>} cacheSnapshot
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // content cards
   * await client.getSnapshot({"channel":"contentCards"});
   * // → {
   * //     "contentCards": {
   * //       "cards": [
   * //         {
   * //           "id": "spring-sale",
   * //           "type": "classic",
   * //           "isControl": false,
   * //           "title": "Spring sale",
   * //           "description": "20% off until Sunday",
   * //           "url": "https://example.com/sale",
   * //           "linkText": "Shop",
   * //           "extras": {},
   * //           "created": 1701000000,
   * //           "updated": 1701003600,
   * //           "pinned": true,
   * //           "dismissible": true,
   * //           "viewed": true,
   * //           "clicked": false
   * //         },
   * //         {
   * //           "id": "welcome",
   * //           "type": "captionedImage",
   * //           "isControl": false,
   * //           "title": "Welcome",
   * //           "description": "Start here",
   * //           "imageUrl": "https://example.com/w.png",
   * //           "aspectRatio": 1.5,
   * //           "url": "https://example.com",
   * //           "linkText": "Open",
   * //           "extras": {"feed":"inbox"},
   * //           "created": 1700900000,
   * //           "expiresAt": 4102444800,
   * //           "pinned": false,
   * //           "dismissible": true,
   * //           "viewed": false,
   * //           "clicked": false
   * //         }
   * //       ],
   * //       "unviewedCount": 1
   * //     },
   * //     "lastSyncAt": 1701007200
   * //   }
   */
  getSnapshot(params, options) {
    return this.call("getSnapshot", params, options);
  }

  /**
   * Returns one feature flag, or null.
   *
   * Returns the current user's feature flag with this id, or null when there is none (unknown id,
   * or the featureFlags channel is disabled). Logs nothing: call `logImpression` when the flag is
   * used. Before the `featureFlags` channel was refreshed for the current user it answers -32008
   * `NOT_SYNCED` (with what to do), and while the definitions turn the channel off -32009
   * `CHANNEL_DISABLED`: `null` means only that the synced cache has no such item.
   *
   * @param {object} params
   * @param {string} params.id The flag's id (its key).
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").FeatureFlag | null>} flag
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").NotSyncedError} -32008 NOT_SYNCED
   * @throws {import("../index.js").ChannelDisabledError} -32009 CHANNEL_DISABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // known flag
   * await client.getFeatureFlag({"id":"checkout"});
   * // → {
   * //     "id": "checkout",
   * //     "enabled": true,
   * //     "properties": {
   * //       "color": {"type":"string","value":"green"},
   * //       "maxItems": {"type":"number","value":12},
   * //       "hero": {"type":"image","value":"https://example.com/hero.png"},
   * //       "launch": {"type":"datetime","value":1704067200}
   * //     },
   * //     "trackingString": "checkout:new"
   * //   }
   */
  getFeatureFlag(params, options) {
    return this.call("getFeatureFlag", params, options);
  }

  /**
   * Returns the banner of a placement, or null.
   *
   * Returns the banner that fills this placement for the current user, or null when none does (no
   * eligible banner, unknown placement, dismissed, or the banners channel is disabled). Logs
   * nothing. Before the `banners` channel was refreshed for the current user it answers -32008
   * `NOT_SYNCED` (with what to do), and while the definitions turn the channel off -32009
   * `CHANNEL_DISABLED`: `null` means only that the synced cache has no such item.
   *
   * @param {object} params
   * @param {string} params.placementId The placement.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").Banner | null>} banner
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").NotSyncedError} -32008 NOT_SYNCED
   * @throws {import("../index.js").ChannelDisabledError} -32009 CHANNEL_DISABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // filled placement
   * await client.getBanner({"placementId":"home-top"});
   * // → {
   * //     "id": "spring-top",
   * //     "placementId": "home-top",
   * //     "html": "<p>Spring</p>",
   * //     "isControl": false,
   * //     "isTestSend": false,
   * //     "expiresAt": 4102444800,
   * //     "properties": {"theme":{"type":"string","value":"dark"}},
   * //     "trackingId": "spring-top:v2"
   * //   }
   */
  getBanner(params, options) {
    return this.call("getBanner", params, options);
  }

  /**
   * Logs impressions of cards, flags or banners.
   *
   * Logs an impression of each item named by `id` or `ids` (exactly one of the two; both or
   * neither is -32602): card ids for `contentCards`, flag ids for `featureFlags`, placement ids
   * for `banners` (the banner filling the placement). Each event is committed to storage before
   * its `IMPRESSION`/`ENQUEUED` event is sent (in the order of `ids`, after the `{}` response);
   * `IMPRESSION`/`FLUSHED` follows once the sink accepted it. A card's impression sets its
   * `viewed` (and so lowers `unviewedCount`) without sending `DATA_UPDATED`. A control card's or
   * control banner's impression is an ordinary impression. A feature flag impression is logged at
   * most once per flag per session (keyed by `trackingString` where the flag has one): a repeat
   * answers `{}` and sends nothing. The request is all or nothing: an id that names no listed item
   * of the channel answers -32002 NOT_FOUND (`data.field` names it, e.g. `ids[1]`) and nothing is
   * logged. While the SDK is disabled it answers -32004 SDK_DISABLED.
   *
   * @param {object} params
   * @param {import("../index.js").Channel} params.channel The channel.
   * @param {string} [params.id] One item. Card id (contentCards), flag id (featureFlags) or
   *     placement id (banners).
   * @param {string[]} [params.ids] Several distinct items of the channel. Card id (contentCards),
   *     flag id (featureFlags) or placement id (banners).
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").NotFoundError} -32002 NOT_FOUND
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").StorageError} -32007 STORAGE_ERROR
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // one card
   * await client.logImpression({"channel":"contentCards","id":"welcome"});
   * // → {}
   */
  logImpression(params, options) {
    return this.call("logImpression", params, options);
  }

  /**
   * Logs a click on a card or banner.
   *
   * Logs a click on a content card (`id` is the card id) or on the banner filling a placement
   * (`id` is the placement id). The event is committed to storage, then after the `{}` response
   * `CLICK`/`ENQUEUED` is sent (with `buttonId` when given), and `CLICK`/`FLUSHED` once the sink
   * accepted it. A card's click sets its `clicked` without sending `DATA_UPDATED`. `buttonId`
   * names the banner button clicked; it is for `banners` only (with `contentCards` it is -32602).
   * An id that names no listed card or filled placement answers -32002 NOT_FOUND; a control card
   * or control banner cannot be clicked: -32003 NOT_ALLOWED. While the SDK is disabled it answers
   * -32004 SDK_DISABLED.
   *
   * @param {object} params
   * @param {import("../index.js").InteractiveChannel} params.channel `contentCards` or `banners`.
   * @param {string} params.id Card id, or banner placement id.
   * @param {string} [params.buttonId] Banners only: the button clicked.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").NotFoundError} -32002 NOT_FOUND
   * @throws {import("../index.js").NotAllowedError} -32003 NOT_ALLOWED
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").StorageError} -32007 STORAGE_ERROR
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // click a card
   * await client.logClick({"channel":"contentCards","id":"welcome"});
   * // → {}
   */
  logClick(params, options) {
    return this.call("logClick", params, options);
  }

  /**
   * Dismisses a card or banner.
   *
   * Dismisses a content card (`id` is the card id) or the banner filling a placement (`id` is the
   * placement id). After the `{}` response the subscriptions receive `DISMISS`/`ENQUEUED`, then
   * `DATA_UPDATED`/`CLIENT_ACTION` with a snapshot without the item (update subscriptions an
   * `updates`), and `DISMISS`/`FLUSHED` once the sink accepted the event. The dismissal lasts
   * across refreshes and restarts: the card, or that banner (by banner id), is not listed again
   * for this user; a later refresh may fill the placement with another banner. An id that names no
   * listed card or filled placement (including one already dismissed) answers -32002 NOT_FOUND; a
   * card that is not `dismissible`, a control card or a control banner: -32003 NOT_ALLOWED. While
   * the SDK is disabled it answers -32004 SDK_DISABLED.
   *
   * @param {object} params
   * @param {import("../index.js").InteractiveChannel} params.channel `contentCards` or `banners`.
   * @param {string} params.id Card id, or banner placement id.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").NotFoundError} -32002 NOT_FOUND
   * @throws {import("../index.js").NotAllowedError} -32003 NOT_ALLOWED
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").StorageError} -32007 STORAGE_ERROR
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // dismiss a card
   * await client.logDismiss({"channel":"contentCards","id":"welcome"});
   * // → {}
   */
  logDismiss(params, options) {
    return this.call("logDismiss", params, options);
  }

  /**
   * Records a custom event on the durable analytics path.
   *
   * Records an event the client names (OpenFeature's `track`), for the current user and session,
   * or for the user it names (`userId`, the evaluation context's targeting key; OpenFeature's
   * `track` passes the context with the event, so a server that tracks for many users records each
   * event under its own user): it is committed to local storage before `CUSTOM`/`ENQUEUED` is
   * sent, and deleted only after the sink accepted it (`CUSTOM`/`FLUSHED`, same `eventId`), as
   * impressions are; at the sink it is `kind` `custom` with `name`, `value`, `details` and
   * `attributes` (`channel` `featureFlags`, `itemId` the name, `userId` the event's user). The
   * notifications go to the event subscriptions of the `featureFlags` channel. Answers the event's
   * id. Refused while the SDK is disabled (-32004); -32007 when it cannot be stored.
   *
   * @param {object} params
   * @param {string} params.name The event's name (at most 255 bytes).
   * @param {number} [params.value] A number that goes with it (OpenFeature's tracking value).
   * @param {object} [params.details] Anything else about it (at most 16 KiB encoded).
   * @param {string} [params.userId] The user the event is about (the evaluation context's
   *     targeting key), at most 997 characters; the current user when left out. An event for a
   *     user other than the current one carries no `sessionId`.
   * @param {object} [params.attributes] The evaluation context's attributes at the time of the
   *     event (at most 64 KiB encoded), recorded with it: `attributes` at the sink and in the
   *     event's notifications. `targetingKey` and `$flagd` are reserved.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").TrackResult>} tracked
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").StorageError} -32007 STORAGE_ERROR
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // a purchase
   * await client.track({"name":"checkout-completed","value":42.5,"details":{"items":3}});
   * // → {"eventId":"5f0c3a9e2b1d4c6e8f7a9b0c1d2e3f40"}
   */
  track(params, options) {
    return this.call("track", params, options);
  }

  /**
   * Sends queued analytics to the sink and waits for its answer.
   *
   * Sends every queued analytics event (of any user) to the sink and answers once the sink
   * answered: `{flushed, pending}`, the events it accepted and those still queued. The `FLUSHED`
   * events of the accepted events follow the response. `flushed` counts the events the sink
   * accepted while this flush ran, including a batch already on its way when it was called (sent
   * by `changeUser` or the periodic flush) that lands after the call; a batch that landed before
   * it is not counted again, so after a user change the count depends on timing: to know that an
   * event reached the sink, wait for its `FLUSHED`, or for `pending` 0. A sink failure or timeout
   * is not an error: the events stay queued (`pending`) and are sent again at the next flush, with
   * the same `eventId`. Without a sink (`--sink` not given) it answers `{flushed: 0, pending: N}`
   * at once. Queued analytics are also flushed every `--flush-interval` (10 s by default), at
   * `closeSession`, at `changeUser` (the previous user's events first) and at shutdown. While the
   * SDK is disabled it answers -32004 SDK_DISABLED and nothing goes to the network.
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").FlushResult>} flush
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // all accepted
   * await client.flush();
   * // → {"flushed":3,"pending":0}
   */
  flush(params, options) {
    return this.call("flush", params, options);
  }

  /**
   * Deletes everything stored.
   *
   * Deletes every stored thing: all users' cached snapshots, attributes, dismissals, viewed and
   * clicked states, flag impressions of the session, and the queued analytics, which are dropped
   * (never sent, no `FLUSHED`). The current user id, the session, the subscriptions and the
   * enabled/disabled state stay. After the `{}` response each event subscription receives
   * `CACHE_LOAD` with an empty snapshot (`lastSyncAt` 0, or null for a disabled channel) and each
   * update subscription an `updates` with empty data. No refresh is started. Answers while the SDK
   * is disabled.
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").StorageError} -32007 STORAGE_ERROR
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // wipe
   * await client.wipeData();
   * // → {}
   */
  wipeData(params, options) {
    return this.call("wipeData", params, options);
  }

  /**
   * Disables the SDK: no network, no logging.
   *
   * Disables the SDK; the setting is kept in storage, so a restart on the same storage stays
   * disabled until `enableSDK`. Pending refreshes and retries are cancelled without an event.
   * While disabled nothing goes to the network: `refresh` answers `{}` then sends `ERROR`
   * `SDK_DISABLED`/`DO_NOT_RETRY`; `subscribe` and `subscribeToUpdates` answer null; `changeUser`,
   * `setUserAttributes`, `openSession`, `logImpression`, `logClick`, `logDismiss` and `flush`
   * answer -32004 SDK_DISABLED. Existing subscriptions stay, caches and queued analytics are kept,
   * and the read methods (`status`, `getSnapshot`, `getFeatureFlag`, `getBanner`, `evaluate`,
   * `evaluateFlag`) still answer. Disabling a disabled SDK answers `{}`. Sends no notification
   * itself.
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // disable
   * await client.disableSDK();
   * // → {}
   */
  disableSDK(params, options) {
    return this.call("disableSDK", params, options);
  }

  /**
   * Enables the SDK again.
   *
   * Enables the SDK. If it was disabled, the subscriptions work again and, after the `{}`
   * response, each channel that has a subscription is refreshed:
   * `DATA_UPDATED`/`AUTO_SERVER_REFRESH` (or `ERROR`) follows as each finishes; queued analytics
   * are sent at the next flush. Enabling an enabled SDK answers `{}` and does nothing.
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // enable
   * await client.enableSDK();
   * // → {}
   */
  enableSDK(params, options) {
    return this.call("enableSDK", params, options);
  }

  /**
   * Evaluates a JSONLogic rule.
   *
   * Evaluates a JSONLogic rule against `data` and answers `{result}`. The operators are
   * JSONLogic's plus flagd's (`fractional`, `sem_ver`, `starts_with`, `ends_with`); the rule
   * stands alone (no `$ref` to the definitions' `$evaluators`). Without `data` the rule is
   * evaluated against null. A rule that does not compile (e.g. an unknown operator) or fails to
   * evaluate (including a result that is not JSON, such as NaN) answers -32005 INVALID_RULE with
   * `data.field` `rule` and `data.why`. Touches no user state, logs nothing, and answers while the
   * SDK is disabled.
   *
   * @param {object} params
   * @param {any} params.rule The JSONLogic rule.
   * @param {any} [params.data] The data the rule reads with `var`.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<{result: any}>} evaluation
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").InvalidRuleError} -32005 INVALID_RULE
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // compare
   * await client.evaluate({"rule":{"==":[{"var":"tier"},"gold"]},"data":{"tier":"gold"}});
   * // → {"result":true}
   */
  evaluate(params, options) {
    return this.call("evaluate", params, options);
  }

  /**
   * Evaluates a flag of the definitions as flagd would.
   *
   * Evaluates the flag `flagKey` of the current definitions for `context` exactly as flagd
   * resolves it and answers `{value, variant, reason, errorCode?, errorMessage?, metadata?}` with
   * flagd's variant, value and reason, and the merged metadata (the flag's over the flag set's).
   * `context` is a flagd evaluation context: `targetingKey` (the user id, optional as in flagd)
   * and attributes at the top level; `$flagd.flagKey` and `$flagd.timestamp` are added by the
   * server. With `type`, a value of another type answers `reason` `ERROR`, `errorCode`
   * `TYPE_MISMATCH`. An unknown flag is not an RPC error: it answers `reason` `ERROR`, `errorCode`
   * `FLAG_NOT_FOUND`, `value` and `variant` null; a flag whose definition cannot be used answers
   * `PARSE_ERROR`. Touches no user state and logs nothing (no impression); answers while the SDK
   * is disabled. With `explain: true` the result carries `explain`: why, in words, the targeting
   * that decided (`rule`, a JSON pointer into the definitions) and whether the `featureFlags`
   * channel lists the flag.
   *
   * @param {object} params
   * @param {string} params.flagKey The flag's key in the definitions.
   * @param {{targetingKey?: string, [key: string]: any}} params.context The evaluation context,
   *     with `targetingKey`.
   * @param {import("../index.js").FlagType} [params.type] The type the caller asks for
   *     (OpenFeature's typed resolution); a resolved value of another type answers
   *     `ERROR`/`TYPE_MISMATCH`.
   * @param {boolean} [params.explain] Adds `explain` (FlagExplanation): why the flag resolves as
   *     it does, and the targeting that decided.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EvaluateFlagResult>} resolution
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // targeting match
   * await client.evaluateFlag({"flagKey":"checkout","context":{"targetingKey":"user-42","tier":"gold"}});
   * // → {
   * //     "value": {"enabled":true,"properties":{"color":{"type":"string","value":"green"}}},
   * //     "variant": "new",
   * //     "reason": "TARGETING_MATCH"
   * //   }
   */
  evaluateFlag(params, options) {
    return this.call("evaluateFlag", params, options);
  }

  /**
   * Evaluates many flags for one context, in one request.
   *
   * Resolves every flag of the current definitions (or the ones named in `flagKeys`) for `context`
   * as `evaluateFlag` does, like flagd's `ResolveAll` and OFREP's bulk evaluation, so that a
   * client evaluating many flags pays one round trip. Without `flagKeys`, every flag is in the
   * answer (disabled ones with reason `DISABLED`); a named flag that does not exist answers
   * `FLAG_NOT_FOUND`. `metadata` is the flag set's. Touches no user state and logs nothing.
   *
   * @param {object} params
   * @param {{targetingKey?: string, [key: string]: any}} params.context The evaluation context,
   *     with `targetingKey`.
   * @param {string[]} [params.flagKeys] The flags to resolve; every flag when left out. A key
   *     holding U+0000 is refused (INVALID_PARAMS): it would name a member of the reply, which
   *     JSON readers such as jansson refuse.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EvaluateFlagsResult>} resolutions
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // two flags
   * await client.evaluateFlags({"context":{"targetingKey":"user-7"},"flagKeys":["rollout","nope"]});
   * // → {
   * //     "flags": {
   * //       "rollout": {"value":false,"variant":"off","reason":"TARGETING_MATCH"},
   * //       "nope": {
   * //         "value": null,
   * //         "variant": null,
   * //         "reason": "ERROR",
   * //         "errorCode": "FLAG_NOT_FOUND",
   * //         "errorMessage": "flag \"nope\" not found"
   * //       }
   * //     }
   * //   }
   */
  evaluateFlags(params, options) {
    return this.call("evaluateFlags", params, options);
  }

  /**
   * Evaluates a GrowthBook feature.
   *
   * Evaluates the GrowthBook feature `featureKey` of the current definitions (a GrowthBook SDK
   * payload, or a document's `features` section) to the letter of GrowthBook's JavaScript SDK, and
   * answers its FeatureResult. Without `attributes`, for the current user: GrowthBook's context is
   * the user's attributes plus `id`, the user id (the device id while anonymous; an `id` attribute
   * wins); sticky arms are read and kept (stored per attribute and value, across restarts), and
   * when the user is assigned an arm by hash an exposure is logged: `EXPOSURE`/`ENQUEUED` to the
   * `featureFlags` subscriptions after its commit, an `experiment_viewed` event at the sink, once
   * per user, experiment and variation a session. With `attributes`, for that context alone: no
   * sticky arm is read or kept and nothing is logged, as `evaluateFlag` with a context. An unknown
   * feature answers source `unknownFeature`, value null. While the SDK is disabled, a request
   * without `attributes` is refused -32004 SDK_DISABLED. With `explain: true` the result carries
   * `explain`: why, in words, and the rule that decided.
   *
   * @param {object} params
   * @param {string} params.featureKey The feature's key.
   * @param {object} [params.attributes] GrowthBook's context for this request alone (its
   *     attributes); the current user's when absent.
   * @param {boolean} [params.explain] Adds `explain` (FlagExplanation): why the feature has its
   *     value, and the rule that decided.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").FeatureResult>} result
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").StorageError} -32007 STORAGE_ERROR
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // a default value
   * await client.evaluateFeature({"featureKey":"banner-text","attributes":{"id":"user-1"}});
   * // → {"value":"Welcome","on":true,"off":false,"source":"defaultValue","ruleId":""}
   */
  evaluateFeature(params, options) {
    return this.call("evaluateFeature", params, options);
  }

  /**
   * Evaluates many GrowthBook features in one round trip.
   *
   * Every GrowthBook feature of the current definitions, or those of `featureKeys`, as
   * `evaluateFeature` evaluates each (for the current user without `attributes`, with sticky arms
   * and exposures; for that context alone with them): `{features: {key: FeatureResult}}`.
   *
   * @param {object} [params]
   * @param {object} [params.attributes] GrowthBook's context for this request alone; the current
   *     user's when absent.
   * @param {string[]} [params.featureKeys] The features to evaluate; all when absent. A key
   *     holding U+0000 is refused (INVALID_PARAMS): it would name a member of the reply, which
   *     JSON readers such as jansson refuse.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<{features: object}>} features
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").SDKDisabledError} -32004 SDK_DISABLED
   * @throws {import("../index.js").StorageError} -32007 STORAGE_ERROR
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // two features for a context
   * await client.evaluateFeatures({"attributes":{"id":"user-1"},"featureKeys":["banner-text","unknown"]});
   * // → {
   * //     "features": {
   * //       "banner-text": {"value":"Welcome","on":true,"off":false,"source":"defaultValue","ruleId":""},
   * //       "unknown": {"value":null,"on":false,"off":true,"source":"unknownFeature","ruleId":""}
   * //     }
   * //   }
   */
  evaluateFeatures(params, options) {
    return this.call("evaluateFeatures", params, options);
  }

  /**
   * Evaluates a GrowthBook condition.
   *
   * Evaluates a GrowthBook condition (MongoDB-like, with JavaScript's coercions: `$eq`, `$in`,
   * `$regex`, `$vgt`, `$inGroup`, `$elemMatch`, …) for `attributes` and answers `{result}`, as
   * `evaluate` does for JSONLogic. `$inGroup` and `$notInGroup` read `savedGroups` when given,
   * else the current definitions' saved groups. A condition that cannot be read answers -32005
   * INVALID_RULE naming `condition`. Touches no user state and logs nothing.
   *
   * @param {object} params
   * @param {object} params.condition The condition.
   * @param {object} params.attributes The attributes the condition tests.
   * @param {object} [params.savedGroups] Saved groups (id → values) for `$inGroup`; the
   *     definitions' when absent.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<{result: boolean}>} evaluation
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").InvalidRuleError} -32005 INVALID_RULE
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // a version comparison
   * await client.evaluateCondition({"condition":{"version":{"$vgte":"1.2.0"}},"attributes":{"version":"1.10.0"}});
   * // → {"result":true}
   */
  evaluateCondition(params, options) {
    return this.call("evaluateCondition", params, options);
  }

  /**
   * Renders a Liquid template.
   *
   * Renders `template`, Liquid in Braze's dialect as banners, cards and flag properties are
   * rendered (README, Personalisation), and answers `{text}`. `data` holds plain Liquid variables
   * (`{{ name }}`) and `attributes` a user's attributes (`{{${name}}}`,
   * `{{custom_attribute.${name}}}`); with neither, it renders for the current user: their
   * attributes and their id (`${user_id}`, the targeting key). The server's clock (`'now'`) and
   * the document's content blocks (`{{content_blocks.${name}}}`) apply either way. The bounds are
   * a template's own (README, Personalisation), with up to 1 MiB of text. A template that does not
   * parse, or fails to render, answers -32012 with `data.reason` `INVALID_TEMPLATE`,
   * `TEMPLATE_LIMIT` (a bound reached) or `TEMPLATE_ABORTED` (`abort_message` ran;
   * `data.abortMessage` holds its text), and `data.line` and `data.column` in the template. Before
   * any definitions are loaded it answers -32008 NOT_SYNCED. Touches no user state and logs
   * nothing.
   *
   * @param {object} params
   * @param {string} params.template The Liquid template (at most 1 MiB; more is TEMPLATE_LIMIT).
   * @param {object} [params.data] Plain Liquid variables, read by `{{ name }}`.
   * @param {object} [params.attributes] A user's attributes, read by `${name}`; the current user's
   *     when neither this nor `data` is given.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<{text: string}>} rendered
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").TemplateError} -32012 INVALID_TEMPLATE
   * @throws {import("../index.js").TemplateError} -32012 TEMPLATE_LIMIT
   * @throws {import("../index.js").TemplateError} -32012 TEMPLATE_ABORTED
   * @throws {import("../index.js").NotSyncedError} -32008 NOT_SYNCED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // a greeting with a default
   * await client.renderTemplate({
  "template": "Hi {{${first_name} | default: 'there'}}!",
  "attributes": {"first_name":"Ada"}
});
   * // → {"text":"Hi Ada!"}
   */
  renderTemplate(params, options) {
    return this.call("renderTemplate", params, options);
  }

  /**
   * Flushes pending work and exits.
   *
   * Answers `{}`, then stops reading input, flushes pending analytics (bounded time, 10 s), closes
   * storage cleanly and exits with status 0. Requests read after it, including those of the same
   * batch or already buffered, are answered -32006 SHUTTING_DOWN; notifications are dropped.
   * `FLUSHED` events of the final flush may still be written before the process exits. End of
   * input does the same without a response.
   *
   * @param {{}} [params] none
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").EmptyResult>} `{}`
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // shut down
   * await client.shutdown();
   * // → {}
   */
  shutdown(params, options) {
    return this.call("shutdown", params, options);
  }

  /**
   * Sets the manual clock (`serve --clock manual`).
   *
   * Sets the wall clock of a server started with `--clock manual` to `time`, forward or back, as
   * an administrator (or NTP) stepping it does: everything that reads the time sees the new time
   * at once (schedules and expiry, `lastSyncAt`, event and analytics times, Retry-After dates,
   * `$flagd.timestamp`), and no timer runs, since no time passed (timers count time passed: use
   * `advanceClock`). Nothing is refreshed: a schedule is read when a channel is refreshed, expiry
   * when it is read. A server on the system clock answers -32011 NOT_ENABLED, so that no
   * production server's clock can be moved.
   *
   * @param {object} params
   * @param {import("../index.js").TimeInput} params.time The new time: Unix seconds or an RFC 3339
   *     date-time.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").ClockResult>} clock
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").NotEnabledError} -32011 NOT_ENABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // a Monday morning
   * await client.setClock({"time":"2026-12-07T09:00:00Z"});
   * // → {"time":1765098000,"date":"2026-12-07T09:00:00Z"}
   */
  setClock(params, options) {
    return this.call("setClock", params, options);
  }

  /**
   * Lets time pass on the manual clock (`serve --clock manual`).
   *
   * Lets `seconds` pass on a server started with `--clock manual`. Every timer due within them
   * runs at its own deadline, in order, the clock reading exactly that deadline: polls of the
   * definitions, retries of the source and of the sink (with their back-off and Retry-After),
   * periodic flushes, the release of memory after large refreshes, the store's hourly sweep of
   * users not seen. What a timer starts (a fetch, a delivery) finishes, with its events, before
   * the next deadline, so a retry scheduled by a failure within the span runs within it too. The
   * events come before the reply (in a batch, after the batch's array, as always). Rate-limit
   * buckets refill with the time passed. An advance steps through at most 100,000 deadlines (a
   * second's polls over a day are 86,400); past that the rest of the span passes at once, each
   * overdue timer running once at the end (`coalesced` true). While it runs, the server reads no
   * input: its I/O (a real source or sink) is waited for. A server on the system clock answers
   * -32011 NOT_ENABLED.
   *
   * @param {object} params
   * @param {number} params.seconds How long passes, in seconds (≥ 0, at most a hundred years).
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").ClockResult>} clock
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").NotEnabledError} -32011 NOT_ENABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // a minute
   * await client.advanceClock({"seconds":60});
   * // → {"time":1765098060,"date":"2026-12-07T09:01:00Z","steps":3,"coalesced":false}
   */
  advanceClock(params, options) {
    return this.call("advanceClock", params, options);
  }

  /**
   * Makes the next requests to the source, the sink or the stream fail (`serve --faults`).
   *
   * On a server started with `--faults`: the next `times` requests to `target` (after the failures
   * already armed for it, first armed first given) get `response` instead of reaching the network
   * or the file. The answer is read by the failure model as the same answer from an HTTP server
   * would be, whatever the real source or sink is, so the app sees what it would see: 503 is
   * SERVER_ERROR and retried, 429 with `Retry-After` is RATE_LIMITED with `rateLimitedUntil`, 401
   * is retried then DO_NOT_RETRY, `timeout`, `disconnect`, `invalidData`, a `definitions` answer
   * of status 200 with a `body` is a document (a half body does not parse: INVALID_SERVER_DATA),
   * and a `sink` answer of 2xx accepts the batch without writing it anywhere. Answers the failures
   * armed. `status.faults` lists them too. A `sink` target on a server without `--sink` is -32003
   * NOT_ALLOWED; a server started without `--faults` answers -32011 NOT_ENABLED.
   *
   * @param {object} params
   * @param {import("../index.js").FaultTarget} params.target Where the failure goes.
   * @param {import("../index.js").FaultResponse} params.response The answer given instead of the
   *     real one.
   * @param {number} [params.times] How many requests get it (1 by default).
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").FaultsResult>} faults
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").NotAllowedError} -32003 NOT_ALLOWED
   * @throws {import("../index.js").NotEnabledError} -32011 NOT_ENABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // a 429 storm
   * await client.injectFault({
  "target": "definitions",
  "response": {"status":429,"headers":{"Retry-After":"120"}},
  "times": 3
});
   * // → {
   * //     "faults": [
   * //       {
   * //         "target": "definitions",
   * //         "times": 3,
   * //         "response": {"status":429,"headers":{"Retry-After":"120"}}
   * //       }
   * //     ]
   * //   }
   */
  injectFault(params, options) {
    return this.call("injectFault", params, options);
  }

  /**
   * Disarms injected failures (`serve --faults`).
   *
   * Disarms the failures armed for `target`, or for every target without it, and answers those
   * still armed. A server started without `--faults` answers -32011 NOT_ENABLED.
   *
   * @param {object} [params]
   * @param {import("../index.js").FaultTarget} [params.target] The target to disarm; every one
   *     when left out.
   * @param {import("../index.js").CallOptions} [options] `timeout` (ms) and `signal` of this call
   * @returns {Promise<import("../index.js").FaultsResult>} faults
   * @throws {import("../index.js").InvalidParamsError} -32602 INVALID_PARAMS
   * @throws {import("../index.js").NotEnabledError} -32011 NOT_ENABLED
   * @throws {import("../index.js").ShuttingDownError} -32006 SHUTTING_DOWN
   * @throws {import("../index.js").InternalError} -32603 INTERNAL_ERROR
   * @example
   * // all
   * await client.clearFaults();
   * // → {"faults":[]}
   */
  clearFaults(params, options) {
    return this.call("clearFaults", params, options);
  }
}

/** The methods above as the document declares them: what index.d.ts is checked against. */
export const protocolMethods = Object.freeze([
  { method: "rpc.discover", name: "rpcDiscover", subscribes: false, deprecated: false, params: [] },
  { method: "status", name: "status", subscribes: false, deprecated: false, params: [] },
  { method: "changeUser", name: "changeUser", subscribes: false, deprecated: false, params: [{ name: "userId", required: true }, { name: "attributes", required: false }] },
  { method: "setUserAttributes", name: "setUserAttributes", subscribes: false, deprecated: false, params: [{ name: "attributes", required: true }] },
  { method: "openSession", name: "openSession", subscribes: false, deprecated: false, params: [] },
  { method: "closeSession", name: "closeSession", subscribes: false, deprecated: false, params: [] },
  { method: "subscribe", name: "subscribe", subscribes: true, deprecated: false, params: [{ name: "channel", required: true }, { name: "extras", required: false }] },
  { method: "subscribeToUpdates", name: "subscribeToUpdates", subscribes: true, deprecated: true, params: [{ name: "channel", required: true }] },
  { method: "subscribeToDefinitions", name: "subscribeToDefinitions", subscribes: true, deprecated: false, params: [] },
  { method: "removeSubscription", name: "removeSubscription", subscribes: false, deprecated: false, params: [{ name: "subscriptionId", required: true }] },
  { method: "refresh", name: "refresh", subscribes: false, deprecated: false, params: [{ name: "channel", required: true }, { name: "placementIds", required: false }] },
  { method: "getSnapshot", name: "getSnapshot", subscribes: false, deprecated: false, params: [{ name: "channel", required: true }, { name: "extras", required: false }, { name: "explain", required: false }] },
  { method: "getFeatureFlag", name: "getFeatureFlag", subscribes: false, deprecated: false, params: [{ name: "id", required: true }] },
  { method: "getBanner", name: "getBanner", subscribes: false, deprecated: false, params: [{ name: "placementId", required: true }] },
  { method: "logImpression", name: "logImpression", subscribes: false, deprecated: false, params: [{ name: "channel", required: true }, { name: "id", required: false }, { name: "ids", required: false }] },
  { method: "logClick", name: "logClick", subscribes: false, deprecated: false, params: [{ name: "channel", required: true }, { name: "id", required: true }, { name: "buttonId", required: false }] },
  { method: "logDismiss", name: "logDismiss", subscribes: false, deprecated: false, params: [{ name: "channel", required: true }, { name: "id", required: true }] },
  { method: "track", name: "track", subscribes: false, deprecated: false, params: [{ name: "name", required: true }, { name: "value", required: false }, { name: "details", required: false }, { name: "userId", required: false }, { name: "attributes", required: false }] },
  { method: "flush", name: "flush", subscribes: false, deprecated: false, params: [] },
  { method: "wipeData", name: "wipeData", subscribes: false, deprecated: false, params: [] },
  { method: "disableSDK", name: "disableSDK", subscribes: false, deprecated: false, params: [] },
  { method: "enableSDK", name: "enableSDK", subscribes: false, deprecated: false, params: [] },
  { method: "evaluate", name: "evaluate", subscribes: false, deprecated: false, params: [{ name: "rule", required: true }, { name: "data", required: false }] },
  { method: "evaluateFlag", name: "evaluateFlag", subscribes: false, deprecated: false, params: [{ name: "flagKey", required: true }, { name: "context", required: true }, { name: "type", required: false }, { name: "explain", required: false }] },
  { method: "evaluateFlags", name: "evaluateFlags", subscribes: false, deprecated: false, params: [{ name: "context", required: true }, { name: "flagKeys", required: false }] },
  { method: "evaluateFeature", name: "evaluateFeature", subscribes: false, deprecated: false, params: [{ name: "featureKey", required: true }, { name: "attributes", required: false }, { name: "explain", required: false }] },
  { method: "evaluateFeatures", name: "evaluateFeatures", subscribes: false, deprecated: false, params: [{ name: "attributes", required: false }, { name: "featureKeys", required: false }] },
  { method: "evaluateCondition", name: "evaluateCondition", subscribes: false, deprecated: false, params: [{ name: "condition", required: true }, { name: "attributes", required: true }, { name: "savedGroups", required: false }] },
  { method: "renderTemplate", name: "renderTemplate", subscribes: false, deprecated: false, params: [{ name: "template", required: true }, { name: "data", required: false }, { name: "attributes", required: false }] },
  { method: "shutdown", name: "shutdown", subscribes: false, deprecated: false, params: [] },
  { method: "setClock", name: "setClock", subscribes: false, deprecated: false, params: [{ name: "time", required: true }] },
  { method: "advanceClock", name: "advanceClock", subscribes: false, deprecated: false, params: [{ name: "seconds", required: true }] },
  { method: "injectFault", name: "injectFault", subscribes: false, deprecated: false, params: [{ name: "target", required: true }, { name: "response", required: true }, { name: "times", required: false }] },
  { method: "clearFaults", name: "clearFaults", subscribes: false, deprecated: false, params: [{ name: "target", required: false }] },
]);
