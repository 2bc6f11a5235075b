"""What the thread and asyncio OpenFeature providers share, without I/O: the flagd
context of an evaluation context, the resolution of an `evaluateFlag` result,
the flags held for one context (the static-context paradigm), and the provider
events of the definitions' events."""

import copy
import datetime
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from openfeature.evaluation_context import EvaluationContext
from openfeature.event import ProviderEventDetails
from openfeature.exception import ErrorCode
from openfeature.flag_evaluation import FlagResolutionDetails, Reason
from openfeature.provider import AbstractProvider

from .events import DefinitionsEvent

_REASONS = {reason.value: reason for reason in Reason}
_ERROR_CODES = {code.value: code for code in ErrorCode}

#: The two ways a provider resolves: per call on the server, or from the flags held for one context.
PARADIGMS = ("dynamic", "static")
#: Keys of the evaluation context that the server keeps for itself.
_RESERVED = ("targetingKey", "$flagd")

Convert = Callable[[Any], Any]


def check_paradigm(paradigm: str) -> bool:
    """Whether the paradigm is the static one; anything but the two is a mistake said at once."""
    if paradigm not in PARADIGMS:
        raise ValueError("paradigm must be %s, not %r" % (" or ".join(repr(name) for name in PARADIGMS), paradigm))
    return paradigm == "static"


def context_of(evaluation_context: Optional[EvaluationContext]) -> Dict[str, Any]:
    """The flagd context for an OpenFeature evaluation context: `{"targetingKey": ..., **attributes}`.

    Datetimes become ISO 8601 strings; every other value must already be JSON.
    """
    if evaluation_context is None:
        return {}
    context: Dict[str, Any] = {}
    if evaluation_context.targeting_key is not None:
        context["targetingKey"] = evaluation_context.targeting_key
    attributes = evaluation_context.attributes
    for value in attributes.values():
        if type(value) not in _PLAIN:
            context.update(jsonable(dict(attributes)))
            return context
    # Flat attributes of plain values, the usual context: nothing to convert.
    context.update(attributes)
    return context


def tracking_params(evaluation_context: Optional[EvaluationContext]) -> Dict[str, Any]:
    """`track`'s `userId` and `attributes` for the context the event happened in (none for none)."""
    params: Dict[str, Any] = {}
    if evaluation_context is None:
        return params
    if evaluation_context.targeting_key:
        params["user_id"] = evaluation_context.targeting_key
    attributes = {key: value for key, value in jsonable(dict(evaluation_context.attributes)).items()
                  if key not in _RESERVED}
    if attributes:
        params["attributes"] = attributes
    return params


def jsonable(value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    return value


def resolution(result: Any, default_value: Any, flag_type: str, convert: Convert) -> FlagResolutionDetails[Any]:
    """FlagResolutionDetails for an `evaluateFlag` result."""
    if not isinstance(result, dict):
        raise TypeError("evaluateFlag answered %r" % (result,))
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


def _type_name(value: Any) -> str:
    """The name the server gives a JSON value's type in its TYPE_MISMATCH messages."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "null"


def _accepts(flag_type: str, value: Any) -> bool:
    """The server's check of a value against the type asked for (flagd's): a float may be
    any number, an object also an array, an integer a number without a fraction."""
    if flag_type == "boolean":
        return isinstance(value, bool)
    if flag_type == "string":
        return isinstance(value, str)
    if isinstance(value, bool):
        return False
    if flag_type == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer()
                                          and abs(value) <= 9_007_199_254_740_991)
    if flag_type == "float":
        return isinstance(value, (int, float))
    return isinstance(value, (dict, list))


def typed(result: Dict[str, Any], flag_type: str) -> Dict[str, Any]:
    """An untyped result of `evaluateFlags` as `evaluateFlag` with `type` answers it."""
    value = result.get("value")
    if result.get("errorCode") or value is None or _accepts(flag_type, value):
        return result
    mismatch = {"value": None, "variant": None, "reason": "ERROR", "errorCode": "TYPE_MISMATCH",
                "errorMessage": "expected a value of type %s, got %s" % (flag_type, _type_name(value))}
    if "metadata" in result:
        mismatch["metadata"] = result["metadata"]
    return mismatch


def not_found(flag_key: str) -> Dict[str, Any]:
    return {"value": None, "variant": None, "reason": "ERROR", "errorCode": "FLAG_NOT_FOUND",
            "errorMessage": "flag %s not found" % _quoted(flag_key)}


def _quoted(text: str) -> str:
    import json
    return json.dumps(text, ensure_ascii=False)


_EMPTY = EvaluationContext()
_PLAIN = frozenset((str, int, float, bool, type(None)))


class HeldFlags:
    """Every flag's resolution for one evaluation context (one `evaluateFlags` reply), and
    the FlagResolutionDetails made of them so far: a read of the static paradigm is a
    comparison of contexts and a dictionary look-up."""

    __slots__ = ("context", "flags", "details")

    def __init__(self, context: EvaluationContext, reply: Any):
        #: a copy: the caller may change its own context object afterwards
        self.context = context
        flags = reply.get("flags") if isinstance(reply, dict) else None
        if not isinstance(flags, dict):
            raise TypeError("evaluateFlags answered %r" % (reply,))
        self.flags: Dict[str, Any] = flags
        #: (flag key, type) → details whose value does not depend on the caller's default
        self.details: Dict[Tuple[str, str], FlagResolutionDetails[Any]] = {}

    @staticmethod
    def key_of(evaluation_context: Optional[EvaluationContext]) -> EvaluationContext:
        """The context to hold flags for: a deep copy, so that later changes to the caller's
        attributes are a new context rather than a silent change of this one."""
        if evaluation_context is None:
            return _EMPTY
        return EvaluationContext(evaluation_context.targeting_key, copy.deepcopy(dict(evaluation_context.attributes)))

    def holds(self, evaluation_context: Optional[EvaluationContext]) -> bool:
        return self.context == (evaluation_context if evaluation_context is not None else _EMPTY)

    def resolve(self, flag_key: str, default_value: Any, flag_type: str, convert: Convert
                ) -> FlagResolutionDetails[Any]:
        details = self.details.get((flag_key, flag_type))
        if details is not None:
            return details
        result = self.flags.get(flag_key)
        if result is None:
            return resolution(not_found(flag_key), default_value, flag_type, convert)
        details = resolution(typed(result, flag_type), default_value, flag_type, convert)
        if details.error_code is None and result.get("value") is not None:
            # Not the caller's default: the same for every caller from now on.
            self.details[(flag_key, flag_type)] = details
        return details


def emit_definitions_event(provider: AbstractProvider, event: DefinitionsEvent) -> None:
    """The provider event of a definitions event after the first: READY → PROVIDER_READY,
    CHANGED → PROVIDER_CONFIGURATION_CHANGED, ERROR → PROVIDER_STALE (older definitions
    serve) or PROVIDER_ERROR."""
    kind = event.get("type")
    if kind == "READY":
        provider.emit_provider_ready(ProviderEventDetails(metadata=_event_metadata(event)))
    elif kind == "CHANGED":
        provider.emit_provider_configuration_changed(ProviderEventDetails(
            flags_changed=list(event.get("flagsChanged") or []), metadata=_event_metadata(event)))
    elif kind == "ERROR":
        details = ProviderEventDetails(message=error_message(event), error_code=ErrorCode.GENERAL,
                                       metadata=_event_metadata(event))
        if event.get("stale"):
            provider.emit_provider_stale(details)
        else:
            provider.emit_provider_error(details)


def _flag_metadata(metadata: Any) -> Dict[str, Union[bool, int, float, str]]:
    if not isinstance(metadata, dict):
        return {}
    for value in metadata.values():
        if type(value) not in _METADATA:
            return {key: value for key, value in metadata.items() if isinstance(value, (bool, int, float, str))}
    return metadata  # a dict of the reply's own, made for this result


_METADATA = frozenset((str, int, float, bool))


def _event_metadata(event: Mapping[str, Any]) -> Dict[str, Union[bool, int, float, str]]:
    return {key: value for key, value in event.items()
            if key not in ("subscriptionId", "type", "flagsChanged", "message")
            and isinstance(value, (bool, int, float, str))}


def error_message(event: Mapping[str, Any]) -> str:
    words = [str(event.get(key)) for key in ("reason", "retryState") if event.get(key)]
    message = event.get("message")
    return "%s%s" % ("/".join(words) or "ERROR", ": %s" % message if message else "")


def refreshes_flags(event: Mapping[str, Any]) -> bool:
    """Whether a channel event is a refresh of the flags (a session start, a manual refresh,
    a new document): time-dependent rules may resolve otherwise since."""
    return event.get("type") == "DATA_UPDATED" and event.get("reason") in ("AUTO_SERVER_REFRESH",
                                                                           "MANUAL_SERVER_REFRESH")


def boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise TypeError


def string(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise TypeError


def integer(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise TypeError


def floating(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise TypeError


def structure(value: Any) -> Union[List[Any], Dict[str, Any]]:
    if isinstance(value, (dict, list)):
        return value
    raise TypeError
