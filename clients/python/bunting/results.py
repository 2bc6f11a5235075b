# Generated from schemas/openrpc.json (Bunting 0.1.0) by clients/python/tools/generate_methods.py.
# Do not edit: change the document, then run `python3 clients/python/tools/generate_methods.py`.
"""The methods' results, as TypedDicts generated from the OpenRPC document.

Each method of `Bunting` and `AsyncBunting` is annotated with what it returns: `status()`
a `StatusResult`, `evaluate_flag()` an `EvaluateFlagResult`, `get_feature_flag()` an
`Optional[FeatureFlag]`. At run time they are plain dicts. Keys the document requires are
required here; the others may be absent.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

Channel = Literal["banners", "contentCards", "featureFlags"]
FaultTarget = Literal["definitions", "sink", "stream"]


class _OpenRPCDocumentKeys(TypedDict):
    openrpc: Any
    info: Dict[str, Any]
    methods: List[Dict[str, Any]]


class OpenRPCDocument(_OpenRPCDocumentKeys, total=False):
    """An OpenRPC 1.3.2 document (https://spec.open-rpc.org/).
    """

    components: Dict[str, Any]


class _StatusResultKeys(TypedDict):
    version: str
    framing: Optional[Literal["ndjson", "lsp"]]
    uptime: float
    userId: Optional[str]
    sessionId: Optional[str]
    sdkEnabled: bool
    channels: StatusResultChannels
    pendingAnalytics: int
    definitions: DefinitionsStatus


class StatusResult(_StatusResultKeys, total=False):
    """The server's and the engine's state.
    """

    stream: StreamStatus
    clock: StatusResultClock
    faults: List[ArmedFault]


class StatusResultChannels(TypedDict):
    """The `channels` of a `StatusResult`.
    """

    banners: ChannelStatus
    contentCards: ChannelStatus
    featureFlags: ChannelStatus


class ChannelStatus(TypedDict):
    """`ChannelStatus`.
    """

    enabled: bool
    lastSyncAt: LastSyncAt
    itemCount: int


class _DefinitionsStatusKeys(TypedDict):
    location: str
    loaded: bool
    problems: List[DefinitionsProblem]


class DefinitionsStatus(_DefinitionsStatusKeys, total=False):
    """The definitions: where they are read from (a path, a URL without any user:password, or `(bundled
    example)`), whether a document is loaded and when it was adopted, the first 100 problems of the
    loaded document (a flag in error, a banner or card left out; `problemCount` says how many there
    are: `bunting validate` lists them all), and the source's problem now when the last check found
    one, and the items the current user's last refreshes left out because their templates gave no
    text (`aborted`: `abort_message` ran, or rendering failed; the first 100).
    """

    loadedAt: float
    problemCount: int
    lastError: str
    aborted: List[UnrenderedItem]


class DefinitionsProblem(TypedDict):
    """One thing wrong in the definitions though they loaded: where (a JSON pointer, and line and
    column in the text) and what.
    """

    pointer: str
    line: int
    column: int
    message: str


class UnrenderedItem(TypedDict):
    """An item whose template gave the current user no text at the last refresh of its channel, so that
    the item is left out for this user: `abort_message` ran (TEMPLATE_ABORTED, `message` holds its
    text), or rendering failed (TEMPLATE_LIMIT, INVALID_TEMPLATE). `pointer` is the field's place in
    the document; `line` and `column` are in the template's own text.
    """

    channel: Channel
    id: str
    pointer: str
    reason: Literal["TEMPLATE_ABORTED", "TEMPLATE_LIMIT", "INVALID_TEMPLATE"]
    message: str
    line: int
    column: int


class _StreamStatusKeys(TypedDict):
    location: str
    discovered: bool
    connected: bool
    reconnects: int
    events: int


class StreamStatus(_StreamStatusKeys, total=False):
    """The Server-Sent Events stream of the definitions (`--stream URL`, or the one a GrowthBook server
    announced with `x-sse-support: enabled`); absent from `status` when there is none. `connected`
    is true from the server's event-stream answer until the connection ends; `since` is when it
    connected, or when it went down (or began to connect). `reconnects` counts the tries to connect
    after the first, `events` the events received (documents, empty events, skipped ones).
    `lastEventId` is what the next connection sends as `Last-Event-ID`; `lastError` why the stream
    is down, while it is.
    """

    since: float
    lastEventId: str
    lastError: str


class StatusResultClock(TypedDict):
    """With `--clock manual`: the manual clock, `time` in Unix seconds and `date` in RFC 3339.
    """

    kind: Any
    time: float
    date: str


class ArmedFault(TypedDict):
    """An injected failure still armed: its target, how many more requests get it, and the answer.
    """

    target: FaultTarget
    times: int
    response: FaultResponse


class _FaultResponseObjectKeys(TypedDict):
    status: int


class FaultResponseObject(_FaultResponseObjectKeys, total=False):
    """`FaultResponseObject`.
    """

    headers: Dict[str, str]
    body: Any


class SubscribeResultObject(TypedDict):
    """`SubscribeResultObject`.
    """

    subscriptionId: str


class RemoveSubscriptionResult(TypedDict):
    """`RemoveSubscriptionResult`.
    """

    removed: bool


class _ContentCardsSnapshotKeys(TypedDict):
    contentCards: ContentCardsData
    lastSyncAt: LastSyncAt


class ContentCardsSnapshot(_ContentCardsSnapshotKeys, total=False):
    """`ContentCardsSnapshot`.
    """

    notSynced: str
    explain: List[Dict[str, Any]]


class ContentCardsData(TypedDict):
    """The listed cards: pinned first, then newest `created` first, then by `id`. Expired and dismissed
    cards are not listed. `unviewedCount` counts listed cards not yet viewed, control cards
    excluded.
    """

    cards: List[ContentCard]
    unviewedCount: int


class _ContentCardKeys(TypedDict):
    id: str
    type: Literal["classic", "captionedImage", "imageOnly", "control"]
    isControl: bool
    extras: Dict[str, str]
    created: float
    pinned: bool
    dismissible: bool
    viewed: bool
    clicked: bool


class ContentCard(_ContentCardKeys, total=False):
    """A content card as listed for the current user. A card of type `control` has `isControl` true and
    every other card false; a control card is never meant to be shown, but its impression is logged.
    """

    title: str
    description: str
    imageUrl: str
    aspectRatio: float
    url: str
    linkText: str
    updated: float
    expiresAt: float


class _BannersSnapshotKeys(TypedDict):
    banners: Dict[str, Banner]
    lastSyncAt: LastSyncAt


class BannersSnapshot(_BannersSnapshotKeys, total=False):
    """`BannersSnapshot`.
    """

    notSynced: str
    explain: List[Dict[str, Any]]


class _BannerKeys(TypedDict):
    id: str
    placementId: str
    html: str
    isControl: bool
    isTestSend: bool
    properties: Dict[str, Property]


class Banner(_BannerKeys, total=False):
    """The banner that fills a placement for the current user.
    """

    expiresAt: float
    trackingId: str


class PropertyString(TypedDict):
    """A string.
    """

    type: Any
    value: str


class PropertyNumber(TypedDict):
    """A number.
    """

    type: Any
    value: float


class PropertyBoolean(TypedDict):
    """A boolean.
    """

    type: Any
    value: bool


class PropertyImage(TypedDict):
    """An image, as the string URL of the image.
    """

    type: Any
    value: str


class PropertyJsonobject(TypedDict):
    """A JSON object.
    """

    type: Any
    value: Dict[str, Any]


class PropertyDatetime(TypedDict):
    """A moment, as a number of Unix seconds.
    """

    type: Any
    value: float


class _FeatureFlagsSnapshotKeys(TypedDict):
    featureFlags: List[FeatureFlag]
    lastSyncAt: LastSyncAt


class FeatureFlagsSnapshot(_FeatureFlagsSnapshotKeys, total=False):
    """`FeatureFlagsSnapshot`.
    """

    notSynced: str
    explain: List[Dict[str, Any]]


class _FeatureFlagKeys(TypedDict):
    id: str
    enabled: bool
    properties: Dict[str, Property]


class FeatureFlag(_FeatureFlagKeys, total=False):
    """A feature flag as evaluated for the current user; `metadata` (flagd's, the flag's over the flag
    set's) when there is any.
    """

    trackingString: str
    metadata: Dict[str, Union[str, float, bool]]


class TrackResult(TypedDict):
    """The id of the stored event: the same in its `CUSTOM` notifications and at the sink.
    """

    eventId: str


class FlushResult(TypedDict):
    """`FlushResult`.
    """

    flushed: int
    pending: int


class EvaluateResult(TypedDict):
    """`EvaluateResult`.
    """

    result: Any


class _EvaluateFlagResultKeys(TypedDict):
    value: Any
    variant: Optional[str]
    reason: str


class EvaluateFlagResult(_EvaluateFlagResultKeys, total=False):
    """The flag as flagd resolves it: value, variant and reason, `metadata` when the flag or flag set
    has any, and `errorCode` with `errorMessage` for an error (then `reason` is `ERROR` and `value`
    and `variant` are null). Asked with `type`, a value of another type is `TYPE_MISMATCH`.
    """

    errorCode: str
    errorMessage: str
    metadata: Dict[str, Union[str, float, bool]]
    explain: FlagExplanation


class _FlagExplanationKeys(TypedDict):
    why: str


class FlagExplanation(_FlagExplanationKeys, total=False):
    """Why a flag resolves as it does: `why` in words; `rule`, the JSON pointer of the targeting that
    decided (a flagd flag's `/flags/<key>/targeting`) or the GrowthBook rule's id; `listed`, whether
    the `featureFlags` channel lists it; `source` for a GrowthBook feature.
    """

    rule: str
    listed: bool
    source: str


class _EvaluateFlagsResultKeys(TypedDict):
    flags: Dict[str, EvaluateFlagResult]


class EvaluateFlagsResult(_EvaluateFlagsResultKeys, total=False):
    """Many flags resolved for one context: `flags` maps each flag key to its resolution (as
    `evaluateFlag` answers it); `metadata` is the flag set's, when it has any.
    """

    metadata: Dict[str, Union[str, float, bool]]


class _FeatureResultKeys(TypedDict):
    value: Any
    on: bool
    off: bool
    source: Literal["defaultValue", "force", "experiment", "unknownFeature", "prerequisite", "cyclicPrerequisite", "override"]
    ruleId: str


class FeatureResult(_FeatureResultKeys, total=False):
    """A GrowthBook feature's value for one context and why, as GrowthBook's SDKs and its cross-SDK
    test suite (`cases.json`) write it: `value`, `on` (JavaScript truthiness), `off`, `source`
    (`defaultValue`, `force`, `experiment`, `unknownFeature`, `prerequisite`, `cyclicPrerequisite`,
    `override`), `ruleId` ("" when none), and `experiment` and `experimentResult` when the source is
    `experiment`.
    """

    experiment: Dict[str, Any]
    experimentResult: Dict[str, Any]
    explain: FlagExplanation


class EvaluateFeaturesResult(TypedDict):
    """`EvaluateFeaturesResult`.
    """

    features: Dict[str, FeatureResult]


class EvaluateConditionResult(TypedDict):
    """`EvaluateConditionResult`.
    """

    result: bool


class RenderTemplateResult(TypedDict):
    """`RenderTemplateResult`.
    """

    text: str


class _ClockResultKeys(TypedDict):
    time: float
    date: str


class ClockResult(_ClockResultKeys, total=False):
    """The manual clock after the change: `time` in Unix seconds and `date` in RFC 3339 (UTC).
    `advanceClock` adds `steps`, the timer deadlines it stepped through, and `coalesced`, true when
    it stepped through the most one advance takes (100,000) and let the rest of the span pass at
    once.
    """

    steps: int
    coalesced: bool


class FaultsResult(TypedDict):
    """Every failure still armed, each target's in the order they will be given.
    """

    faults: List[ArmedFault]

#: When a refresh of this channel last finished for the current user, in Unix seconds: 0 before the
#: first successful sync for this user (reading the definitions at start-up is not a sync), null
#: while the channel is disabled.
LastSyncAt = Optional[float]

#: The answer an injected failure gives, read as the failure model reads the same answer from an
#: HTTP server (README, "When a server is down or refuses"): an HTTP answer (`status`, optional
#: `headers` such as `Retry-After`, optional `body`: a string, or any other JSON value written as
#: its text), or `timeout` (the request ran out of time: SERVER_ERROR, retried), `disconnect` (the
#: connection dropped: SERVER_ERROR, retried) or `invalidData` (an answer that cannot be used:
#: INVALID_SERVER_DATA, not retried).
FaultResponse = Union[Literal["timeout", "disconnect", "invalidData"], FaultResponseObject]

#: `{subscriptionId}`, or null while the SDK is disabled (no subscription is made then).
SubscribeResult = Optional[SubscribeResultObject]

#: One channel's cached data for the current user, keyed by the channel's name, with `lastSyncAt`.
#: While the channel is disabled the data is empty and `lastSyncAt` is null.
CacheSnapshot = Union[ContentCardsSnapshot, BannersSnapshot, FeatureFlagsSnapshot]

#: A typed value attached to a feature flag or banner: `{type, value}`; the value's JSON type
#: follows `type`.
Property = Union[
    PropertyString,
    PropertyNumber,
    PropertyBoolean,
    PropertyImage,
    PropertyJsonobject,
    PropertyDatetime,
]


__all__ = [
    "ArmedFault",
    "Banner",
    "BannersSnapshot",
    "CacheSnapshot",
    "Channel",
    "ChannelStatus",
    "ClockResult",
    "ContentCard",
    "ContentCardsData",
    "ContentCardsSnapshot",
    "DefinitionsProblem",
    "DefinitionsStatus",
    "EvaluateConditionResult",
    "EvaluateFeaturesResult",
    "EvaluateFlagResult",
    "EvaluateFlagsResult",
    "EvaluateResult",
    "FaultResponse",
    "FaultResponseObject",
    "FaultTarget",
    "FaultsResult",
    "FeatureFlag",
    "FeatureFlagsSnapshot",
    "FeatureResult",
    "FlagExplanation",
    "FlushResult",
    "LastSyncAt",
    "OpenRPCDocument",
    "Property",
    "PropertyBoolean",
    "PropertyDatetime",
    "PropertyImage",
    "PropertyJsonobject",
    "PropertyNumber",
    "PropertyString",
    "RemoveSubscriptionResult",
    "RenderTemplateResult",
    "StatusResult",
    "StatusResultChannels",
    "StatusResultClock",
    "StreamStatus",
    "SubscribeResult",
    "SubscribeResultObject",
    "TrackResult",
    "UnrenderedItem",
]
