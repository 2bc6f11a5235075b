"""`AsyncBuntingProvider`: the OpenFeature provider over an `AsyncBunting`, for asyncio
programs. Its `resolve_*_async` await the client on the event loop, so a resolution
never blocks the loop and needs no thread; the blocking `resolve_*` work from other
threads (and, in the static paradigm, from the loop too while the context is held).

    client = await AsyncBunting.spawn(definitions="flags.json")
    provider = AsyncBuntingProvider(client, paradigm="dynamic")
    await provider.initialize_async()
    api.set_provider_and_wait(provider)
    enabled = await api.get_client().get_boolean_value_async("dark-mode", False, context)

The OpenFeature SDK calls `initialize` without awaiting it: on its own thread for
`api.set_provider` (this provider then waits for the loop), or on the caller's for
`api.set_provider_and_wait`, which from a coroutine needs `await
provider.initialize_async()` first.
"""

import asyncio
import logging
from collections.abc import Mapping, Sequence
from typing import Any, Awaitable, Callable, Optional, TypeVar, Union

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
from .aio import AsyncBunting, AsyncSubscription
from .events import ChannelEvent, DefinitionsEvent

log = logging.getLogger("bunting.openfeature")

T = TypeVar("T")


class AsyncBuntingProvider(AbstractProvider):
    """OpenFeature provider over an AsyncBunting client (it stays open at shutdown).

    Args:
        client: the AsyncBunting to resolve with; its event loop is the provider's.
        paradigm: "dynamic" (default) or "static", as for BuntingProvider.
        ready_timeout: seconds initialization waits for the definitions' first READY or ERROR.
    """

    def __init__(self, client: AsyncBunting, *, paradigm: str = "dynamic", ready_timeout: float = 30.0):
        super().__init__()
        self._static = check_paradigm(paradigm)
        self.paradigm = paradigm
        self.client = client
        self.ready_timeout = ready_timeout
        self._loop = client._loop
        self._subscriptions: "list[AsyncSubscription[Any]]" = []
        self._settled: Optional["asyncio.Future[DefinitionsEvent]"] = None
        self._ready = False
        self._held: Optional[HeldFlags] = None
        self._holding: Optional[asyncio.Lock] = None  # made on the loop
        self._changed = False
        self._tasks: "set[asyncio.Task[Any]]" = set()  # fire-and-forget work, kept until done

    def get_metadata(self) -> Metadata:
        return Metadata(name="bunting")

    # Life cycle -------------------------------------------------------------

    async def initialize_async(self, evaluation_context: Optional[EvaluationContext] = None) -> None:
        """Subscribes to the definitions and waits for their first READY (an ERROR with
        nothing loaded raises); in the static paradigm, resolves the context's flags."""
        if self._ready:
            return
        self._holding = asyncio.Lock()
        self._settled = self._loop.create_future()
        try:
            subscription = await self.client.subscribe_to_definitions(self._on_definitions)
            if subscription is None:
                raise GeneralError("Bunting's SDK is disabled (subscribeToDefinitions answered null)")
            self._subscriptions.append(subscription)
            if self._static:
                flags = await self.client.subscribe("featureFlags", self._on_flags)
                if flags is not None:
                    self._subscriptions.append(flags)
            first = await asyncio.wait_for(asyncio.shield(self._settled), self.ready_timeout)
        except (errors.ServerExited, errors.ClientClosed, errors.ProtocolError) as error:
            raise ProviderFatalError("Bunting is not running: %s" % error) from error
        except asyncio.TimeoutError:
            raise GeneralError("Bunting loaded no definitions within %g s" % self.ready_timeout) from None
        except errors.BuntingError as error:
            raise GeneralError("subscribeToDefinitions failed: %s" % error) from error
        if first["type"] == "ERROR" and not first.get("stale"):
            raise GeneralError(error_message(first))
        if self._static:
            await self._hold(evaluation_context)
        self._ready = True

    def initialize(self, evaluation_context: EvaluationContext) -> None:
        if self._ready:
            return
        self._on_another_thread(lambda: self.initialize_async(evaluation_context), "initialize",
                                "await provider.initialize_async() before api.set_provider_and_wait(provider), "
                                "or use api.set_provider(provider), which initializes on a thread of its own")

    def shutdown(self) -> None:
        subscriptions, self._subscriptions = self._subscriptions, []
        self._held = None
        self._ready = False

        async def remove() -> None:
            for subscription in subscriptions:
                if self.client.alive:
                    try:
                        await subscription.remove()
                    except errors.BuntingError as error:
                        log.debug("removing a subscription failed: %s", error)

        self._run_soon(remove)

    async def _on_definitions(self, event: DefinitionsEvent) -> None:
        """Runs on the client's callback task, in the order the server sent the events."""
        if self._settled is not None and not self._settled.done():
            self._settled.set_result(event)
            return
        if event.get("type") == "CHANGED" and self._static:
            self._changed = True
            await self._refresh()
        emit_definitions_event(self, event)

    async def _on_flags(self, event: ChannelEvent) -> None:
        if not refreshes_flags(event):
            return
        if self._changed:
            self._changed = False
            return
        await self._refresh()

    # Resolution -------------------------------------------------------------

    async def resolve_boolean_details_async(self, flag_key: str, default_value: bool,
                                            evaluation_context: Optional[EvaluationContext] = None
                                            ) -> FlagResolutionDetails[bool]:
        return await self._resolve(flag_key, default_value, evaluation_context, "boolean", boolean)

    async def resolve_string_details_async(self, flag_key: str, default_value: str,
                                           evaluation_context: Optional[EvaluationContext] = None
                                           ) -> FlagResolutionDetails[str]:
        return await self._resolve(flag_key, default_value, evaluation_context, "string", string)

    async def resolve_integer_details_async(self, flag_key: str, default_value: int,
                                            evaluation_context: Optional[EvaluationContext] = None
                                            ) -> FlagResolutionDetails[int]:
        return await self._resolve(flag_key, default_value, evaluation_context, "integer", integer)

    async def resolve_float_details_async(self, flag_key: str, default_value: float,
                                          evaluation_context: Optional[EvaluationContext] = None
                                          ) -> FlagResolutionDetails[float]:
        return await self._resolve(flag_key, default_value, evaluation_context, "float", floating)

    async def resolve_object_details_async(self, flag_key: str,
                                           default_value: Union[Sequence[Any], Mapping[str, Any]],
                                           evaluation_context: Optional[EvaluationContext] = None
                                           ) -> FlagResolutionDetails[Union[Sequence[Any], Mapping[str, Any]]]:
        return await self._resolve(flag_key, default_value, evaluation_context, "object", structure)

    def resolve_boolean_details(self, flag_key: str, default_value: bool,
                                evaluation_context: Optional[EvaluationContext] = None
                                ) -> FlagResolutionDetails[bool]:
        return self._resolve_blocking(flag_key, default_value, evaluation_context, "boolean", boolean)

    def resolve_string_details(self, flag_key: str, default_value: str,
                               evaluation_context: Optional[EvaluationContext] = None
                               ) -> FlagResolutionDetails[str]:
        return self._resolve_blocking(flag_key, default_value, evaluation_context, "string", string)

    def resolve_integer_details(self, flag_key: str, default_value: int,
                                evaluation_context: Optional[EvaluationContext] = None
                                ) -> FlagResolutionDetails[int]:
        return self._resolve_blocking(flag_key, default_value, evaluation_context, "integer", integer)

    def resolve_float_details(self, flag_key: str, default_value: float,
                              evaluation_context: Optional[EvaluationContext] = None
                              ) -> FlagResolutionDetails[float]:
        return self._resolve_blocking(flag_key, default_value, evaluation_context, "float", floating)

    def resolve_object_details(self, flag_key: str, default_value: Union[Sequence[Any], Mapping[str, Any]],
                               evaluation_context: Optional[EvaluationContext] = None
                               ) -> FlagResolutionDetails[Union[Sequence[Any], Mapping[str, Any]]]:
        return self._resolve_blocking(flag_key, default_value, evaluation_context, "object", structure)

    async def _resolve(self, flag_key: str, default_value: Any, evaluation_context: Optional[EvaluationContext],
                       flag_type: FlagType, convert: Convert) -> FlagResolutionDetails[Any]:
        if self._static:
            held = self._held
            if held is None or not held.holds(evaluation_context):
                held = await self._hold(evaluation_context)
            return held.resolve(flag_key, default_value, flag_type, convert)
        context = _flagd_context(evaluation_context)
        result = await _calling("evaluateFlag", lambda: self.client.evaluate_flag(flag_key, context, type=flag_type))
        return resolution(result, default_value, flag_type, convert)

    def _resolve_blocking(self, flag_key: str, default_value: Any, evaluation_context: Optional[EvaluationContext],
                          flag_type: FlagType, convert: Convert) -> FlagResolutionDetails[Any]:
        held = self._held
        if self._static and held is not None and held.holds(evaluation_context):
            return held.resolve(flag_key, default_value, flag_type, convert)
        return self._on_another_thread(
            lambda: self._resolve(flag_key, default_value, evaluation_context, flag_type, convert), "resolve",
            "use the OpenFeature client's get_*_async methods on the event loop")

    async def _hold(self, evaluation_context: Optional[EvaluationContext]) -> HeldFlags:
        assert self._holding is not None, "initialize_async() makes the lock"
        async with self._holding:
            held = self._held
            if held is not None and held.holds(evaluation_context):
                return held
            key = HeldFlags.key_of(evaluation_context)
            context = _flagd_context(key)
            reply = await _calling("evaluateFlags", lambda: self.client.evaluate_flags(context))
            try:
                held = self._held = HeldFlags(key, reply)
            except TypeError as error:
                raise GeneralError(str(error)) from error
            return held

    async def _refresh(self) -> None:
        if self._holding is None:
            return
        async with self._holding:
            held = self._held
            if held is None:
                return
            try:
                self._held = HeldFlags(held.context, await self.client.evaluate_flags(context_of(held.context)))
            except (errors.BuntingError, TypeError) as error:
                log.warning("resolving the flags again failed: %s", error)

    # Tracking ---------------------------------------------------------------

    def track(self, tracking_event_name: str, evaluation_context: Optional[EvaluationContext] = None,
              tracking_event_details: Optional[TrackingEventDetails] = None) -> None:
        """Sends the event to Bunting's `track` for the context's targeting key (its
        attributes with it) without waiting for the reply; failures are logged."""
        value = details = None
        if tracking_event_details is not None:
            value = tracking_event_details.value
            if tracking_event_details.attributes:
                details = jsonable(dict(tracking_event_details.attributes))
        params = tracking_params(evaluation_context)

        async def send() -> None:
            try:
                await self.client.track(tracking_event_name, value=value, details=details, **params)
            except (errors.BuntingError, OpenFeatureError, TypeError, ValueError) as error:
                log.warning("tracking %r failed: %s", tracking_event_name, error)

        self._run_soon(send)

    # The loop ---------------------------------------------------------------

    def _on_loop_thread(self) -> bool:
        try:
            return asyncio.get_running_loop() is self._loop
        except RuntimeError:
            return False

    def _on_another_thread(self, work: Callable[[], Awaitable[T]], what: str, instead: str) -> T:
        """Runs `work` on the client's loop and waits for it, from a thread other than the loop's."""
        if self._on_loop_thread():
            raise GeneralError("%s cannot wait on the event loop it would block: %s" % (what, instead))
        if self._loop.is_closed():
            raise ProviderFatalError("the client's event loop is closed")
        future = asyncio.run_coroutine_threadsafe(_awaited(work), self._loop)
        return future.result()

    def _run_soon(self, work: Callable[[], Awaitable[None]]) -> None:
        """Starts `work` on the client's loop without waiting for it."""
        if self._loop.is_closed():
            return
        if self._on_loop_thread():
            task = self._loop.create_task(_awaited(work))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            asyncio.run_coroutine_threadsafe(_awaited(work), self._loop)


async def _awaited(work: Callable[[], Awaitable[T]]) -> T:
    return await work()


def _flagd_context(evaluation_context: Optional[EvaluationContext]) -> Any:
    try:
        return context_of(evaluation_context)
    except (TypeError, ValueError) as error:
        raise InvalidContextError("the evaluation context is not JSON: %s" % error) from error


async def _calling(method: str, call: Callable[[], Awaitable[T]]) -> T:
    """The call's result; its failures as OpenFeature errors."""
    try:
        return await call()
    except (TypeError, ValueError) as error:
        raise InvalidContextError("the evaluation context is not JSON: %s" % error) from error
    except errors.InvalidParams as error:
        if (error.field or "").startswith("context"):
            raise InvalidContextError(str(error)) from error
        raise GeneralError(str(error)) from error
    except errors.BuntingError as error:
        raise GeneralError("%s failed: %s" % (method, error)) from error


__all__ = ["AsyncBuntingProvider"]
