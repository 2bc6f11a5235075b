"""An OpenFeature provider backed by Bunting (needs `openfeature-sdk`).

    from openfeature import api
    from bunting import Bunting
    from bunting.openfeature import BuntingProvider

    api.set_provider_and_wait(BuntingProvider(Bunting.spawn(definitions="flags.json")))
    enabled = api.get_client().get_boolean_value("dark-mode", False)

Flags resolve with Bunting's `evaluateFlag` (given the flag type, so that a flag
of another type is TYPE_MISMATCH); the evaluation context becomes
`{"targetingKey": ..., **attributes}`. Provider events come from
`subscribeToDefinitions`: READY → PROVIDER_READY, CHANGED →
PROVIDER_CONFIGURATION_CHANGED (with flags_changed), ERROR with `stale` →
PROVIDER_STALE, ERROR without → PROVIDER_ERROR; a server that exits (say, because
its definitions file cannot be used at start-up) makes the provider FATAL. `track`
goes to Bunting's `track` method. Importing `bunting` does not import this module, so the client
itself needs nothing outside the standard library.
"""

import datetime
import logging
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Dict, List, Optional, Union

from openfeature.evaluation_context import EvaluationContext
from openfeature.event import ProviderEventDetails
from openfeature.exception import (ErrorCode, GeneralError, InvalidContextError, OpenFeatureError,
                                   ProviderFatalError)
from openfeature.flag_evaluation import FlagResolutionDetails, Reason
from openfeature.provider import AbstractProvider, Metadata
from openfeature.track import TrackingEventDetails

from . import errors
from ._methods import FlagType
from .client import Bunting, Subscription
from .events import DefinitionsEvent

log = logging.getLogger("bunting.openfeature")

_REASONS = {reason.value: reason for reason in Reason}
_ERROR_CODES = {code.value: code for code in ErrorCode}


class BuntingProvider(AbstractProvider):
    """OpenFeature provider over a Bunting client.

    Args:
        client: a Bunting client to use (it stays open at shutdown); without one, the
            provider spawns its own at initialize() with `spawn_options` and closes it
            at shutdown().
        ready_timeout: seconds initialize() waits for the definitions' first READY or ERROR.
        **spawn_options: arguments of Bunting.spawn when the provider spawns the client.
    """

    def __init__(self, client: Optional[Bunting] = None, *, ready_timeout: float = 30.0, **spawn_options: Any):
        super().__init__()
        if client is not None and spawn_options:
            raise TypeError("give either a client or the options to spawn one, not both")
        self._client = client
        self._owns_client = client is None
        self._spawn_options = spawn_options
        self.ready_timeout = ready_timeout
        self._subscription: Optional[Subscription[DefinitionsEvent]] = None
        self._lock = threading.Lock()
        self._settled = threading.Event()
        self._first: Optional[DefinitionsEvent] = None  # the definitions event that settled initialize()

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
            raise GeneralError(_error_message(first))

    def shutdown(self) -> None:
        subscription, self._subscription = self._subscription, None
        client = self._client
        if client is None:
            return
        if subscription is not None and client.alive:
            try:
                subscription.remove()
            except errors.BuntingError as error:
                log.debug("removing the definitions subscription failed: %s", error)
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
        kind = event.get("type")
        if kind == "READY":
            self.emit_provider_ready(ProviderEventDetails(metadata=_event_metadata(event)))
        elif kind == "CHANGED":
            self.emit_provider_configuration_changed(ProviderEventDetails(
                flags_changed=list(event.get("flagsChanged") or []), metadata=_event_metadata(event)))
        elif kind == "ERROR":
            details = ProviderEventDetails(message=_error_message(event), error_code=ErrorCode.GENERAL,
                                           metadata=_event_metadata(event))
            if event.get("stale"):
                self.emit_provider_stale(details)
            else:
                self.emit_provider_error(details)
        else:
            log.debug("ignoring a definitions event of type %r", kind)

    # Resolution -------------------------------------------------------------

    def resolve_boolean_details(self, flag_key: str, default_value: bool,
                                evaluation_context: Optional[EvaluationContext] = None
                                ) -> FlagResolutionDetails[bool]:
        return self._resolve(flag_key, default_value, evaluation_context, "boolean", _boolean)

    def resolve_string_details(self, flag_key: str, default_value: str,
                               evaluation_context: Optional[EvaluationContext] = None
                               ) -> FlagResolutionDetails[str]:
        return self._resolve(flag_key, default_value, evaluation_context, "string", _string)

    def resolve_integer_details(self, flag_key: str, default_value: int,
                                evaluation_context: Optional[EvaluationContext] = None
                                ) -> FlagResolutionDetails[int]:
        return self._resolve(flag_key, default_value, evaluation_context, "integer", _integer)

    def resolve_float_details(self, flag_key: str, default_value: float,
                              evaluation_context: Optional[EvaluationContext] = None
                              ) -> FlagResolutionDetails[float]:
        return self._resolve(flag_key, default_value, evaluation_context, "float", _float)

    def resolve_object_details(self, flag_key: str, default_value: Union[Sequence[Any], Mapping[str, Any]],
                               evaluation_context: Optional[EvaluationContext] = None
                               ) -> FlagResolutionDetails[Union[Sequence[Any], Mapping[str, Any]]]:
        return self._resolve(flag_key, default_value, evaluation_context, "object", _object)

    def _resolve(self, flag_key: str, default_value: Any, evaluation_context: Optional[EvaluationContext],
                 flag_type: FlagType, convert: Callable[[Any], Any]) -> FlagResolutionDetails[Any]:
        try:
            result = self.client.evaluate_flag(flag_key, context_of(evaluation_context), type=flag_type)
        except (TypeError, ValueError) as error:  # the context does not encode as JSON
            raise InvalidContextError("the evaluation context is not JSON: %s" % error) from error
        except errors.InvalidParams as error:
            if (error.field or "").startswith("context"):
                raise InvalidContextError(str(error)) from error
            raise GeneralError(str(error)) from error
        except errors.BuntingError as error:
            raise GeneralError(str(error)) from error
        return resolution(result, default_value, flag_type, convert)

    # Tracking ---------------------------------------------------------------

    def track(self, tracking_event_name: str, evaluation_context: Optional[EvaluationContext] = None,
              tracking_event_details: Optional[TrackingEventDetails] = None) -> None:
        """Sends the event to Bunting's `track`, for the server's current user (Bunting
        tracks for its user; the evaluation context is not sent). Failures are logged."""
        value = details = None
        if tracking_event_details is not None:
            value = tracking_event_details.value
            if tracking_event_details.attributes:
                details = _jsonable(dict(tracking_event_details.attributes))
        try:
            self.client.track(tracking_event_name, value=value, details=details)
        except (errors.BuntingError, OpenFeatureError, TypeError, ValueError) as error:
            log.warning("tracking %r failed: %s", tracking_event_name, error)


def context_of(evaluation_context: Optional[EvaluationContext]) -> Dict[str, Any]:
    """The flagd context for an OpenFeature evaluation context: `{"targetingKey": ..., **attributes}`.

    Datetimes become ISO 8601 strings; every other value must already be JSON.
    """
    if evaluation_context is None:
        return {}
    context: Dict[str, Any] = {}
    if evaluation_context.targeting_key is not None:
        context["targetingKey"] = evaluation_context.targeting_key
    context.update(_jsonable(dict(evaluation_context.attributes)))
    return context


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    return value


def resolution(result: Any, default_value: Any, flag_type: str,
               convert: Callable[[Any], Any]) -> FlagResolutionDetails[Any]:
    """FlagResolutionDetails for an `evaluateFlag` result."""
    if not isinstance(result, dict):
        raise GeneralError("evaluateFlag answered %r" % (result,))
    metadata = _flag_metadata(result.get("metadata"))
    text = result.get("reason")
    reason = _REASONS.get(text, text) if isinstance(text, str) else None
    code = result.get("errorCode")
    if code:
        return FlagResolutionDetails(value=default_value, reason=Reason.ERROR,
                                     error_code=_ERROR_CODES.get(code, ErrorCode.GENERAL),
                                     error_message=result.get("errorMessage") or code, flag_metadata=metadata)
    value = result.get("value")
    if value is None:
        # A flag whose targeting named no variant and that has no default: the caller's default.
        return FlagResolutionDetails(value=default_value, variant=result.get("variant"),
                                     reason=reason or Reason.DEFAULT, flag_metadata=metadata)
    try:
        value = convert(value)
    except TypeError:
        return FlagResolutionDetails(value=default_value, reason=Reason.ERROR, error_code=ErrorCode.TYPE_MISMATCH,
                                     error_message="the flag's value %r is not of type %s" % (value, flag_type),
                                     flag_metadata=metadata)
    return FlagResolutionDetails(value=value, variant=result.get("variant"), reason=reason, flag_metadata=metadata)


def _flag_metadata(metadata: Any) -> Dict[str, Union[bool, int, float, str]]:
    if not isinstance(metadata, dict):
        return {}
    return {key: value for key, value in metadata.items() if isinstance(value, (bool, int, float, str))}


def _event_metadata(event: Mapping[str, Any]) -> Dict[str, Union[bool, int, float, str]]:
    return {key: value for key, value in event.items()
            if key not in ("subscriptionId", "type", "flagsChanged", "message")
            and isinstance(value, (bool, int, float, str))}


def _error_message(event: Mapping[str, Any]) -> str:
    words = [str(event.get(key)) for key in ("reason", "retryState") if event.get(key)]
    message = event.get("message")
    return "%s%s" % ("/".join(words) or "ERROR", ": %s" % message if message else "")


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise TypeError


def _string(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise TypeError


def _integer(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise TypeError


def _float(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise TypeError


def _object(value: Any) -> Union[List[Any], Dict[str, Any]]:
    if isinstance(value, (dict, list)):
        return value
    raise TypeError
