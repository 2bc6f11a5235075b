"""OpenFeature providers backed by Bunting (needs `openfeature-sdk`).

    from openfeature import api
    from bunting import Bunting
    from bunting.openfeature import BuntingProvider

    api.set_provider_and_wait(BuntingProvider(Bunting.spawn(definitions="flags.json")))
    enabled = api.get_client().get_boolean_value("dark-mode", False)

Two paradigms. `paradigm="dynamic"` (the default; OpenFeature's server-side
paradigm, a context per call) resolves each flag with Bunting's `evaluateFlag`,
given the flag type so that a flag of another type is TYPE_MISMATCH.
`paradigm="static"` (the client-side paradigm: one user at a time) holds every
flag's resolution for the current evaluation context, from one `evaluateFlags`
round trip whenever the context changes, and keeps them current on the
definitions' CHANGED and the feature-flags channel's refreshes: a read is a
dictionary look-up. Either way the evaluation context becomes
`{"targetingKey": ..., **attributes}`. Provider events come from
`subscribeToDefinitions`: READY → PROVIDER_READY, CHANGED →
PROVIDER_CONFIGURATION_CHANGED (with flags_changed), ERROR with `stale` →
PROVIDER_STALE, ERROR without → PROVIDER_ERROR; a server that exits (say, because
its definitions file cannot be used at start-up) makes the provider FATAL. `track`
goes to Bunting's `track` with the context's targeting key as the event's user.

`AsyncBuntingProvider` is the same over an `AsyncBunting`, for asyncio programs:
its `resolve_*_async` await the client and never block the event loop.
Importing `bunting` does not import this module, so the client itself needs
nothing outside the standard library.
"""

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar, Union

from openfeature.evaluation_context import EvaluationContext
from openfeature.exception import GeneralError, InvalidContextError, OpenFeatureError, ProviderFatalError
from openfeature.flag_evaluation import FlagResolutionDetails
from openfeature.provider import AbstractProvider, Metadata
from openfeature.track import TrackingEventDetails

from . import errors
from ._methods import FlagType
from ._openfeature_common import (Convert, HeldFlags, boolean, check_paradigm, context_of, emit_definitions_event,
                                  error_message, floating, integer, jsonable, refreshes_flags, resolution, string,
                                  structure, tracking_params)
from .client import Bunting, Subscription
from .events import ChannelEvent, DefinitionsEvent

if TYPE_CHECKING:
    from ._openfeature_async import AsyncBuntingProvider

__all__ = ["AsyncBuntingProvider", "BuntingProvider", "context_of", "resolution"]

log = logging.getLogger("bunting.openfeature")

T = TypeVar("T")


def __getattr__(name: str) -> Any:
    # The asyncio provider is imported when first asked for, as bunting.AsyncBunting is.
    if name == "AsyncBuntingProvider":
        from ._openfeature_async import AsyncBuntingProvider
        return AsyncBuntingProvider
    raise AttributeError("module 'bunting.openfeature' has no attribute %r" % name)


class BuntingProvider(AbstractProvider):
    """OpenFeature provider over a Bunting client.

    Args:
        client: a Bunting client to use (it stays open at shutdown); without one, the
            provider spawns its own at initialize() with `spawn_options` and closes it
            at shutdown().
        paradigm: "dynamic" (default): each resolution is an `evaluateFlag` call, for
            servers that evaluate for a different user on every request. "static": every
            flag is resolved at once for the evaluation context and held until the
            context changes, for programs that serve one user at a time.
        ready_timeout: seconds initialize() waits for the definitions' first READY or ERROR.
        **spawn_options: arguments of Bunting.spawn when the provider spawns the client.
    """

    def __init__(self, client: Optional[Bunting] = None, *, paradigm: str = "dynamic", ready_timeout: float = 30.0,
                 **spawn_options: Any):
        super().__init__()
        if client is not None and spawn_options:
            raise TypeError("give either a client or the options to spawn one, not both")
        self._static = check_paradigm(paradigm)
        self.paradigm = paradigm
        self._client = client
        self._owns_client = client is None
        self._spawn_options = spawn_options
        self.ready_timeout = ready_timeout
        self._subscription: Optional[Subscription[DefinitionsEvent]] = None
        self._flags_subscription: Optional[Subscription[ChannelEvent]] = None
        self._lock = threading.Lock()
        self._settled = threading.Event()
        self._first: Optional[DefinitionsEvent] = None  # the definitions event that settled initialize()
        # The static paradigm: the flags of the context last asked for; replaced whole, never changed.
        self._held: Optional[HeldFlags] = None
        self._holding = threading.Lock()  # one evaluateFlags at a time, so that the newest reply is kept
        self._changed = False  # a CHANGED re-resolved the flags: the refresh that follows it needs not

    @property
    def client(self) -> Bunting:
        if self._client is None:
            raise GeneralError("the provider is not initialized")
        return self._client

    def get_metadata(self) -> Metadata:
        return Metadata(name="bunting")

    # Life cycle -------------------------------------------------------------

    def initialize(self, evaluation_context: EvaluationContext) -> None:
        if self._client is None:
            try:
                self._client = Bunting.spawn(**self._spawn_options)
            except errors.BinaryNotFound as error:
                raise ProviderFatalError(str(error)) from error
        self._settled.clear()
        self._first = None
        try:
            subscription = self._client.subscribe_to_definitions(self._on_definitions)
            if self._static:
                # Refreshes of the flags (a session start, a manual refresh) re-resolve them:
                # rules that read $flagd.timestamp may answer otherwise since.
                self._flags_subscription = self._client.subscribe("featureFlags", self._on_flags)
        except (errors.ServerExited, errors.ClientClosed, errors.ProtocolError) as error:
            # No server to come back: not an error that a later READY could clear.
            raise ProviderFatalError("Bunting is not running: %s" % error) from error
        except errors.BuntingError as error:
            raise GeneralError("subscribeToDefinitions failed: %s" % error) from error
        if subscription is None:
            raise GeneralError("Bunting's SDK is disabled (subscribeToDefinitions answered null)")
        self._subscription = subscription
        deadline = time.monotonic() + self.ready_timeout
        while not self._settled.wait(min(0.5, max(0.0, deadline - time.monotonic()))):
            # Look up now and then whether the server is still there to send the event.
            if not self._client.alive:
                raise ProviderFatalError("Bunting stopped before its definitions loaded: %s"
                                         % "; ".join(self._client.stderr_tail()[-3:]))
            if time.monotonic() >= deadline:
                raise GeneralError("Bunting loaded no definitions within %g s" % self.ready_timeout)
        first = self._first
        if first is not None and first["type"] == "ERROR" and not first.get("stale"):
            # The SDK turns this into PROVIDER_ERROR; a later READY makes the provider ready.
            raise GeneralError(error_message(first))
        if self._static:
            self._hold(evaluation_context)

    def shutdown(self) -> None:
        subscriptions = (self._subscription, self._flags_subscription)
        self._subscription = self._flags_subscription = None
        self._held = None
        client = self._client
        if client is None:
            return
        for subscription in subscriptions:
            if subscription is not None and client.alive:
                try:
                    subscription.remove()
                except errors.BuntingError as error:
                    log.debug("removing a subscription failed: %s", error)
        if self._owns_client:
            client.close()
            self._client = None

    def _on_definitions(self, event: DefinitionsEvent) -> None:
        """Runs on the client's callback thread, in the order the server sent the events."""
        with self._lock:
            if not self._settled.is_set():
                # The first READY or ERROR settles initialize(); the SDK emits its outcome.
                self._first = event
                self._settled.set()
                return
        if event.get("type") == "CHANGED" and self._static:
            # Before the event: a handler that reads a flag reads the new document's answer.
            self._changed = True
            self._refresh()
        emit_definitions_event(self, event)

    def _on_flags(self, event: ChannelEvent) -> None:
        if not refreshes_flags(event):
            return
        if self._changed:
            self._changed = False  # the refresh a new document causes: its CHANGED re-resolved already
            return
        self._refresh()

    # Resolution -------------------------------------------------------------

    def resolve_boolean_details(self, flag_key: str, default_value: bool,
                                evaluation_context: Optional[EvaluationContext] = None
                                ) -> FlagResolutionDetails[bool]:
        return self._resolve(flag_key, default_value, evaluation_context, "boolean", boolean)

    def resolve_string_details(self, flag_key: str, default_value: str,
                               evaluation_context: Optional[EvaluationContext] = None
                               ) -> FlagResolutionDetails[str]:
        return self._resolve(flag_key, default_value, evaluation_context, "string", string)

    def resolve_integer_details(self, flag_key: str, default_value: int,
                                evaluation_context: Optional[EvaluationContext] = None
                                ) -> FlagResolutionDetails[int]:
        return self._resolve(flag_key, default_value, evaluation_context, "integer", integer)

    def resolve_float_details(self, flag_key: str, default_value: float,
                              evaluation_context: Optional[EvaluationContext] = None
                              ) -> FlagResolutionDetails[float]:
        return self._resolve(flag_key, default_value, evaluation_context, "float", floating)

    def resolve_object_details(self, flag_key: str, default_value: Union[Sequence[Any], Mapping[str, Any]],
                               evaluation_context: Optional[EvaluationContext] = None
                               ) -> FlagResolutionDetails[Union[Sequence[Any], Mapping[str, Any]]]:
        return self._resolve(flag_key, default_value, evaluation_context, "object", structure)

    # The SDK's own async resolutions call the blocking ones on the event loop. A static
    # read that finds its context held answers at once; anything that waits for the
    # server runs on the loop's default executor instead. AsyncBuntingProvider awaits
    # an AsyncBunting instead, without a thread.

    async def resolve_boolean_details_async(self, flag_key: str, default_value: bool,
                                            evaluation_context: Optional[EvaluationContext] = None
                                            ) -> FlagResolutionDetails[bool]:
        return await self._resolve_async(flag_key, default_value, evaluation_context, "boolean", boolean)

    async def resolve_string_details_async(self, flag_key: str, default_value: str,
                                           evaluation_context: Optional[EvaluationContext] = None
                                           ) -> FlagResolutionDetails[str]:
        return await self._resolve_async(flag_key, default_value, evaluation_context, "string", string)

    async def resolve_integer_details_async(self, flag_key: str, default_value: int,
                                            evaluation_context: Optional[EvaluationContext] = None
                                            ) -> FlagResolutionDetails[int]:
        return await self._resolve_async(flag_key, default_value, evaluation_context, "integer", integer)

    async def resolve_float_details_async(self, flag_key: str, default_value: float,
                                          evaluation_context: Optional[EvaluationContext] = None
                                          ) -> FlagResolutionDetails[float]:
        return await self._resolve_async(flag_key, default_value, evaluation_context, "float", floating)

    async def resolve_object_details_async(self, flag_key: str,
                                           default_value: Union[Sequence[Any], Mapping[str, Any]],
                                           evaluation_context: Optional[EvaluationContext] = None
                                           ) -> FlagResolutionDetails[Union[Sequence[Any], Mapping[str, Any]]]:
        return await self._resolve_async(flag_key, default_value, evaluation_context, "object", structure)

    async def _resolve_async(self, flag_key: str, default_value: Any, evaluation_context: Optional[EvaluationContext],
                             flag_type: FlagType, convert: Convert) -> FlagResolutionDetails[Any]:
        held = self._held
        if self._static and held is not None and held.holds(evaluation_context):
            return held.resolve(flag_key, default_value, flag_type, convert)
        import asyncio
        return await asyncio.get_running_loop().run_in_executor(
            None, self._resolve, flag_key, default_value, evaluation_context, flag_type, convert)

    def _resolve(self, flag_key: str, default_value: Any, evaluation_context: Optional[EvaluationContext],
                 flag_type: FlagType, convert: Convert) -> FlagResolutionDetails[Any]:
        if self._static:
            held = self._held
            if held is None or not held.holds(evaluation_context):
                held = self._hold(evaluation_context)
            return held.resolve(flag_key, default_value, flag_type, convert)
        try:
            result = self.client.evaluate_flag(flag_key, context_of(evaluation_context), type=flag_type)
        except Exception as error:  # the hot path: no wrapper around the call
            mapped = _openfeature_error("evaluateFlag", error)
            if mapped is error:
                raise
            raise mapped from error
        return resolution(result, default_value, flag_type, convert)

    def _hold(self, evaluation_context: Optional[EvaluationContext]) -> HeldFlags:
        """The flags of a new context: one evaluateFlags round trip, kept from now on."""
        with self._holding:
            held = self._held
            if held is not None and held.holds(evaluation_context):
                return held  # another thread asked for the same context meanwhile
            key = HeldFlags.key_of(evaluation_context)
            context = _flagd_context(key)
            reply = _calling("evaluateFlags", lambda: self.client.evaluate_flags(context))
            held = self._held = _held(key, reply)
            return held

    def _refresh(self) -> None:
        """Resolves the held context's flags again (on the callback thread)."""
        with self._holding:
            held = self._held
            if held is None or self._client is None:
                return
            try:
                self._held = HeldFlags(held.context, self._client.evaluate_flags(context_of(held.context)))
            except (errors.BuntingError, TypeError) as error:
                log.warning("resolving the flags again failed: %s", error)

    # Tracking ---------------------------------------------------------------

    def track(self, tracking_event_name: str, evaluation_context: Optional[EvaluationContext] = None,
              tracking_event_details: Optional[TrackingEventDetails] = None) -> None:
        """Sends the event to Bunting's `track` for the context's targeting key (with its
        attributes), or for the server's current user when the context has none. Failures
        are logged."""
        value = details = None
        if tracking_event_details is not None:
            value = tracking_event_details.value
            if tracking_event_details.attributes:
                details = jsonable(dict(tracking_event_details.attributes))
        try:
            self.client.track(tracking_event_name, value=value, details=details, **tracking_params(evaluation_context))
        except (errors.BuntingError, OpenFeatureError, TypeError, ValueError) as error:
            log.warning("tracking %r failed: %s", tracking_event_name, error)


def _flagd_context(evaluation_context: Optional[EvaluationContext]) -> Any:
    try:
        return context_of(evaluation_context)
    except (TypeError, ValueError) as error:
        raise InvalidContextError("the evaluation context is not JSON: %s" % error) from error


def _calling(method: str, call: Callable[[], T]) -> T:
    """The call's result; its failures as OpenFeature errors."""
    try:
        return call()
    except Exception as error:
        mapped = _openfeature_error(method, error)
        if mapped is error:
            raise
        raise mapped from error


def _openfeature_error(method: str, error: Exception) -> Exception:
    """What a failed call is to OpenFeature; other exceptions stay as they are."""
    if isinstance(error, (TypeError, ValueError)):  # the context does not encode as JSON
        return InvalidContextError("the evaluation context is not JSON: %s" % error)
    if isinstance(error, errors.InvalidParams):
        if (error.field or "").startswith("context"):
            return InvalidContextError(str(error))
        return GeneralError(str(error))
    if isinstance(error, errors.BuntingError):
        return GeneralError("%s failed: %s" % (method, error))
    return error


def _held(context: EvaluationContext, reply: Any) -> HeldFlags:
    try:
        return HeldFlags(context, reply)
    except TypeError as error:
        raise GeneralError(str(error)) from error
