# Generated from schemas/openrpc.json (Bunting 0.1.0) by clients/python/tools/generate_methods.py.
# Do not edit: change the document, then run `python3 clients/python/tools/generate_methods.py`.
"""The params of the server's notifications, as TypedDicts generated from the OpenRPC document.

Each is what a Subscription's events are: `subscribe` gives `Subscription[ChannelEvent]`,
`subscribeToDefinitions` `Subscription[DefinitionsEvent]`, `subscribeToUpdates`
`Subscription[UpdatesEvent]`. At run time they are plain dicts. The keys every variant
has are required; the rest are present only where the type of event has them.
"""

from typing import Any, Dict, List, Literal, TypedDict, Union

AnalyticsAction = Literal["ENQUEUED", "FLUSHED"]
Channel = Literal["banners", "contentCards", "featureFlags"]
DataUpdatedReason = Literal["AUTO_SERVER_REFRESH", "MANUAL_SERVER_REFRESH", "CLIENT_ACTION"]
ErrorReason = Literal[
    "SERVER_ERROR",
    "CLIENT_ERROR",
    "RATE_LIMITED",
    "SDK_DISABLED",
    "INVALID_SERVER_DATA",
    "FEATURE_DISABLED",
]
InteractiveChannel = Literal["contentCards", "banners"]
RetryState = Literal["SDK_WILL_RETRY", "INTEGRATOR_MAY_RETRY", "DO_NOT_RETRY"]


class _ChannelEventKeys(TypedDict):
    subscriptionId: str
    channel: Channel
    type: Literal[
        "CACHE_REPLAY",
        "CACHE_LOAD",
        "DATA_UPDATED",
        "IMPRESSION",
        "CLICK",
        "DISMISS",
        "CUSTOM",
        "EXPOSURE",
        "ERROR",
    ]


class ChannelEvent(_ChannelEventKeys, total=False):
    """An event of an event subscription (`subscribe`).

    The params of an `event` notification: `subscriptionId`, `channel`, `type` and the fields of
    that type.
    """

    cacheSnapshot: Dict[str, Any]
    reason: Union[DataUpdatedReason, ErrorReason]
    action: AnalyticsAction
    eventId: str
    card: Dict[str, Any]
    banner: Dict[str, Any]
    flag: Dict[str, Any]
    buttonId: str
    event: Dict[str, Any]
    exposure: Dict[str, Any]
    retryState: RetryState
    rateLimitedUntil: float
    message: str


class _UpdatesEventKeys(TypedDict):
    subscriptionId: str
    channel: Literal["contentCards", "banners", "featureFlags"]


class UpdatesEvent(_UpdatesEventKeys, total=False):
    """A cache update of an update subscription (`subscribeToUpdates`, deprecated pattern).

    The params of an `updates` notification (deprecated pattern): `subscriptionId`, `channel`, and
    the snapshot's data under the channel's key (no `lastSyncAt`).
    """

    contentCards: Dict[str, Any]
    banners: Dict[str, Any]
    featureFlags: List[Dict[str, Any]]


class _DefinitionsEventKeys(TypedDict):
    subscriptionId: str
    type: Literal["READY", "CHANGED", "ERROR"]


class DefinitionsEvent(_DefinitionsEventKeys, total=False):
    """What became of the definitions, for a definitions subscription (`subscribeToDefinitions`).

    The params of a `definitions` notification, to a subscription made with
    `subscribeToDefinitions`. `READY`: the definitions in use are loaded and current (right after
    the subscribe reply when they are loaded; when the first document loads; when the source answers
    again after an `ERROR` without a change). `CHANGED`: a new document was adopted; `flagsChanged`
    names the flags added, removed, or whose resolution could differ (their definition, the
    `$evaluators`, the flag-set metadata or the fractional generation changed). It comes before the
    `DATA_UPDATED` events the new document causes. `ERROR`: the source failed or sent an invalid
    document, with the channels' ERROR fields; `stale` is true when older definitions are still
    served, false when none are loaded.
    """

    loadedAt: float
    flagsChanged: List[str]
    reason: ErrorReason
    retryState: RetryState
    rateLimitedUntil: float
    message: str
    stale: bool


__all__ = [
    "AnalyticsAction",
    "Channel",
    "ChannelEvent",
    "DataUpdatedReason",
    "DefinitionsEvent",
    "ErrorReason",
    "InteractiveChannel",
    "RetryState",
    "UpdatesEvent",
]
