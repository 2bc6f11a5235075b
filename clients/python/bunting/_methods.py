# Generated from schemas/openrpc.json (Bunting 0.1.0) by clients/python/tools/generate_methods.py.
# Do not edit: change the document, then run `python3 clients/python/tools/generate_methods.py`.
"""Bunting's methods, one Python method each, generated from the OpenRPC document.

`SyncMethods` is mixed into `Bunting` and `AsyncMethods` into `AsyncBunting`. Params are
snake_case here and camelCase on the wire; required params may be given by position,
optional ones are keyword-only and not sent when None. Every method takes `timeout`
(seconds; None means the client's call_timeout, math.inf no limit).
"""

from __future__ import annotations

from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Literal, NamedTuple, Optional, Tuple,
                    Union)

from .events import ChannelEvent, DefinitionsEvent, UpdatesEvent

if TYPE_CHECKING:
    from .aio import AsyncSubscription
    from .client import Subscription

EventCallback = Callable[[Any], Any]
Channel = Literal["banners", "contentCards", "featureFlags"]
FaultTarget = Literal["definitions", "sink", "stream"]
FlagType = Literal["boolean", "string", "integer", "float", "object"]
InteractiveChannel = Literal["contentCards", "banners"]

from .results import (
    ArmedFault,
    Banner,
    BannersSnapshot,
    CacheSnapshot,
    ChannelStatus,
    ClockResult,
    ContentCard,
    ContentCardsData,
    ContentCardsSnapshot,
    DefinitionsProblem,
    DefinitionsStatus,
    EvaluateConditionResult,
    EvaluateFeaturesResult,
    EvaluateFlagResult,
    EvaluateFlagsResult,
    EvaluateResult,
    FaultResponse,
    FaultResponseObject,
    FaultsResult,
    FeatureFlag,
    FeatureFlagsSnapshot,
    FeatureResult,
    FlagExplanation,
    FlushResult,
    LastSyncAt,
    OpenRPCDocument,
    Property,
    PropertyBoolean,
    PropertyDatetime,
    PropertyImage,
    PropertyJsonobject,
    PropertyNumber,
    PropertyString,
    RemoveSubscriptionResult,
    RenderTemplateResult,
    StatusResult,
    StatusResultChannels,
    StatusResultClock,
    StreamStatus,
    SubscribeResult,
    SubscribeResultObject,
    TrackResult,
    UnrenderedItem,
)


class Param(NamedTuple):
    wire: str
    python: str
    required: bool


class MethodSpec(NamedTuple):
    name: str
    python: str
    params: Tuple[Param, ...]
    #: for methods that make a subscription: the notification method of its events
    notification: Optional[str]
    deprecated: bool


#: Every method of the document, by its wire name.
METHODS: Dict[str, MethodSpec] = {
    "rpc.discover": MethodSpec(
        "rpc.discover", "rpc_discover",
        (),
        None, False,
    ),
    "status": MethodSpec(
        "status", "status",
        (),
        None, False,
    ),
    "changeUser": MethodSpec(
        "changeUser", "change_user",
        (
            Param("userId", "user_id", True),
            Param("attributes", "attributes", False),
        ),
        None, False,
    ),
    "setUserAttributes": MethodSpec(
        "setUserAttributes", "set_user_attributes",
        (
            Param("attributes", "attributes", True),
        ),
        None, False,
    ),
    "openSession": MethodSpec(
        "openSession", "open_session",
        (),
        None, False,
    ),
    "closeSession": MethodSpec(
        "closeSession", "close_session",
        (),
        None, False,
    ),
    "subscribe": MethodSpec(
        "subscribe", "subscribe",
        (
            Param("channel", "channel", True),
            Param("extras", "extras", False),
        ),
        "event", False,
    ),
    "subscribeToUpdates": MethodSpec(
        "subscribeToUpdates", "subscribe_to_updates",
        (
            Param("channel", "channel", True),
        ),
        "updates", True,
    ),
    "subscribeToDefinitions": MethodSpec(
        "subscribeToDefinitions", "subscribe_to_definitions",
        (),
        "definitions", False,
    ),
    "removeSubscription": MethodSpec(
        "removeSubscription", "remove_subscription",
        (
            Param("subscriptionId", "subscription_id", True),
        ),
        None, False,
    ),
    "refresh": MethodSpec(
        "refresh", "refresh",
        (
            Param("channel", "channel", True),
            Param("placementIds", "placement_ids", False),
        ),
        None, False,
    ),
    "getSnapshot": MethodSpec(
        "getSnapshot", "get_snapshot",
        (
            Param("channel", "channel", True),
            Param("extras", "extras", False),
            Param("explain", "explain", False),
        ),
        None, False,
    ),
    "getFeatureFlag": MethodSpec(
        "getFeatureFlag", "get_feature_flag",
        (
            Param("id", "id", True),
        ),
        None, False,
    ),
    "getBanner": MethodSpec(
        "getBanner", "get_banner",
        (
            Param("placementId", "placement_id", True),
        ),
        None, False,
    ),
    "logImpression": MethodSpec(
        "logImpression", "log_impression",
        (
            Param("channel", "channel", True),
            Param("id", "id", False),
            Param("ids", "ids", False),
        ),
        None, False,
    ),
    "logClick": MethodSpec(
        "logClick", "log_click",
        (
            Param("channel", "channel", True),
            Param("id", "id", True),
            Param("buttonId", "button_id", False),
        ),
        None, False,
    ),
    "logDismiss": MethodSpec(
        "logDismiss", "log_dismiss",
        (
            Param("channel", "channel", True),
            Param("id", "id", True),
        ),
        None, False,
    ),
    "track": MethodSpec(
        "track", "track",
        (
            Param("name", "name", True),
            Param("value", "value", False),
            Param("details", "details", False),
            Param("userId", "user_id", False),
            Param("attributes", "attributes", False),
        ),
        None, False,
    ),
    "flush": MethodSpec(
        "flush", "flush",
        (),
        None, False,
    ),
    "wipeData": MethodSpec(
        "wipeData", "wipe_data",
        (),
        None, False,
    ),
    "disableSDK": MethodSpec(
        "disableSDK", "disable_sdk",
        (),
        None, False,
    ),
    "enableSDK": MethodSpec(
        "enableSDK", "enable_sdk",
        (),
        None, False,
    ),
    "evaluate": MethodSpec(
        "evaluate", "evaluate",
        (
            Param("rule", "rule", True),
            Param("data", "data", False),
        ),
        None, False,
    ),
    "evaluateFlag": MethodSpec(
        "evaluateFlag", "evaluate_flag",
        (
            Param("flagKey", "flag_key", True),
            Param("context", "context", True),
            Param("type", "type", False),
            Param("explain", "explain", False),
        ),
        None, False,
    ),
    "evaluateFlags": MethodSpec(
        "evaluateFlags", "evaluate_flags",
        (
            Param("context", "context", True),
            Param("flagKeys", "flag_keys", False),
        ),
        None, False,
    ),
    "evaluateFeature": MethodSpec(
        "evaluateFeature", "evaluate_feature",
        (
            Param("featureKey", "feature_key", True),
            Param("attributes", "attributes", False),
            Param("explain", "explain", False),
        ),
        None, False,
    ),
    "evaluateFeatures": MethodSpec(
        "evaluateFeatures", "evaluate_features",
        (
            Param("attributes", "attributes", False),
            Param("featureKeys", "feature_keys", False),
        ),
        None, False,
    ),
    "evaluateCondition": MethodSpec(
        "evaluateCondition", "evaluate_condition",
        (
            Param("condition", "condition", True),
            Param("attributes", "attributes", True),
            Param("savedGroups", "saved_groups", False),
        ),
        None, False,
    ),
    "renderTemplate": MethodSpec(
        "renderTemplate", "render_template",
        (
            Param("template", "template", True),
            Param("data", "data", False),
            Param("attributes", "attributes", False),
        ),
        None, False,
    ),
    "shutdown": MethodSpec(
        "shutdown", "shutdown",
        (),
        None, False,
    ),
    "setClock": MethodSpec(
        "setClock", "set_clock",
        (
            Param("time", "time", True),
        ),
        None, False,
    ),
    "advanceClock": MethodSpec(
        "advanceClock", "advance_clock",
        (
            Param("seconds", "seconds", True),
        ),
        None, False,
    ),
    "injectFault": MethodSpec(
        "injectFault", "inject_fault",
        (
            Param("target", "target", True),
            Param("response", "response", True),
            Param("times", "times", False),
        ),
        None, False,
    ),
    "clearFaults": MethodSpec(
        "clearFaults", "clear_faults",
        (
            Param("target", "target", False),
        ),
        None, False,
    ),
}


class SyncMethods:
    """The methods of `Bunting`; each returns the reply's result."""

    __slots__ = ()

    def _request(self, method: str, params: Optional[Dict[str, Any]],
            timeout: Optional[float]) -> Any:
        raise NotImplementedError

    def _subscribe(self, method: str, params: Optional[Dict[str, Any]], notification: str,
            callback: Optional[EventCallback], timeout: Optional[float]) -> Any:
        raise NotImplementedError

    def rpc_discover(self, *, timeout: Optional[float] = None) -> OpenRPCDocument:
        """`rpc.discover`: Returns this OpenRPC document.

        Returns the OpenRPC document that describes this build: the document in
        `schemas/openrpc.json`, embedded in the binary. Methods the build does not implement yet
        carry `"x-implemented": false`.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            An OpenRPC 1.3.2 document (https://spec.open-rpc.org/).

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return self._request("rpc.discover", None, timeout)

    def status(self, *, timeout: Optional[float] = None) -> StatusResult:
        """`status`: Reports the server's state.

        Reports the version, the framing in use (null before the first bytes decided it) and the
        uptime in seconds. It also reports the current user (`userId`, null for the anonymous user),
        the open session (`sessionId`, null when none), whether the SDK is enabled, per channel
        whether it is enabled, its `lastSyncAt` and how many items the cache holds, and how many
        analytics events wait for the sink. Reads only: it changes nothing, sends no notification,
        and answers while the SDK is disabled. `definitions` says where the definitions are read
        from, whether a document is loaded (and since when), every problem of the loaded document (a
        flag in error, a banner or card left out, each with its pointer and line:column), the
        source's current problem when the last check found one, and (`aborted`) the items the
        current user's last refreshes left out because their Liquid templates gave this user no text
        (`abort_message`, a render error). `stream`, when the definitions come over a Server-Sent
        Events stream too (`--stream`, or GrowthBook's announced one), says whether it is connected
        and since when, the last event id it would resume from, how many times it tried to connect
        again and how many events came, and why it is down while it is. A server started with
        `--clock manual` adds `clock` (`{kind: "manual", time, date}`), one started with `--faults`
        adds `faults`, the injected failures still armed.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The server's and the engine's state.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return self._request("status", None, timeout)

    def change_user(
        self,
        user_id: str,
        *,
        attributes: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`changeUser`: Switches to another user and starts a session for them.

        Makes `userId` the current user; it is kept in storage, so a restart on the same storage
        resumes as this user with this user's cached data. Before the switch, the previous user's
        queued analytics are flushed (their `FLUSHED` events may follow), and a refresh still
        pending for the previous user is dropped. `attributes`, when given, are merged into the new
        user's attributes before anything is evaluated for them. After the `{}` response (written
        before the new user's refresh is evaluated, so that a returning user's cached data reaches
        the client meanwhile; a request read after `changeUser` still sees the refreshed data), each
        event subscription receives `CACHE_LOAD` with the new user's cached data (empty, with
        `lastSyncAt` 0, for a user never seen), each update subscription an `updates`, and a new
        session starts for the new user: each channel that has a subscription is refreshed without
        costing a rate-limit token, and `DATA_UPDATED`/`AUTO_SERVER_REFRESH` (or `ERROR`) follows as
        each refresh finishes. Before the first `changeUser` the server acts for an anonymous user
        (`status.userId` null). Changing to the current user only merges `attributes`: no event, no
        new session. While the SDK is disabled it answers -32004 SDK_DISABLED and nothing changes.

        Args:
            user_id: The new current user; becomes `targetingKey` in evaluation contexts (at most
                997 characters, Braze's limit on external ids).
            attributes: (optional) Attributes of the new user, merged into the stored ones; merged,
                they may take at most 64 KiB encoded (-32602 past that).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, SDKDisabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"userId": user_id}
        if attributes is not None:
            params["attributes"] = attributes
        return self._request("changeUser", params, timeout)

    def set_user_attributes(
        self,
        attributes: Dict[str, Any],
        *,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`setUserAttributes`: Merges attributes into the current user's attributes.

        Merges `attributes` into the current user's stored attributes (a key given replaces, a key
        given as null removes, other keys stay). Triggers no refresh and sends no notification; the
        next refresh evaluates with the new attributes. While the SDK is disabled it answers -32004
        SDK_DISABLED.

        Args:
            attributes: The attributes to merge; merged, they may take at most 64 KiB encoded
                (-32602 past that).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, SDKDisabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"attributes": attributes}
        return self._request("setUserAttributes", params, timeout)

    def open_session(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`openSession`: Starts a session for the current user.

        Starts a new session for the current user (an open session ends first, as `closeSession`
        would end it). After the `{}` response, each channel that has a subscription (event or
        update) is refreshed without costing a rate-limit token:
        `DATA_UPDATED`/`AUTO_SERVER_REFRESH` (or `ERROR`) follows as each refresh finishes. A
        channel with no subscription is not refreshed. A session also bounds flag-impression
        de-duplication (once per flag per session) and refills the banners' manual-refresh bucket (5
        tokens per session by default). No session is open at start-up. While the SDK is disabled it
        answers -32004 SDK_DISABLED.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, SDKDisabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        return self._request("openSession", None, timeout)

    def close_session(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`closeSession`: Ends the current session and flushes analytics.

        Ends the open session and starts a flush of the queued analytics; the `{}` response does not
        wait for the sink (use `flush` for that), and `FLUSHED` events follow as the sink accepts
        events. Without an open session it answers `{}` and does nothing. While the SDK is disabled
        the session ends but nothing is sent.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return self._request("closeSession", None, timeout)

    def subscribe(
        self,
        channel: Channel,
        callback: Optional[Callable[[ChannelEvent], Any]] = None,
        *,
        extras: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> Optional[Subscription[ChannelEvent]]:
        """`subscribe`: Subscribes to a channel's events.

        Subscribes to a channel's events and answers `{subscriptionId}`. Right after the response
        the subscription receives one `CACHE_REPLAY` event with the channel's cached data; later it
        receives `CACHE_LOAD`, `DATA_UPDATED`, `IMPRESSION`, `CLICK`, `DISMISS` and `ERROR` events
        of that channel (see the `event` notification). Subscribing starts no refresh. If the
        channel is disabled, or no configuration has arrived yet, it still answers normally, then
        sends `ERROR` `FEATURE_DISABLED` instead of `CACHE_REPLAY`: `DO_NOT_RETRY` when the
        definitions turn the channel off, `SDK_WILL_RETRY` while the first document is being fetched
        (when the definitions could not be read or were invalid, that `ERROR` carries the real cause
        instead: `SERVER_ERROR` or `INVALID_SERVER_DATA`, with the source's message); the
        subscription stays, and when the channel is enabled a refresh runs and `DATA_UPDATED`
        follows. If local storage was found damaged at start-up (moved aside and started afresh) or
        cannot be used (state is kept in memory only), an `ERROR` `CLIENT_ERROR`/`DO_NOT_RETRY`
        whose `message` says so follows the `CACHE_REPLAY` (or the `FEATURE_DISABLED` error), on
        every subscription made while this server runs. While the SDK is disabled it answers null
        and makes no subscription (subscriptions made before `disableSDK` stay and work again after
        `enableSDK`). A server keeps at most `--max-subscriptions` subscriptions (100 by default;
        -32010 `LIMIT_REACHED` past it); each receives its own events. With `extras` (content cards
        only; -32602 for another channel) the subscription's snapshots list only the cards of that
        feed.

        Args:
            channel: The channel to subscribe to.
            extras: (optional) Content cards only: the subscription's snapshots list just the cards
                whose `extras` hold all of these keys and values (a feed), with `unviewedCount`
                counting those.
            callback: called with each event notification's params (on the client's callback thread)
                instead of queueing them on the subscription.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            A Subscription whose queue (or callback) gets its event notifications (ChannelEvent), or
                None when no subscription is made (while the SDK is disabled).

        Raises:
            InvalidParams, LimitReached, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        if extras is not None:
            params["extras"] = extras
        return self._subscribe("subscribe", params, "event", callback, timeout)

    def subscribe_to_updates(
        self,
        channel: Channel,
        callback: Optional[Callable[[UpdatesEvent], Any]] = None,
        *,
        timeout: Optional[float] = None,
    ) -> Optional[Subscription[UpdatesEvent]]:
        """`subscribeToUpdates`: Deprecated. Subscribes to a channel's cache updates (deprecated
        pattern).

        Deprecated: use `subscribe`. Subscribes to a channel's data and answers `{subscriptionId}`.
        The subscription receives an `updates` notification whenever the channel's cache changes for
        the current user: wherever an event subscription of the channel would receive `CACHE_LOAD`
        or `DATA_UPDATED` (so also after a refresh that changed nothing), and nothing else: no
        replay on subscribing, no analytics, no errors. While the SDK is disabled it answers null
        and makes no subscription. `removeSubscription` ends it.

        Args:
            channel: The channel to subscribe to.
            callback: called with each updates notification's params (on the client's callback
                thread) instead of queueing them on the subscription.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            A Subscription whose queue (or callback) gets its updates notifications (UpdatesEvent),
                or None when no subscription is made (while the SDK is disabled).

        Raises:
            InvalidParams, LimitReached, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        return self._subscribe("subscribeToUpdates", params, "updates", callback, timeout)

    def subscribe_to_definitions(
        self,
        callback: Optional[Callable[[DefinitionsEvent], Any]] = None,
        *,
        timeout: Optional[float] = None,
    ) -> Optional[Subscription[DefinitionsEvent]]:
        """`subscribeToDefinitions`: Subscribes to what becomes of the definitions.

        Subscribes to the definitions themselves — OpenFeature's provider events — and answers
        `{subscriptionId}`. Right after the response the subscription receives `definitions` `READY`
        when definitions are loaded, or `ERROR` with the cause (`stale` false) when they could not
        be loaded; while the first document is still being fetched, nothing until it arrives. Later:
        `CHANGED` with the flags whose resolution could differ each time a new document is adopted,
        `ERROR` when the source fails or sends an invalid document (`stale` true while older
        definitions serve), and `READY` when the source answers again unchanged after an `ERROR`.
        `removeSubscription` ends it. While the SDK is disabled it answers null.

        Args:
            callback: called with each definitions notification's params (on the client's callback
                thread) instead of queueing them on the subscription.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            A Subscription whose queue (or callback) gets its definitions notifications
                (DefinitionsEvent), or None when no subscription is made (while the SDK is
                disabled).

        Raises:
            InvalidParams, LimitReached, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        return self._subscribe("subscribeToDefinitions", None, "definitions", callback, timeout)

    def remove_subscription(
        self,
        subscription_id: str,
        *,
        timeout: Optional[float] = None,
    ) -> RemoveSubscriptionResult:
        """`removeSubscription`: Ends a subscription.

        Ends a subscription of either kind. Answers `{removed: true}` when the id named a live
        subscription and `{removed: false}` otherwise (unknown or already removed): an unknown id is
        not an error. No notification for that subscription is written after the response. Answers
        while the SDK is disabled.

        Args:
            subscription_id: The id `subscribe` or `subscribeToUpdates` returned.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The removal.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"subscriptionId": subscription_id}
        return self._request("removeSubscription", params, timeout)

    def refresh(
        self,
        channel: Channel,
        *,
        placement_ids: Optional[List[str]] = None,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`refresh`: Refreshes a channel; the outcome arrives as events.

        Starts a manual refresh of a channel for the current user and answers `{}` at once; the
        outcome arrives as events to the channel's subscriptions:
        `DATA_UPDATED`/`MANUAL_SERVER_REFRESH` when it finishes (even with no change), or `ERROR`.
        Unlike the other requests, its effect is not in place when the next request is handled: it
        re-reads the source, which is I/O, and later requests are not held up for it, so a read sent
        before its `DATA_UPDATED` (or `ERROR`) arrives answers from the cache as it was; a script
        waits for that event before reading. A manual refresh re-reads the definitions source; if
        the document changed, the other subscribed channels are refreshed too
        (`DATA_UPDATED`/`AUTO_SERVER_REFRESH`). Manual refreshes are rate limited per channel by a
        token bucket (defaults: content cards 5 tokens, one back every 180 s; banners 5 tokens per
        session, one back every 180 s; feature flags 5 tokens, one back every 300 s;
        `--refresh-rate-limit` overrides): a refused refresh sends `ERROR`
        `RATE_LIMITED`/`INTEGRATOR_MAY_RETRY` with `rateLimitedUntil`. Failures are retried with
        backoff (`ERROR` `SERVER_ERROR`/`SDK_WILL_RETRY` on each failed try, then
        `INTEGRATOR_MAY_RETRY`); see ErrorReason and RetryState. A disabled channel sends `ERROR`
        `FEATURE_DISABLED`/`DO_NOT_RETRY`; while the SDK is disabled it sends `ERROR`
        `SDK_DISABLED`/`DO_NOT_RETRY` and nothing goes to the network. `placementIds` is for
        `banners` only (with another channel it is -32602): at most 10 distinct placement ids (more
        is -32602); the result merges into the cache: placements it did not name stay, named
        placements that now have no banner are removed. Without `placementIds` a banners refresh
        covers every placement of the definitions and replaces the banners cache.

        Args:
            channel: The channel to refresh.
            placement_ids: (optional) Banners only: the placements to refresh, 1 to 10 distinct ids.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        if placement_ids is not None:
            params["placementIds"] = placement_ids
        return self._request("refresh", params, timeout)

    def get_snapshot(
        self,
        channel: Channel,
        *,
        extras: Optional[Dict[str, Any]] = None,
        explain: Optional[bool] = None,
        timeout: Optional[float] = None,
    ) -> CacheSnapshot:
        """`getSnapshot`: Returns a channel's cached data.

        Returns the channel's cache snapshot for the current user, in the same shape as an event's
        `cacheSnapshot`: `contentCards` → ContentCardsSnapshot, `banners` → BannersSnapshot,
        `featureFlags` → FeatureFlagsSnapshot. While the channel is disabled the data is empty and
        `lastSyncAt` is null. Before the channel was refreshed for the current user (before the
        first definitions arrived, say), the answer carries `notSynced` with why and what to do, in
        the words `getFeatureFlag`'s -32008 `NOT_SYNCED` uses, so that an empty list is never
        mistaken for "nothing". Reads only: no refresh, no notification, nothing logged; answers
        from the cache while the SDK is disabled. With `extras` (content cards only; -32602 for
        another channel) only the cards of that feed are listed, and `unviewedCount` counts them.
        With `explain: true` the snapshot carries `explain`: each item of the definitions for the
        channel (flags, banners or cards, then the entries left out when the definitions loaded),
        decided for the current user now, with whether this snapshot holds it and why (targeting,
        schedule, expiry, control group, a banner of higher priority, a dismissal, a problem in the
        item).

        Args:
            channel: The channel.
            extras: (optional) Content cards only: list just the cards whose `extras` hold all of
                these keys and values.
            explain: (optional) Adds `explain`: each item of the definitions for the channel and why
                it is or is not in this snapshot.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            One channel's cached data for the current user, keyed by the channel's name, with
                `lastSyncAt`. While the channel is disabled the data is empty and `lastSyncAt` is
                null.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        if extras is not None:
            params["extras"] = extras
        if explain is not None:
            params["explain"] = explain
        return self._request("getSnapshot", params, timeout)

    def get_feature_flag(
        self,
        id: str,
        *,
        timeout: Optional[float] = None,
    ) -> Optional[FeatureFlag]:
        """`getFeatureFlag`: Returns one feature flag, or null.

        Returns the current user's feature flag with this id, or null when there is none (unknown
        id, or the featureFlags channel is disabled). Logs nothing: call `logImpression` when the
        flag is used. Before the `featureFlags` channel was refreshed for the current user it
        answers -32008 `NOT_SYNCED` (with what to do), and while the definitions turn the channel
        off -32009 `CHANNEL_DISABLED`: `null` means only that the synced cache has no such item.

        Args:
            id: The flag's id (its key).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The flag.

        Raises:
            InvalidParams, NotSynced, ChannelDisabled, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"id": id}
        return self._request("getFeatureFlag", params, timeout)

    def get_banner(self, placement_id: str, *, timeout: Optional[float] = None) -> Optional[Banner]:
        """`getBanner`: Returns the banner of a placement, or null.

        Returns the banner that fills this placement for the current user, or null when none does
        (no eligible banner, unknown placement, dismissed, or the banners channel is disabled). Logs
        nothing. Before the `banners` channel was refreshed for the current user it answers -32008
        `NOT_SYNCED` (with what to do), and while the definitions turn the channel off -32009
        `CHANNEL_DISABLED`: `null` means only that the synced cache has no such item.

        Args:
            placement_id: The placement.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The banner.

        Raises:
            InvalidParams, NotSynced, ChannelDisabled, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"placementId": placement_id}
        return self._request("getBanner", params, timeout)

    def log_impression(
        self,
        channel: Channel,
        *,
        id: Optional[str] = None,
        ids: Optional[List[str]] = None,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`logImpression`: Logs impressions of cards, flags or banners.

        Logs an impression of each item named by `id` or `ids` (exactly one of the two; both or
        neither is -32602): card ids for `contentCards`, flag ids for `featureFlags`, placement ids
        for `banners` (the banner filling the placement). Each event is committed to storage before
        its `IMPRESSION`/`ENQUEUED` event is sent (in the order of `ids`, after the `{}` response);
        `IMPRESSION`/`FLUSHED` follows once the sink accepted it. A card's impression sets its
        `viewed` (and so lowers `unviewedCount`) without sending `DATA_UPDATED`. A control card's or
        control banner's impression is an ordinary impression. A feature flag impression is logged
        at most once per flag per session (keyed by `trackingString` where the flag has one): a
        repeat answers `{}` and sends nothing. The request is all or nothing: an id that names no
        listed item of the channel answers -32002 NOT_FOUND (`data.field` names it, e.g. `ids[1]`)
        and nothing is logged. While the SDK is disabled it answers -32004 SDK_DISABLED.

        Args:
            channel: The channel.
            id: (optional) One item. Card id (contentCards), flag id (featureFlags) or placement id
                (banners).
            ids: (optional) Several distinct items of the channel. Card id (contentCards), flag id
                (featureFlags) or placement id (banners).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, NotFound, SDKDisabled, StorageError, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        if id is not None:
            params["id"] = id
        if ids is not None:
            params["ids"] = ids
        return self._request("logImpression", params, timeout)

    def log_click(
        self,
        channel: InteractiveChannel,
        id: str,
        *,
        button_id: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`logClick`: Logs a click on a card or banner.

        Logs a click on a content card (`id` is the card id) or on the banner filling a placement
        (`id` is the placement id). The event is committed to storage, then after the `{}` response
        `CLICK`/`ENQUEUED` is sent (with `buttonId` when given), and `CLICK`/`FLUSHED` once the sink
        accepted it. A card's click sets its `clicked` without sending `DATA_UPDATED`. `buttonId`
        names the banner button clicked; it is for `banners` only (with `contentCards` it is
        -32602). An id that names no listed card or filled placement answers -32002 NOT_FOUND; a
        control card or control banner cannot be clicked: -32003 NOT_ALLOWED. While the SDK is
        disabled it answers -32004 SDK_DISABLED.

        Args:
            channel: `contentCards` or `banners`.
            id: Card id, or banner placement id.
            button_id: (optional) Banners only: the button clicked.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, NotFound, NotAllowed, SDKDisabled, StorageError, ShuttingDown,
                InternalError (from bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel, "id": id}
        if button_id is not None:
            params["buttonId"] = button_id
        return self._request("logClick", params, timeout)

    def log_dismiss(
        self,
        channel: InteractiveChannel,
        id: str,
        *,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`logDismiss`: Dismisses a card or banner.

        Dismisses a content card (`id` is the card id) or the banner filling a placement (`id` is
        the placement id). After the `{}` response the subscriptions receive `DISMISS`/`ENQUEUED`,
        then `DATA_UPDATED`/`CLIENT_ACTION` with a snapshot without the item (update subscriptions
        an `updates`), and `DISMISS`/`FLUSHED` once the sink accepted the event. The dismissal lasts
        across refreshes and restarts: the card, or that banner (by banner id), is not listed again
        for this user; a later refresh may fill the placement with another banner. An id that names
        no listed card or filled placement (including one already dismissed) answers -32002
        NOT_FOUND; a card that is not `dismissible`, a control card or a control banner: -32003
        NOT_ALLOWED. While the SDK is disabled it answers -32004 SDK_DISABLED.

        Args:
            channel: `contentCards` or `banners`.
            id: Card id, or banner placement id.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, NotFound, NotAllowed, SDKDisabled, StorageError, ShuttingDown,
                InternalError (from bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel, "id": id}
        return self._request("logDismiss", params, timeout)

    def track(
        self,
        name: str,
        *,
        value: Optional[float] = None,
        details: Optional[Dict[str, Any]] = None,
        user_id: Optional[str] = None,
        attributes: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> TrackResult:
        """`track`: Records a custom event on the durable analytics path.

        Records an event the client names (OpenFeature's `track`), for the current user and session,
        or for the user it names (`userId`, the evaluation context's targeting key; OpenFeature's
        `track` passes the context with the event, so a server that tracks for many users records
        each event under its own user): it is committed to local storage before `CUSTOM`/`ENQUEUED`
        is sent, and deleted only after the sink accepted it (`CUSTOM`/`FLUSHED`, same `eventId`),
        as impressions are; at the sink it is `kind` `custom` with `name`, `value`, `details` and
        `attributes` (`channel` `featureFlags`, `itemId` the name, `userId` the event's user). The
        notifications go to the event subscriptions of the `featureFlags` channel. Answers the
        event's id. Refused while the SDK is disabled (-32004); -32007 when it cannot be stored.

        Args:
            name: The event's name (at most 255 bytes).
            value: (optional) A number that goes with it (OpenFeature's tracking value).
            details: (optional) Anything else about it (at most 16 KiB encoded).
            user_id: (optional) The user the event is about (the evaluation context's targeting
                key), at most 997 characters; the current user when left out. An event for a user
                other than the current one carries no `sessionId`.
            attributes: (optional) The evaluation context's attributes at the time of the event (at
                most 64 KiB encoded), recorded with it: `attributes` at the sink and in the event's
                notifications. `targetingKey` and `$flagd` are reserved.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The id of the stored event: the same in its `CUSTOM` notifications and at the sink.

        Raises:
            InvalidParams, SDKDisabled, StorageError, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"name": name}
        if value is not None:
            params["value"] = value
        if details is not None:
            params["details"] = details
        if user_id is not None:
            params["userId"] = user_id
        if attributes is not None:
            params["attributes"] = attributes
        return self._request("track", params, timeout)

    def flush(self, *, timeout: Optional[float] = None) -> FlushResult:
        """`flush`: Sends queued analytics to the sink and waits for its answer.

        Sends every queued analytics event (of any user) to the sink and answers once the sink
        answered: `{flushed, pending}`, the events it accepted and those still queued. The `FLUSHED`
        events of the accepted events follow the response. `flushed` counts the events the sink
        accepted while this flush ran, including a batch already on its way when it was called (sent
        by `changeUser` or the periodic flush) that lands after the call; a batch that landed before
        it is not counted again, so after a user change the count depends on timing: to know that an
        event reached the sink, wait for its `FLUSHED`, or for `pending` 0. A sink failure or
        timeout is not an error: the events stay queued (`pending`) and are sent again at the next
        flush, with the same `eventId`. Without a sink (`--sink` not given) it answers `{flushed: 0,
        pending: N}` at once. Queued analytics are also flushed every `--flush-interval` (10 s by
        default), at `closeSession`, at `changeUser` (the previous user's events first) and at
        shutdown. While the SDK is disabled it answers -32004 SDK_DISABLED and nothing goes to the
        network.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The FlushResult.

        Raises:
            InvalidParams, SDKDisabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        return self._request("flush", None, timeout)

    def wipe_data(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`wipeData`: Deletes everything stored.

        Deletes every stored thing: all users' cached snapshots, attributes, dismissals, viewed and
        clicked states, flag impressions of the session, and the queued analytics, which are dropped
        (never sent, no `FLUSHED`). The current user id, the session, the subscriptions and the
        enabled/disabled state stay. After the `{}` response each event subscription receives
        `CACHE_LOAD` with an empty snapshot (`lastSyncAt` 0, or null for a disabled channel) and
        each update subscription an `updates` with empty data. No refresh is started. Answers while
        the SDK is disabled.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, StorageError, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        return self._request("wipeData", None, timeout)

    def disable_sdk(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`disableSDK`: Disables the SDK: no network, no logging.

        Disables the SDK; the setting is kept in storage, so a restart on the same storage stays
        disabled until `enableSDK`. Pending refreshes and retries are cancelled without an event.
        While disabled nothing goes to the network: `refresh` answers `{}` then sends `ERROR`
        `SDK_DISABLED`/`DO_NOT_RETRY`; `subscribe` and `subscribeToUpdates` answer null;
        `changeUser`, `setUserAttributes`, `openSession`, `logImpression`, `logClick`, `logDismiss`
        and `flush` answer -32004 SDK_DISABLED. Existing subscriptions stay, caches and queued
        analytics are kept, and the read methods (`status`, `getSnapshot`, `getFeatureFlag`,
        `getBanner`, `evaluate`, `evaluateFlag`) still answer. Disabling a disabled SDK answers
        `{}`. Sends no notification itself.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return self._request("disableSDK", None, timeout)

    def enable_sdk(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`enableSDK`: Enables the SDK again.

        Enables the SDK. If it was disabled, the subscriptions work again and, after the `{}`
        response, each channel that has a subscription is refreshed:
        `DATA_UPDATED`/`AUTO_SERVER_REFRESH` (or `ERROR`) follows as each finishes; queued analytics
        are sent at the next flush. Enabling an enabled SDK answers `{}` and does nothing.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return self._request("enableSDK", None, timeout)

    def evaluate(
        self,
        rule: Any,
        *,
        data: Any = None,
        timeout: Optional[float] = None,
    ) -> EvaluateResult:
        """`evaluate`: Evaluates a JSONLogic rule.

        Evaluates a JSONLogic rule against `data` and answers `{result}`. The operators are
        JSONLogic's plus flagd's (`fractional`, `sem_ver`, `starts_with`, `ends_with`); the rule
        stands alone (no `$ref` to the definitions' `$evaluators`). Without `data` the rule is
        evaluated against null. A rule that does not compile (e.g. an unknown operator) or fails to
        evaluate (including a result that is not JSON, such as NaN) answers -32005 INVALID_RULE with
        `data.field` `rule` and `data.why`. Touches no user state, logs nothing, and answers while
        the SDK is disabled.

        Args:
            rule: The JSONLogic rule.
            data: (optional) The data the rule reads with `var`.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The evaluation.

        Raises:
            InvalidParams, InvalidRule, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"rule": rule}
        if data is not None:
            params["data"] = data
        return self._request("evaluate", params, timeout)

    def evaluate_flag(
        self,
        flag_key: str,
        context: Dict[str, Any],
        *,
        type: Optional[FlagType] = None,
        explain: Optional[bool] = None,
        timeout: Optional[float] = None,
    ) -> EvaluateFlagResult:
        """`evaluateFlag`: Evaluates a flag of the definitions as flagd would.

        Evaluates the flag `flagKey` of the current definitions for `context` exactly as flagd
        resolves it and answers `{value, variant, reason, errorCode?, errorMessage?, metadata?}`
        with flagd's variant, value and reason, and the merged metadata (the flag's over the flag
        set's). `context` is a flagd evaluation context: `targetingKey` (the user id, optional as in
        flagd) and attributes at the top level; `$flagd.flagKey` and `$flagd.timestamp` are added by
        the server. With `type`, a value of another type answers `reason` `ERROR`, `errorCode`
        `TYPE_MISMATCH`. An unknown flag is not an RPC error: it answers `reason` `ERROR`,
        `errorCode` `FLAG_NOT_FOUND`, `value` and `variant` null; a flag whose definition cannot be
        used answers `PARSE_ERROR`. Touches no user state and logs nothing (no impression); answers
        while the SDK is disabled. With `explain: true` the result carries `explain`: why, in words,
        the targeting that decided (`rule`, a JSON pointer into the definitions) and whether the
        `featureFlags` channel lists the flag.

        Args:
            flag_key: The flag's key in the definitions.
            context: The evaluation context, with `targetingKey`.
            type: (optional) The type the caller asks for (OpenFeature's typed resolution); a
                resolved value of another type answers `ERROR`/`TYPE_MISMATCH`.
            explain: (optional) Adds `explain` (FlagExplanation): why the flag resolves as it does,
                and the targeting that decided.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The flag as flagd resolves it: value, variant and reason, `metadata` when the flag or
                flag set has any, and `errorCode` with `errorMessage` for an error (then `reason` is
                `ERROR` and `value` and `variant` are null). Asked with `type`, a value of another
                type is `TYPE_MISMATCH`.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"flagKey": flag_key, "context": context}
        if type is not None:
            params["type"] = type
        if explain is not None:
            params["explain"] = explain
        return self._request("evaluateFlag", params, timeout)

    def evaluate_flags(
        self,
        context: Dict[str, Any],
        *,
        flag_keys: Optional[List[str]] = None,
        timeout: Optional[float] = None,
    ) -> EvaluateFlagsResult:
        """`evaluateFlags`: Evaluates many flags for one context, in one request.

        Resolves every flag of the current definitions (or the ones named in `flagKeys`) for
        `context` as `evaluateFlag` does, like flagd's `ResolveAll` and OFREP's bulk evaluation, so
        that a client evaluating many flags pays one round trip. Without `flagKeys`, every flag is
        in the answer (disabled ones with reason `DISABLED`); a named flag that does not exist
        answers `FLAG_NOT_FOUND`. `metadata` is the flag set's. Touches no user state and logs
        nothing.

        Args:
            context: The evaluation context, with `targetingKey`.
            flag_keys: (optional) The flags to resolve; every flag when left out. A key holding
                U+0000 is refused (INVALID_PARAMS): it would name a member of the reply, which JSON
                readers such as jansson refuse.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            Many flags resolved for one context: `flags` maps each flag key to its resolution (as
                `evaluateFlag` answers it); `metadata` is the flag set's, when it has any.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"context": context}
        if flag_keys is not None:
            params["flagKeys"] = flag_keys
        return self._request("evaluateFlags", params, timeout)

    def evaluate_feature(
        self,
        feature_key: str,
        *,
        attributes: Optional[Dict[str, Any]] = None,
        explain: Optional[bool] = None,
        timeout: Optional[float] = None,
    ) -> FeatureResult:
        """`evaluateFeature`: Evaluates a GrowthBook feature.

        Evaluates the GrowthBook feature `featureKey` of the current definitions (a GrowthBook SDK
        payload, or a document's `features` section) to the letter of GrowthBook's JavaScript SDK,
        and answers its FeatureResult. Without `attributes`, for the current user: GrowthBook's
        context is the user's attributes plus `id`, the user id (the device id while anonymous; an
        `id` attribute wins); sticky arms are read and kept (stored per attribute and value, across
        restarts), and when the user is assigned an arm by hash an exposure is logged:
        `EXPOSURE`/`ENQUEUED` to the `featureFlags` subscriptions after its commit, an
        `experiment_viewed` event at the sink, once per user, experiment and variation a session.
        With `attributes`, for that context alone: no sticky arm is read or kept and nothing is
        logged, as `evaluateFlag` with a context. An unknown feature answers source
        `unknownFeature`, value null. While the SDK is disabled, a request without `attributes` is
        refused -32004 SDK_DISABLED. With `explain: true` the result carries `explain`: why, in
        words, and the rule that decided.

        Args:
            feature_key: The feature's key.
            attributes: (optional) GrowthBook's context for this request alone (its attributes); the
                current user's when absent.
            explain: (optional) Adds `explain` (FlagExplanation): why the feature has its value, and
                the rule that decided.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            A GrowthBook feature's value for one context and why, as GrowthBook's SDKs and its
                cross-SDK test suite (`cases.json`) write it: `value`, `on` (JavaScript truthiness),
                `off`, `source` (`defaultValue`, `force`, `experiment`, `unknownFeature`,
                `prerequisite`, `cyclicPrerequisite`, `override`), `ruleId` ("" when none), and
                `experiment` and `experimentResult` when the source is `experiment`.

        Raises:
            InvalidParams, SDKDisabled, StorageError, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"featureKey": feature_key}
        if attributes is not None:
            params["attributes"] = attributes
        if explain is not None:
            params["explain"] = explain
        return self._request("evaluateFeature", params, timeout)

    def evaluate_features(
        self,
        *,
        attributes: Optional[Dict[str, Any]] = None,
        feature_keys: Optional[List[str]] = None,
        timeout: Optional[float] = None,
    ) -> EvaluateFeaturesResult:
        """`evaluateFeatures`: Evaluates many GrowthBook features in one round trip.

        Every GrowthBook feature of the current definitions, or those of `featureKeys`, as
        `evaluateFeature` evaluates each (for the current user without `attributes`, with sticky
        arms and exposures; for that context alone with them): `{features: {key: FeatureResult}}`.

        Args:
            attributes: (optional) GrowthBook's context for this request alone; the current user's
                when absent.
            feature_keys: (optional) The features to evaluate; all when absent. A key holding U+0000
                is refused (INVALID_PARAMS): it would name a member of the reply, which JSON readers
                such as jansson refuse.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The features.

        Raises:
            InvalidParams, SDKDisabled, StorageError, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {}
        if attributes is not None:
            params["attributes"] = attributes
        if feature_keys is not None:
            params["featureKeys"] = feature_keys
        return self._request("evaluateFeatures", params, timeout)

    def evaluate_condition(
        self,
        condition: Dict[str, Any],
        attributes: Dict[str, Any],
        *,
        saved_groups: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> EvaluateConditionResult:
        """`evaluateCondition`: Evaluates a GrowthBook condition.

        Evaluates a GrowthBook condition (MongoDB-like, with JavaScript's coercions: `$eq`, `$in`,
        `$regex`, `$vgt`, `$inGroup`, `$elemMatch`, …) for `attributes` and answers `{result}`, as
        `evaluate` does for JSONLogic. `$inGroup` and `$notInGroup` read `savedGroups` when given,
        else the current definitions' saved groups. A condition that cannot be read answers -32005
        INVALID_RULE naming `condition`. Touches no user state and logs nothing.

        Args:
            condition: The condition.
            attributes: The attributes the condition tests.
            saved_groups: (optional) Saved groups (id → values) for `$inGroup`; the definitions'
                when absent.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The evaluation.

        Raises:
            InvalidParams, InvalidRule, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"condition": condition, "attributes": attributes}
        if saved_groups is not None:
            params["savedGroups"] = saved_groups
        return self._request("evaluateCondition", params, timeout)

    def render_template(
        self,
        template: str,
        *,
        data: Optional[Dict[str, Any]] = None,
        attributes: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> RenderTemplateResult:
        """`renderTemplate`: Renders a Liquid template.

        Renders `template`, Liquid in Braze's dialect as banners, cards and flag properties are
        rendered (README, Personalisation), and answers `{text}`. `data` holds plain Liquid
        variables (`{{ name }}`) and `attributes` a user's attributes (`{{${name}}}`,
        `{{custom_attribute.${name}}}`); with neither, it renders for the current user: their
        attributes and their id (`${user_id}`, the targeting key). The server's clock (`'now'`) and
        the document's content blocks (`{{content_blocks.${name}}}`) apply either way. The bounds
        are a template's own (README, Personalisation), with up to 1 MiB of text. A template that
        does not parse, or fails to render, answers -32012 with `data.reason` `INVALID_TEMPLATE`,
        `TEMPLATE_LIMIT` (a bound reached) or `TEMPLATE_ABORTED` (`abort_message` ran;
        `data.abortMessage` holds its text), and `data.line` and `data.column` in the template.
        Before any definitions are loaded it answers -32008 NOT_SYNCED. Touches no user state and
        logs nothing.

        Args:
            template: The Liquid template (at most 1 MiB; more is TEMPLATE_LIMIT).
            data: (optional) Plain Liquid variables, read by `{{ name }}`.
            attributes: (optional) A user's attributes, read by `${name}`; the current user's when
                neither this nor `data` is given.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The rendered.

        Raises:
            InvalidParams, TemplateError, NotSynced, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"template": template}
        if data is not None:
            params["data"] = data
        if attributes is not None:
            params["attributes"] = attributes
        return self._request("renderTemplate", params, timeout)

    def shutdown(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`shutdown`: Flushes pending work and exits.

        Answers `{}`, then stops reading input, flushes pending analytics (bounded time, 10 s),
        closes storage cleanly and exits with status 0. Requests read after it, including those of
        the same batch or already buffered, are answered -32006 SHUTTING_DOWN; notifications are
        dropped. `FLUSHED` events of the final flush may still be written before the process exits.
        End of input does the same without a response.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return self._request("shutdown", None, timeout)

    def set_clock(self, time: Union[float, str], *, timeout: Optional[float] = None) -> ClockResult:
        """`setClock`: Sets the manual clock (`serve --clock manual`).

        Sets the wall clock of a server started with `--clock manual` to `time`, forward or back, as
        an administrator (or NTP) stepping it does: everything that reads the time sees the new time
        at once (schedules and expiry, `lastSyncAt`, event and analytics times, Retry-After dates,
        `$flagd.timestamp`), and no timer runs, since no time passed (timers count time passed: use
        `advanceClock`). Nothing is refreshed: a schedule is read when a channel is refreshed,
        expiry when it is read. A server on the system clock answers -32011 NOT_ENABLED, so that no
        production server's clock can be moved.

        Args:
            time: The new time: Unix seconds or an RFC 3339 date-time.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The manual clock after the change: `time` in Unix seconds and `date` in RFC 3339 (UTC).
                `advanceClock` adds `steps`, the timer deadlines it stepped through, and
                `coalesced`, true when it stepped through the most one advance takes (100,000) and
                let the rest of the span pass at once.

        Raises:
            InvalidParams, NotEnabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"time": time}
        return self._request("setClock", params, timeout)

    def advance_clock(self, seconds: float, *, timeout: Optional[float] = None) -> ClockResult:
        """`advanceClock`: Lets time pass on the manual clock (`serve --clock manual`).

        Lets `seconds` pass on a server started with `--clock manual`. Every timer due within them
        runs at its own deadline, in order, the clock reading exactly that deadline: polls of the
        definitions, retries of the source and of the sink (with their back-off and Retry-After),
        periodic flushes, the release of memory after large refreshes, the store's hourly sweep of
        users not seen. What a timer starts (a fetch, a delivery) finishes, with its events, before
        the next deadline, so a retry scheduled by a failure within the span runs within it too. The
        events come before the reply (in a batch, after the batch's array, as always). Rate-limit
        buckets refill with the time passed. An advance steps through at most 100,000 deadlines (a
        second's polls over a day are 86,400); past that the rest of the span passes at once, each
        overdue timer running once at the end (`coalesced` true). While it runs, the server reads no
        input: its I/O (a real source or sink) is waited for. A server on the system clock answers
        -32011 NOT_ENABLED.

        Args:
            seconds: How long passes, in seconds (≥ 0, at most a hundred years).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The manual clock after the change: `time` in Unix seconds and `date` in RFC 3339 (UTC).
                `advanceClock` adds `steps`, the timer deadlines it stepped through, and
                `coalesced`, true when it stepped through the most one advance takes (100,000) and
                let the rest of the span pass at once.

        Raises:
            InvalidParams, NotEnabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"seconds": seconds}
        return self._request("advanceClock", params, timeout)

    def inject_fault(
        self,
        target: FaultTarget,
        response: Union[Literal["timeout", "disconnect", "invalidData"], Dict[str, Any]],
        *,
        times: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> FaultsResult:
        """`injectFault`: Makes the next requests to the source, the sink or the stream fail (`serve
        --faults`).

        On a server started with `--faults`: the next `times` requests to `target` (after the
        failures already armed for it, first armed first given) get `response` instead of reaching
        the network or the file. The answer is read by the failure model as the same answer from an
        HTTP server would be, whatever the real source or sink is, so the app sees what it would
        see: 503 is SERVER_ERROR and retried, 429 with `Retry-After` is RATE_LIMITED with
        `rateLimitedUntil`, 401 is retried then DO_NOT_RETRY, `timeout`, `disconnect`,
        `invalidData`, a `definitions` answer of status 200 with a `body` is a document (a half body
        does not parse: INVALID_SERVER_DATA), and a `sink` answer of 2xx accepts the batch without
        writing it anywhere. Answers the failures armed. `status.faults` lists them too. A `sink`
        target on a server without `--sink` is -32003 NOT_ALLOWED; a server started without
        `--faults` answers -32011 NOT_ENABLED.

        Args:
            target: Where the failure goes.
            response: The answer given instead of the real one.
            times: (optional) How many requests get it (1 by default).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            Every failure still armed, each target's in the order they will be given.

        Raises:
            InvalidParams, NotAllowed, NotEnabled, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"target": target, "response": response}
        if times is not None:
            params["times"] = times
        return self._request("injectFault", params, timeout)

    def clear_faults(
        self,
        *,
        target: Optional[FaultTarget] = None,
        timeout: Optional[float] = None,
    ) -> FaultsResult:
        """`clearFaults`: Disarms injected failures (`serve --faults`).

        Disarms the failures armed for `target`, or for every target without it, and answers those
        still armed. A server started without `--faults` answers -32011 NOT_ENABLED.

        Args:
            target: (optional) The target to disarm; every one when left out.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            Every failure still armed, each target's in the order they will be given.

        Raises:
            InvalidParams, NotEnabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {}
        if target is not None:
            params["target"] = target
        return self._request("clearFaults", params, timeout)


class AsyncMethods:
    """The methods of `AsyncBunting`; each is a coroutine."""

    __slots__ = ()

    async def _request(self, method: str, params: Optional[Dict[str, Any]],
            timeout: Optional[float]) -> Any:
        raise NotImplementedError

    async def _subscribe(self, method: str, params: Optional[Dict[str, Any]], notification: str,
            callback: Optional[EventCallback], timeout: Optional[float]) -> Any:
        raise NotImplementedError

    async def rpc_discover(self, *, timeout: Optional[float] = None) -> OpenRPCDocument:
        """`rpc.discover`: Returns this OpenRPC document.

        Returns the OpenRPC document that describes this build: the document in
        `schemas/openrpc.json`, embedded in the binary. Methods the build does not implement yet
        carry `"x-implemented": false`.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            An OpenRPC 1.3.2 document (https://spec.open-rpc.org/).

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return await self._request("rpc.discover", None, timeout)

    async def status(self, *, timeout: Optional[float] = None) -> StatusResult:
        """`status`: Reports the server's state.

        Reports the version, the framing in use (null before the first bytes decided it) and the
        uptime in seconds. It also reports the current user (`userId`, null for the anonymous user),
        the open session (`sessionId`, null when none), whether the SDK is enabled, per channel
        whether it is enabled, its `lastSyncAt` and how many items the cache holds, and how many
        analytics events wait for the sink. Reads only: it changes nothing, sends no notification,
        and answers while the SDK is disabled. `definitions` says where the definitions are read
        from, whether a document is loaded (and since when), every problem of the loaded document (a
        flag in error, a banner or card left out, each with its pointer and line:column), the
        source's current problem when the last check found one, and (`aborted`) the items the
        current user's last refreshes left out because their Liquid templates gave this user no text
        (`abort_message`, a render error). `stream`, when the definitions come over a Server-Sent
        Events stream too (`--stream`, or GrowthBook's announced one), says whether it is connected
        and since when, the last event id it would resume from, how many times it tried to connect
        again and how many events came, and why it is down while it is. A server started with
        `--clock manual` adds `clock` (`{kind: "manual", time, date}`), one started with `--faults`
        adds `faults`, the injected failures still armed.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The server's and the engine's state.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return await self._request("status", None, timeout)

    async def change_user(
        self,
        user_id: str,
        *,
        attributes: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`changeUser`: Switches to another user and starts a session for them.

        Makes `userId` the current user; it is kept in storage, so a restart on the same storage
        resumes as this user with this user's cached data. Before the switch, the previous user's
        queued analytics are flushed (their `FLUSHED` events may follow), and a refresh still
        pending for the previous user is dropped. `attributes`, when given, are merged into the new
        user's attributes before anything is evaluated for them. After the `{}` response (written
        before the new user's refresh is evaluated, so that a returning user's cached data reaches
        the client meanwhile; a request read after `changeUser` still sees the refreshed data), each
        event subscription receives `CACHE_LOAD` with the new user's cached data (empty, with
        `lastSyncAt` 0, for a user never seen), each update subscription an `updates`, and a new
        session starts for the new user: each channel that has a subscription is refreshed without
        costing a rate-limit token, and `DATA_UPDATED`/`AUTO_SERVER_REFRESH` (or `ERROR`) follows as
        each refresh finishes. Before the first `changeUser` the server acts for an anonymous user
        (`status.userId` null). Changing to the current user only merges `attributes`: no event, no
        new session. While the SDK is disabled it answers -32004 SDK_DISABLED and nothing changes.

        Args:
            user_id: The new current user; becomes `targetingKey` in evaluation contexts (at most
                997 characters, Braze's limit on external ids).
            attributes: (optional) Attributes of the new user, merged into the stored ones; merged,
                they may take at most 64 KiB encoded (-32602 past that).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, SDKDisabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"userId": user_id}
        if attributes is not None:
            params["attributes"] = attributes
        return await self._request("changeUser", params, timeout)

    async def set_user_attributes(
        self,
        attributes: Dict[str, Any],
        *,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`setUserAttributes`: Merges attributes into the current user's attributes.

        Merges `attributes` into the current user's stored attributes (a key given replaces, a key
        given as null removes, other keys stay). Triggers no refresh and sends no notification; the
        next refresh evaluates with the new attributes. While the SDK is disabled it answers -32004
        SDK_DISABLED.

        Args:
            attributes: The attributes to merge; merged, they may take at most 64 KiB encoded
                (-32602 past that).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, SDKDisabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"attributes": attributes}
        return await self._request("setUserAttributes", params, timeout)

    async def open_session(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`openSession`: Starts a session for the current user.

        Starts a new session for the current user (an open session ends first, as `closeSession`
        would end it). After the `{}` response, each channel that has a subscription (event or
        update) is refreshed without costing a rate-limit token:
        `DATA_UPDATED`/`AUTO_SERVER_REFRESH` (or `ERROR`) follows as each refresh finishes. A
        channel with no subscription is not refreshed. A session also bounds flag-impression
        de-duplication (once per flag per session) and refills the banners' manual-refresh bucket (5
        tokens per session by default). No session is open at start-up. While the SDK is disabled it
        answers -32004 SDK_DISABLED.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, SDKDisabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        return await self._request("openSession", None, timeout)

    async def close_session(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`closeSession`: Ends the current session and flushes analytics.

        Ends the open session and starts a flush of the queued analytics; the `{}` response does not
        wait for the sink (use `flush` for that), and `FLUSHED` events follow as the sink accepts
        events. Without an open session it answers `{}` and does nothing. While the SDK is disabled
        the session ends but nothing is sent.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return await self._request("closeSession", None, timeout)

    async def subscribe(
        self,
        channel: Channel,
        callback: Optional[Callable[[ChannelEvent], Any]] = None,
        *,
        extras: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> Optional[AsyncSubscription[ChannelEvent]]:
        """`subscribe`: Subscribes to a channel's events.

        Subscribes to a channel's events and answers `{subscriptionId}`. Right after the response
        the subscription receives one `CACHE_REPLAY` event with the channel's cached data; later it
        receives `CACHE_LOAD`, `DATA_UPDATED`, `IMPRESSION`, `CLICK`, `DISMISS` and `ERROR` events
        of that channel (see the `event` notification). Subscribing starts no refresh. If the
        channel is disabled, or no configuration has arrived yet, it still answers normally, then
        sends `ERROR` `FEATURE_DISABLED` instead of `CACHE_REPLAY`: `DO_NOT_RETRY` when the
        definitions turn the channel off, `SDK_WILL_RETRY` while the first document is being fetched
        (when the definitions could not be read or were invalid, that `ERROR` carries the real cause
        instead: `SERVER_ERROR` or `INVALID_SERVER_DATA`, with the source's message); the
        subscription stays, and when the channel is enabled a refresh runs and `DATA_UPDATED`
        follows. If local storage was found damaged at start-up (moved aside and started afresh) or
        cannot be used (state is kept in memory only), an `ERROR` `CLIENT_ERROR`/`DO_NOT_RETRY`
        whose `message` says so follows the `CACHE_REPLAY` (or the `FEATURE_DISABLED` error), on
        every subscription made while this server runs. While the SDK is disabled it answers null
        and makes no subscription (subscriptions made before `disableSDK` stay and work again after
        `enableSDK`). A server keeps at most `--max-subscriptions` subscriptions (100 by default;
        -32010 `LIMIT_REACHED` past it); each receives its own events. With `extras` (content cards
        only; -32602 for another channel) the subscription's snapshots list only the cards of that
        feed.

        Args:
            channel: The channel to subscribe to.
            extras: (optional) Content cards only: the subscription's snapshots list just the cards
                whose `extras` hold all of these keys and values (a feed), with `unviewedCount`
                counting those.
            callback: called with each event notification's params (on the client's callback task;
                may be a coroutine function) instead of queueing them on the subscription.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            An AsyncSubscription whose queue (or callback) gets its event notifications
                (ChannelEvent), or None when no subscription is made (while the SDK is disabled).

        Raises:
            InvalidParams, LimitReached, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        if extras is not None:
            params["extras"] = extras
        return await self._subscribe("subscribe", params, "event", callback, timeout)

    async def subscribe_to_updates(
        self,
        channel: Channel,
        callback: Optional[Callable[[UpdatesEvent], Any]] = None,
        *,
        timeout: Optional[float] = None,
    ) -> Optional[AsyncSubscription[UpdatesEvent]]:
        """`subscribeToUpdates`: Deprecated. Subscribes to a channel's cache updates (deprecated
        pattern).

        Deprecated: use `subscribe`. Subscribes to a channel's data and answers `{subscriptionId}`.
        The subscription receives an `updates` notification whenever the channel's cache changes for
        the current user: wherever an event subscription of the channel would receive `CACHE_LOAD`
        or `DATA_UPDATED` (so also after a refresh that changed nothing), and nothing else: no
        replay on subscribing, no analytics, no errors. While the SDK is disabled it answers null
        and makes no subscription. `removeSubscription` ends it.

        Args:
            channel: The channel to subscribe to.
            callback: called with each updates notification's params (on the client's callback task;
                may be a coroutine function) instead of queueing them on the subscription.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            An AsyncSubscription whose queue (or callback) gets its updates notifications
                (UpdatesEvent), or None when no subscription is made (while the SDK is disabled).

        Raises:
            InvalidParams, LimitReached, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        return await self._subscribe("subscribeToUpdates", params, "updates", callback, timeout)

    async def subscribe_to_definitions(
        self,
        callback: Optional[Callable[[DefinitionsEvent], Any]] = None,
        *,
        timeout: Optional[float] = None,
    ) -> Optional[AsyncSubscription[DefinitionsEvent]]:
        """`subscribeToDefinitions`: Subscribes to what becomes of the definitions.

        Subscribes to the definitions themselves — OpenFeature's provider events — and answers
        `{subscriptionId}`. Right after the response the subscription receives `definitions` `READY`
        when definitions are loaded, or `ERROR` with the cause (`stale` false) when they could not
        be loaded; while the first document is still being fetched, nothing until it arrives. Later:
        `CHANGED` with the flags whose resolution could differ each time a new document is adopted,
        `ERROR` when the source fails or sends an invalid document (`stale` true while older
        definitions serve), and `READY` when the source answers again unchanged after an `ERROR`.
        `removeSubscription` ends it. While the SDK is disabled it answers null.

        Args:
            callback: called with each definitions notification's params (on the client's callback
                task; may be a coroutine function) instead of queueing them on the subscription.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            An AsyncSubscription whose queue (or callback) gets its definitions notifications
                (DefinitionsEvent), or None when no subscription is made (while the SDK is
                disabled).

        Raises:
            InvalidParams, LimitReached, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        return await self._subscribe("subscribeToDefinitions", None, "definitions", callback, timeout)

    async def remove_subscription(
        self,
        subscription_id: str,
        *,
        timeout: Optional[float] = None,
    ) -> RemoveSubscriptionResult:
        """`removeSubscription`: Ends a subscription.

        Ends a subscription of either kind. Answers `{removed: true}` when the id named a live
        subscription and `{removed: false}` otherwise (unknown or already removed): an unknown id is
        not an error. No notification for that subscription is written after the response. Answers
        while the SDK is disabled.

        Args:
            subscription_id: The id `subscribe` or `subscribeToUpdates` returned.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The removal.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"subscriptionId": subscription_id}
        return await self._request("removeSubscription", params, timeout)

    async def refresh(
        self,
        channel: Channel,
        *,
        placement_ids: Optional[List[str]] = None,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`refresh`: Refreshes a channel; the outcome arrives as events.

        Starts a manual refresh of a channel for the current user and answers `{}` at once; the
        outcome arrives as events to the channel's subscriptions:
        `DATA_UPDATED`/`MANUAL_SERVER_REFRESH` when it finishes (even with no change), or `ERROR`.
        Unlike the other requests, its effect is not in place when the next request is handled: it
        re-reads the source, which is I/O, and later requests are not held up for it, so a read sent
        before its `DATA_UPDATED` (or `ERROR`) arrives answers from the cache as it was; a script
        waits for that event before reading. A manual refresh re-reads the definitions source; if
        the document changed, the other subscribed channels are refreshed too
        (`DATA_UPDATED`/`AUTO_SERVER_REFRESH`). Manual refreshes are rate limited per channel by a
        token bucket (defaults: content cards 5 tokens, one back every 180 s; banners 5 tokens per
        session, one back every 180 s; feature flags 5 tokens, one back every 300 s;
        `--refresh-rate-limit` overrides): a refused refresh sends `ERROR`
        `RATE_LIMITED`/`INTEGRATOR_MAY_RETRY` with `rateLimitedUntil`. Failures are retried with
        backoff (`ERROR` `SERVER_ERROR`/`SDK_WILL_RETRY` on each failed try, then
        `INTEGRATOR_MAY_RETRY`); see ErrorReason and RetryState. A disabled channel sends `ERROR`
        `FEATURE_DISABLED`/`DO_NOT_RETRY`; while the SDK is disabled it sends `ERROR`
        `SDK_DISABLED`/`DO_NOT_RETRY` and nothing goes to the network. `placementIds` is for
        `banners` only (with another channel it is -32602): at most 10 distinct placement ids (more
        is -32602); the result merges into the cache: placements it did not name stay, named
        placements that now have no banner are removed. Without `placementIds` a banners refresh
        covers every placement of the definitions and replaces the banners cache.

        Args:
            channel: The channel to refresh.
            placement_ids: (optional) Banners only: the placements to refresh, 1 to 10 distinct ids.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        if placement_ids is not None:
            params["placementIds"] = placement_ids
        return await self._request("refresh", params, timeout)

    async def get_snapshot(
        self,
        channel: Channel,
        *,
        extras: Optional[Dict[str, Any]] = None,
        explain: Optional[bool] = None,
        timeout: Optional[float] = None,
    ) -> CacheSnapshot:
        """`getSnapshot`: Returns a channel's cached data.

        Returns the channel's cache snapshot for the current user, in the same shape as an event's
        `cacheSnapshot`: `contentCards` → ContentCardsSnapshot, `banners` → BannersSnapshot,
        `featureFlags` → FeatureFlagsSnapshot. While the channel is disabled the data is empty and
        `lastSyncAt` is null. Before the channel was refreshed for the current user (before the
        first definitions arrived, say), the answer carries `notSynced` with why and what to do, in
        the words `getFeatureFlag`'s -32008 `NOT_SYNCED` uses, so that an empty list is never
        mistaken for "nothing". Reads only: no refresh, no notification, nothing logged; answers
        from the cache while the SDK is disabled. With `extras` (content cards only; -32602 for
        another channel) only the cards of that feed are listed, and `unviewedCount` counts them.
        With `explain: true` the snapshot carries `explain`: each item of the definitions for the
        channel (flags, banners or cards, then the entries left out when the definitions loaded),
        decided for the current user now, with whether this snapshot holds it and why (targeting,
        schedule, expiry, control group, a banner of higher priority, a dismissal, a problem in the
        item).

        Args:
            channel: The channel.
            extras: (optional) Content cards only: list just the cards whose `extras` hold all of
                these keys and values.
            explain: (optional) Adds `explain`: each item of the definitions for the channel and why
                it is or is not in this snapshot.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            One channel's cached data for the current user, keyed by the channel's name, with
                `lastSyncAt`. While the channel is disabled the data is empty and `lastSyncAt` is
                null.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        if extras is not None:
            params["extras"] = extras
        if explain is not None:
            params["explain"] = explain
        return await self._request("getSnapshot", params, timeout)

    async def get_feature_flag(
        self,
        id: str,
        *,
        timeout: Optional[float] = None,
    ) -> Optional[FeatureFlag]:
        """`getFeatureFlag`: Returns one feature flag, or null.

        Returns the current user's feature flag with this id, or null when there is none (unknown
        id, or the featureFlags channel is disabled). Logs nothing: call `logImpression` when the
        flag is used. Before the `featureFlags` channel was refreshed for the current user it
        answers -32008 `NOT_SYNCED` (with what to do), and while the definitions turn the channel
        off -32009 `CHANNEL_DISABLED`: `null` means only that the synced cache has no such item.

        Args:
            id: The flag's id (its key).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The flag.

        Raises:
            InvalidParams, NotSynced, ChannelDisabled, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"id": id}
        return await self._request("getFeatureFlag", params, timeout)

    async def get_banner(
        self,
        placement_id: str,
        *,
        timeout: Optional[float] = None,
    ) -> Optional[Banner]:
        """`getBanner`: Returns the banner of a placement, or null.

        Returns the banner that fills this placement for the current user, or null when none does
        (no eligible banner, unknown placement, dismissed, or the banners channel is disabled). Logs
        nothing. Before the `banners` channel was refreshed for the current user it answers -32008
        `NOT_SYNCED` (with what to do), and while the definitions turn the channel off -32009
        `CHANNEL_DISABLED`: `null` means only that the synced cache has no such item.

        Args:
            placement_id: The placement.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The banner.

        Raises:
            InvalidParams, NotSynced, ChannelDisabled, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"placementId": placement_id}
        return await self._request("getBanner", params, timeout)

    async def log_impression(
        self,
        channel: Channel,
        *,
        id: Optional[str] = None,
        ids: Optional[List[str]] = None,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`logImpression`: Logs impressions of cards, flags or banners.

        Logs an impression of each item named by `id` or `ids` (exactly one of the two; both or
        neither is -32602): card ids for `contentCards`, flag ids for `featureFlags`, placement ids
        for `banners` (the banner filling the placement). Each event is committed to storage before
        its `IMPRESSION`/`ENQUEUED` event is sent (in the order of `ids`, after the `{}` response);
        `IMPRESSION`/`FLUSHED` follows once the sink accepted it. A card's impression sets its
        `viewed` (and so lowers `unviewedCount`) without sending `DATA_UPDATED`. A control card's or
        control banner's impression is an ordinary impression. A feature flag impression is logged
        at most once per flag per session (keyed by `trackingString` where the flag has one): a
        repeat answers `{}` and sends nothing. The request is all or nothing: an id that names no
        listed item of the channel answers -32002 NOT_FOUND (`data.field` names it, e.g. `ids[1]`)
        and nothing is logged. While the SDK is disabled it answers -32004 SDK_DISABLED.

        Args:
            channel: The channel.
            id: (optional) One item. Card id (contentCards), flag id (featureFlags) or placement id
                (banners).
            ids: (optional) Several distinct items of the channel. Card id (contentCards), flag id
                (featureFlags) or placement id (banners).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, NotFound, SDKDisabled, StorageError, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel}
        if id is not None:
            params["id"] = id
        if ids is not None:
            params["ids"] = ids
        return await self._request("logImpression", params, timeout)

    async def log_click(
        self,
        channel: InteractiveChannel,
        id: str,
        *,
        button_id: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`logClick`: Logs a click on a card or banner.

        Logs a click on a content card (`id` is the card id) or on the banner filling a placement
        (`id` is the placement id). The event is committed to storage, then after the `{}` response
        `CLICK`/`ENQUEUED` is sent (with `buttonId` when given), and `CLICK`/`FLUSHED` once the sink
        accepted it. A card's click sets its `clicked` without sending `DATA_UPDATED`. `buttonId`
        names the banner button clicked; it is for `banners` only (with `contentCards` it is
        -32602). An id that names no listed card or filled placement answers -32002 NOT_FOUND; a
        control card or control banner cannot be clicked: -32003 NOT_ALLOWED. While the SDK is
        disabled it answers -32004 SDK_DISABLED.

        Args:
            channel: `contentCards` or `banners`.
            id: Card id, or banner placement id.
            button_id: (optional) Banners only: the button clicked.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, NotFound, NotAllowed, SDKDisabled, StorageError, ShuttingDown,
                InternalError (from bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel, "id": id}
        if button_id is not None:
            params["buttonId"] = button_id
        return await self._request("logClick", params, timeout)

    async def log_dismiss(
        self,
        channel: InteractiveChannel,
        id: str,
        *,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """`logDismiss`: Dismisses a card or banner.

        Dismisses a content card (`id` is the card id) or the banner filling a placement (`id` is
        the placement id). After the `{}` response the subscriptions receive `DISMISS`/`ENQUEUED`,
        then `DATA_UPDATED`/`CLIENT_ACTION` with a snapshot without the item (update subscriptions
        an `updates`), and `DISMISS`/`FLUSHED` once the sink accepted the event. The dismissal lasts
        across refreshes and restarts: the card, or that banner (by banner id), is not listed again
        for this user; a later refresh may fill the placement with another banner. An id that names
        no listed card or filled placement (including one already dismissed) answers -32002
        NOT_FOUND; a card that is not `dismissible`, a control card or a control banner: -32003
        NOT_ALLOWED. While the SDK is disabled it answers -32004 SDK_DISABLED.

        Args:
            channel: `contentCards` or `banners`.
            id: Card id, or banner placement id.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, NotFound, NotAllowed, SDKDisabled, StorageError, ShuttingDown,
                InternalError (from bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"channel": channel, "id": id}
        return await self._request("logDismiss", params, timeout)

    async def track(
        self,
        name: str,
        *,
        value: Optional[float] = None,
        details: Optional[Dict[str, Any]] = None,
        user_id: Optional[str] = None,
        attributes: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> TrackResult:
        """`track`: Records a custom event on the durable analytics path.

        Records an event the client names (OpenFeature's `track`), for the current user and session,
        or for the user it names (`userId`, the evaluation context's targeting key; OpenFeature's
        `track` passes the context with the event, so a server that tracks for many users records
        each event under its own user): it is committed to local storage before `CUSTOM`/`ENQUEUED`
        is sent, and deleted only after the sink accepted it (`CUSTOM`/`FLUSHED`, same `eventId`),
        as impressions are; at the sink it is `kind` `custom` with `name`, `value`, `details` and
        `attributes` (`channel` `featureFlags`, `itemId` the name, `userId` the event's user). The
        notifications go to the event subscriptions of the `featureFlags` channel. Answers the
        event's id. Refused while the SDK is disabled (-32004); -32007 when it cannot be stored.

        Args:
            name: The event's name (at most 255 bytes).
            value: (optional) A number that goes with it (OpenFeature's tracking value).
            details: (optional) Anything else about it (at most 16 KiB encoded).
            user_id: (optional) The user the event is about (the evaluation context's targeting
                key), at most 997 characters; the current user when left out. An event for a user
                other than the current one carries no `sessionId`.
            attributes: (optional) The evaluation context's attributes at the time of the event (at
                most 64 KiB encoded), recorded with it: `attributes` at the sink and in the event's
                notifications. `targetingKey` and `$flagd` are reserved.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The id of the stored event: the same in its `CUSTOM` notifications and at the sink.

        Raises:
            InvalidParams, SDKDisabled, StorageError, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"name": name}
        if value is not None:
            params["value"] = value
        if details is not None:
            params["details"] = details
        if user_id is not None:
            params["userId"] = user_id
        if attributes is not None:
            params["attributes"] = attributes
        return await self._request("track", params, timeout)

    async def flush(self, *, timeout: Optional[float] = None) -> FlushResult:
        """`flush`: Sends queued analytics to the sink and waits for its answer.

        Sends every queued analytics event (of any user) to the sink and answers once the sink
        answered: `{flushed, pending}`, the events it accepted and those still queued. The `FLUSHED`
        events of the accepted events follow the response. `flushed` counts the events the sink
        accepted while this flush ran, including a batch already on its way when it was called (sent
        by `changeUser` or the periodic flush) that lands after the call; a batch that landed before
        it is not counted again, so after a user change the count depends on timing: to know that an
        event reached the sink, wait for its `FLUSHED`, or for `pending` 0. A sink failure or
        timeout is not an error: the events stay queued (`pending`) and are sent again at the next
        flush, with the same `eventId`. Without a sink (`--sink` not given) it answers `{flushed: 0,
        pending: N}` at once. Queued analytics are also flushed every `--flush-interval` (10 s by
        default), at `closeSession`, at `changeUser` (the previous user's events first) and at
        shutdown. While the SDK is disabled it answers -32004 SDK_DISABLED and nothing goes to the
        network.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The FlushResult.

        Raises:
            InvalidParams, SDKDisabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        return await self._request("flush", None, timeout)

    async def wipe_data(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`wipeData`: Deletes everything stored.

        Deletes every stored thing: all users' cached snapshots, attributes, dismissals, viewed and
        clicked states, flag impressions of the session, and the queued analytics, which are dropped
        (never sent, no `FLUSHED`). The current user id, the session, the subscriptions and the
        enabled/disabled state stay. After the `{}` response each event subscription receives
        `CACHE_LOAD` with an empty snapshot (`lastSyncAt` 0, or null for a disabled channel) and
        each update subscription an `updates` with empty data. No refresh is started. Answers while
        the SDK is disabled.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, StorageError, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        return await self._request("wipeData", None, timeout)

    async def disable_sdk(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`disableSDK`: Disables the SDK: no network, no logging.

        Disables the SDK; the setting is kept in storage, so a restart on the same storage stays
        disabled until `enableSDK`. Pending refreshes and retries are cancelled without an event.
        While disabled nothing goes to the network: `refresh` answers `{}` then sends `ERROR`
        `SDK_DISABLED`/`DO_NOT_RETRY`; `subscribe` and `subscribeToUpdates` answer null;
        `changeUser`, `setUserAttributes`, `openSession`, `logImpression`, `logClick`, `logDismiss`
        and `flush` answer -32004 SDK_DISABLED. Existing subscriptions stay, caches and queued
        analytics are kept, and the read methods (`status`, `getSnapshot`, `getFeatureFlag`,
        `getBanner`, `evaluate`, `evaluateFlag`) still answer. Disabling a disabled SDK answers
        `{}`. Sends no notification itself.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return await self._request("disableSDK", None, timeout)

    async def enable_sdk(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`enableSDK`: Enables the SDK again.

        Enables the SDK. If it was disabled, the subscriptions work again and, after the `{}`
        response, each channel that has a subscription is refreshed:
        `DATA_UPDATED`/`AUTO_SERVER_REFRESH` (or `ERROR`) follows as each finishes; queued analytics
        are sent at the next flush. Enabling an enabled SDK answers `{}` and does nothing.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return await self._request("enableSDK", None, timeout)

    async def evaluate(
        self,
        rule: Any,
        *,
        data: Any = None,
        timeout: Optional[float] = None,
    ) -> EvaluateResult:
        """`evaluate`: Evaluates a JSONLogic rule.

        Evaluates a JSONLogic rule against `data` and answers `{result}`. The operators are
        JSONLogic's plus flagd's (`fractional`, `sem_ver`, `starts_with`, `ends_with`); the rule
        stands alone (no `$ref` to the definitions' `$evaluators`). Without `data` the rule is
        evaluated against null. A rule that does not compile (e.g. an unknown operator) or fails to
        evaluate (including a result that is not JSON, such as NaN) answers -32005 INVALID_RULE with
        `data.field` `rule` and `data.why`. Touches no user state, logs nothing, and answers while
        the SDK is disabled.

        Args:
            rule: The JSONLogic rule.
            data: (optional) The data the rule reads with `var`.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The evaluation.

        Raises:
            InvalidParams, InvalidRule, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"rule": rule}
        if data is not None:
            params["data"] = data
        return await self._request("evaluate", params, timeout)

    async def evaluate_flag(
        self,
        flag_key: str,
        context: Dict[str, Any],
        *,
        type: Optional[FlagType] = None,
        explain: Optional[bool] = None,
        timeout: Optional[float] = None,
    ) -> EvaluateFlagResult:
        """`evaluateFlag`: Evaluates a flag of the definitions as flagd would.

        Evaluates the flag `flagKey` of the current definitions for `context` exactly as flagd
        resolves it and answers `{value, variant, reason, errorCode?, errorMessage?, metadata?}`
        with flagd's variant, value and reason, and the merged metadata (the flag's over the flag
        set's). `context` is a flagd evaluation context: `targetingKey` (the user id, optional as in
        flagd) and attributes at the top level; `$flagd.flagKey` and `$flagd.timestamp` are added by
        the server. With `type`, a value of another type answers `reason` `ERROR`, `errorCode`
        `TYPE_MISMATCH`. An unknown flag is not an RPC error: it answers `reason` `ERROR`,
        `errorCode` `FLAG_NOT_FOUND`, `value` and `variant` null; a flag whose definition cannot be
        used answers `PARSE_ERROR`. Touches no user state and logs nothing (no impression); answers
        while the SDK is disabled. With `explain: true` the result carries `explain`: why, in words,
        the targeting that decided (`rule`, a JSON pointer into the definitions) and whether the
        `featureFlags` channel lists the flag.

        Args:
            flag_key: The flag's key in the definitions.
            context: The evaluation context, with `targetingKey`.
            type: (optional) The type the caller asks for (OpenFeature's typed resolution); a
                resolved value of another type answers `ERROR`/`TYPE_MISMATCH`.
            explain: (optional) Adds `explain` (FlagExplanation): why the flag resolves as it does,
                and the targeting that decided.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The flag as flagd resolves it: value, variant and reason, `metadata` when the flag or
                flag set has any, and `errorCode` with `errorMessage` for an error (then `reason` is
                `ERROR` and `value` and `variant` are null). Asked with `type`, a value of another
                type is `TYPE_MISMATCH`.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"flagKey": flag_key, "context": context}
        if type is not None:
            params["type"] = type
        if explain is not None:
            params["explain"] = explain
        return await self._request("evaluateFlag", params, timeout)

    async def evaluate_flags(
        self,
        context: Dict[str, Any],
        *,
        flag_keys: Optional[List[str]] = None,
        timeout: Optional[float] = None,
    ) -> EvaluateFlagsResult:
        """`evaluateFlags`: Evaluates many flags for one context, in one request.

        Resolves every flag of the current definitions (or the ones named in `flagKeys`) for
        `context` as `evaluateFlag` does, like flagd's `ResolveAll` and OFREP's bulk evaluation, so
        that a client evaluating many flags pays one round trip. Without `flagKeys`, every flag is
        in the answer (disabled ones with reason `DISABLED`); a named flag that does not exist
        answers `FLAG_NOT_FOUND`. `metadata` is the flag set's. Touches no user state and logs
        nothing.

        Args:
            context: The evaluation context, with `targetingKey`.
            flag_keys: (optional) The flags to resolve; every flag when left out. A key holding
                U+0000 is refused (INVALID_PARAMS): it would name a member of the reply, which JSON
                readers such as jansson refuse.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            Many flags resolved for one context: `flags` maps each flag key to its resolution (as
                `evaluateFlag` answers it); `metadata` is the flag set's, when it has any.

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        params: Dict[str, Any] = {"context": context}
        if flag_keys is not None:
            params["flagKeys"] = flag_keys
        return await self._request("evaluateFlags", params, timeout)

    async def evaluate_feature(
        self,
        feature_key: str,
        *,
        attributes: Optional[Dict[str, Any]] = None,
        explain: Optional[bool] = None,
        timeout: Optional[float] = None,
    ) -> FeatureResult:
        """`evaluateFeature`: Evaluates a GrowthBook feature.

        Evaluates the GrowthBook feature `featureKey` of the current definitions (a GrowthBook SDK
        payload, or a document's `features` section) to the letter of GrowthBook's JavaScript SDK,
        and answers its FeatureResult. Without `attributes`, for the current user: GrowthBook's
        context is the user's attributes plus `id`, the user id (the device id while anonymous; an
        `id` attribute wins); sticky arms are read and kept (stored per attribute and value, across
        restarts), and when the user is assigned an arm by hash an exposure is logged:
        `EXPOSURE`/`ENQUEUED` to the `featureFlags` subscriptions after its commit, an
        `experiment_viewed` event at the sink, once per user, experiment and variation a session.
        With `attributes`, for that context alone: no sticky arm is read or kept and nothing is
        logged, as `evaluateFlag` with a context. An unknown feature answers source
        `unknownFeature`, value null. While the SDK is disabled, a request without `attributes` is
        refused -32004 SDK_DISABLED. With `explain: true` the result carries `explain`: why, in
        words, and the rule that decided.

        Args:
            feature_key: The feature's key.
            attributes: (optional) GrowthBook's context for this request alone (its attributes); the
                current user's when absent.
            explain: (optional) Adds `explain` (FlagExplanation): why the feature has its value, and
                the rule that decided.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            A GrowthBook feature's value for one context and why, as GrowthBook's SDKs and its
                cross-SDK test suite (`cases.json`) write it: `value`, `on` (JavaScript truthiness),
                `off`, `source` (`defaultValue`, `force`, `experiment`, `unknownFeature`,
                `prerequisite`, `cyclicPrerequisite`, `override`), `ruleId` ("" when none), and
                `experiment` and `experimentResult` when the source is `experiment`.

        Raises:
            InvalidParams, SDKDisabled, StorageError, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"featureKey": feature_key}
        if attributes is not None:
            params["attributes"] = attributes
        if explain is not None:
            params["explain"] = explain
        return await self._request("evaluateFeature", params, timeout)

    async def evaluate_features(
        self,
        *,
        attributes: Optional[Dict[str, Any]] = None,
        feature_keys: Optional[List[str]] = None,
        timeout: Optional[float] = None,
    ) -> EvaluateFeaturesResult:
        """`evaluateFeatures`: Evaluates many GrowthBook features in one round trip.

        Every GrowthBook feature of the current definitions, or those of `featureKeys`, as
        `evaluateFeature` evaluates each (for the current user without `attributes`, with sticky
        arms and exposures; for that context alone with them): `{features: {key: FeatureResult}}`.

        Args:
            attributes: (optional) GrowthBook's context for this request alone; the current user's
                when absent.
            feature_keys: (optional) The features to evaluate; all when absent. A key holding U+0000
                is refused (INVALID_PARAMS): it would name a member of the reply, which JSON readers
                such as jansson refuse.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The features.

        Raises:
            InvalidParams, SDKDisabled, StorageError, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {}
        if attributes is not None:
            params["attributes"] = attributes
        if feature_keys is not None:
            params["featureKeys"] = feature_keys
        return await self._request("evaluateFeatures", params, timeout)

    async def evaluate_condition(
        self,
        condition: Dict[str, Any],
        attributes: Dict[str, Any],
        *,
        saved_groups: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> EvaluateConditionResult:
        """`evaluateCondition`: Evaluates a GrowthBook condition.

        Evaluates a GrowthBook condition (MongoDB-like, with JavaScript's coercions: `$eq`, `$in`,
        `$regex`, `$vgt`, `$inGroup`, `$elemMatch`, …) for `attributes` and answers `{result}`, as
        `evaluate` does for JSONLogic. `$inGroup` and `$notInGroup` read `savedGroups` when given,
        else the current definitions' saved groups. A condition that cannot be read answers -32005
        INVALID_RULE naming `condition`. Touches no user state and logs nothing.

        Args:
            condition: The condition.
            attributes: The attributes the condition tests.
            saved_groups: (optional) Saved groups (id → values) for `$inGroup`; the definitions'
                when absent.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The evaluation.

        Raises:
            InvalidParams, InvalidRule, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"condition": condition, "attributes": attributes}
        if saved_groups is not None:
            params["savedGroups"] = saved_groups
        return await self._request("evaluateCondition", params, timeout)

    async def render_template(
        self,
        template: str,
        *,
        data: Optional[Dict[str, Any]] = None,
        attributes: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> RenderTemplateResult:
        """`renderTemplate`: Renders a Liquid template.

        Renders `template`, Liquid in Braze's dialect as banners, cards and flag properties are
        rendered (README, Personalisation), and answers `{text}`. `data` holds plain Liquid
        variables (`{{ name }}`) and `attributes` a user's attributes (`{{${name}}}`,
        `{{custom_attribute.${name}}}`); with neither, it renders for the current user: their
        attributes and their id (`${user_id}`, the targeting key). The server's clock (`'now'`) and
        the document's content blocks (`{{content_blocks.${name}}}`) apply either way. The bounds
        are a template's own (README, Personalisation), with up to 1 MiB of text. A template that
        does not parse, or fails to render, answers -32012 with `data.reason` `INVALID_TEMPLATE`,
        `TEMPLATE_LIMIT` (a bound reached) or `TEMPLATE_ABORTED` (`abort_message` ran;
        `data.abortMessage` holds its text), and `data.line` and `data.column` in the template.
        Before any definitions are loaded it answers -32008 NOT_SYNCED. Touches no user state and
        logs nothing.

        Args:
            template: The Liquid template (at most 1 MiB; more is TEMPLATE_LIMIT).
            data: (optional) Plain Liquid variables, read by `{{ name }}`.
            attributes: (optional) A user's attributes, read by `${name}`; the current user's when
                neither this nor `data` is given.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The rendered.

        Raises:
            InvalidParams, TemplateError, NotSynced, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"template": template}
        if data is not None:
            params["data"] = data
        if attributes is not None:
            params["attributes"] = attributes
        return await self._request("renderTemplate", params, timeout)

    async def shutdown(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """`shutdown`: Flushes pending work and exits.

        Answers `{}`, then stops reading input, flushes pending analytics (bounded time, 10 s),
        closes storage cleanly and exits with status 0. Requests read after it, including those of
        the same batch or already buffered, are answered -32006 SHUTTING_DOWN; notifications are
        dropped. `FLUSHED` events of the final flush may still be written before the process exits.
        End of input does the same without a response.

        Args:
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            `{}`

        Raises:
            InvalidParams, ShuttingDown, InternalError (from bunting.errors); RequestTimeout;
                ServerExited.
        """
        return await self._request("shutdown", None, timeout)

    async def set_clock(
        self,
        time: Union[float, str],
        *,
        timeout: Optional[float] = None,
    ) -> ClockResult:
        """`setClock`: Sets the manual clock (`serve --clock manual`).

        Sets the wall clock of a server started with `--clock manual` to `time`, forward or back, as
        an administrator (or NTP) stepping it does: everything that reads the time sees the new time
        at once (schedules and expiry, `lastSyncAt`, event and analytics times, Retry-After dates,
        `$flagd.timestamp`), and no timer runs, since no time passed (timers count time passed: use
        `advanceClock`). Nothing is refreshed: a schedule is read when a channel is refreshed,
        expiry when it is read. A server on the system clock answers -32011 NOT_ENABLED, so that no
        production server's clock can be moved.

        Args:
            time: The new time: Unix seconds or an RFC 3339 date-time.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The manual clock after the change: `time` in Unix seconds and `date` in RFC 3339 (UTC).
                `advanceClock` adds `steps`, the timer deadlines it stepped through, and
                `coalesced`, true when it stepped through the most one advance takes (100,000) and
                let the rest of the span pass at once.

        Raises:
            InvalidParams, NotEnabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"time": time}
        return await self._request("setClock", params, timeout)

    async def advance_clock(
        self,
        seconds: float,
        *,
        timeout: Optional[float] = None,
    ) -> ClockResult:
        """`advanceClock`: Lets time pass on the manual clock (`serve --clock manual`).

        Lets `seconds` pass on a server started with `--clock manual`. Every timer due within them
        runs at its own deadline, in order, the clock reading exactly that deadline: polls of the
        definitions, retries of the source and of the sink (with their back-off and Retry-After),
        periodic flushes, the release of memory after large refreshes, the store's hourly sweep of
        users not seen. What a timer starts (a fetch, a delivery) finishes, with its events, before
        the next deadline, so a retry scheduled by a failure within the span runs within it too. The
        events come before the reply (in a batch, after the batch's array, as always). Rate-limit
        buckets refill with the time passed. An advance steps through at most 100,000 deadlines (a
        second's polls over a day are 86,400); past that the rest of the span passes at once, each
        overdue timer running once at the end (`coalesced` true). While it runs, the server reads no
        input: its I/O (a real source or sink) is waited for. A server on the system clock answers
        -32011 NOT_ENABLED.

        Args:
            seconds: How long passes, in seconds (≥ 0, at most a hundred years).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            The manual clock after the change: `time` in Unix seconds and `date` in RFC 3339 (UTC).
                `advanceClock` adds `steps`, the timer deadlines it stepped through, and
                `coalesced`, true when it stepped through the most one advance takes (100,000) and
                let the rest of the span pass at once.

        Raises:
            InvalidParams, NotEnabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"seconds": seconds}
        return await self._request("advanceClock", params, timeout)

    async def inject_fault(
        self,
        target: FaultTarget,
        response: Union[Literal["timeout", "disconnect", "invalidData"], Dict[str, Any]],
        *,
        times: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> FaultsResult:
        """`injectFault`: Makes the next requests to the source, the sink or the stream fail (`serve
        --faults`).

        On a server started with `--faults`: the next `times` requests to `target` (after the
        failures already armed for it, first armed first given) get `response` instead of reaching
        the network or the file. The answer is read by the failure model as the same answer from an
        HTTP server would be, whatever the real source or sink is, so the app sees what it would
        see: 503 is SERVER_ERROR and retried, 429 with `Retry-After` is RATE_LIMITED with
        `rateLimitedUntil`, 401 is retried then DO_NOT_RETRY, `timeout`, `disconnect`,
        `invalidData`, a `definitions` answer of status 200 with a `body` is a document (a half body
        does not parse: INVALID_SERVER_DATA), and a `sink` answer of 2xx accepts the batch without
        writing it anywhere. Answers the failures armed. `status.faults` lists them too. A `sink`
        target on a server without `--sink` is -32003 NOT_ALLOWED; a server started without
        `--faults` answers -32011 NOT_ENABLED.

        Args:
            target: Where the failure goes.
            response: The answer given instead of the real one.
            times: (optional) How many requests get it (1 by default).
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            Every failure still armed, each target's in the order they will be given.

        Raises:
            InvalidParams, NotAllowed, NotEnabled, ShuttingDown, InternalError (from
                bunting.errors); RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {"target": target, "response": response}
        if times is not None:
            params["times"] = times
        return await self._request("injectFault", params, timeout)

    async def clear_faults(
        self,
        *,
        target: Optional[FaultTarget] = None,
        timeout: Optional[float] = None,
    ) -> FaultsResult:
        """`clearFaults`: Disarms injected failures (`serve --faults`).

        Disarms the failures armed for `target`, or for every target without it, and answers those
        still armed. A server started without `--faults` answers -32011 NOT_ENABLED.

        Args:
            target: (optional) The target to disarm; every one when left out.
            timeout: seconds to wait for the reply (default: the client's call_timeout).

        Returns:
            Every failure still armed, each target's in the order they will be given.

        Raises:
            InvalidParams, NotEnabled, ShuttingDown, InternalError (from bunting.errors);
                RequestTimeout; ServerExited.
        """
        params: Dict[str, Any] = {}
        if target is not None:
            params["target"] = target
        return await self._request("clearFaults", params, timeout)
