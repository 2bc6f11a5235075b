"""Exceptions of the Bunting client.

Every error reply of the server becomes an `RPCError` subclass chosen by its
`data.reason` (then by its code), keeping `code`, `message`, `data` and
`reason`. Everything the client raises derives from `BuntingError`.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Type


class BuntingError(Exception):
    """Base of every exception the Bunting client raises."""


class RPCError(BuntingError):
    """An error reply of the server.

    Attributes:
        code: the JSON-RPC error code (-32700 … -32000).
        message: the server's message.
        data: the error's `data` object (always with `reason` from Bunting).
        reason: `data["reason"]`, a word to switch on (`"NOT_FOUND"`, …), or None.
        method: the method of the request that failed, when known.
    """

    #: The code of this family; None for the base class.
    code_family: Optional[int] = None
    #: The `data.reason` values of this family.
    reasons: Tuple[str, ...] = ()

    def __init__(self, code: int, message: str, data: Any = None, method: Optional[str] = None):
        self.code = code
        self.message = message
        self.data = data if data is not None else {}
        self.reason = self.data.get("reason") if isinstance(self.data, dict) else None
        self.method = method
        super().__init__(code, message, data)

    def __str__(self) -> str:
        where = " in %s" % self.method if self.method else ""
        return "%s (code %d, reason %s%s)" % (self.message, self.code, self.reason, where)

    def __repr__(self) -> str:
        return "%s(code=%r, message=%r, data=%r)" % (type(self).__name__, self.code, self.message, self.data)


class _FieldError(RPCError):
    """An error whose data names a field (`data.field`) and says why (`data.why`)."""

    @property
    def field(self) -> Optional[str]:
        return self.data.get("field") if isinstance(self.data, dict) else None

    @property
    def why(self) -> Optional[str]:
        return self.data.get("why") if isinstance(self.data, dict) else None


class _ChannelError(_FieldError):
    """An error about one channel (`data.channel`), saying why (`data.why`)."""

    @property
    def channel(self) -> Optional[str]:
        return self.data.get("channel") if isinstance(self.data, dict) else None


class ParseError(RPCError):
    """-32700: the server could not read a message (bad JSON or framing)."""

    code_family = -32700
    reasons = ("INVALID_JSON", "INVALID_UTF8", "TOO_DEEP", "NUMBER_OUT_OF_RANGE", "DUPLICATE_KEY",
               "EMPTY_MESSAGE", "INVALID_HEADER", "MISSING_CONTENT_LENGTH", "INVALID_CONTENT_LENGTH",
               "CONTENT_LENGTH_MISMATCH", "TRUNCATED_MESSAGE")


class InvalidRequest(RPCError):
    """-32600: not a request object, an empty batch, or past a limit.

    MESSAGE_TOO_LARGE: the message's body was larger than `.limit` bytes and was skipped.
    BATCH_TOO_LARGE: a batch of more than 1,000 requests, of which none ran (batch() raises it).
    REPLY_TOO_LARGE: the batch's replies passed 16 MiB, and this request of it did not run.
    """

    code_family = -32600
    reasons = ("INVALID_REQUEST", "EMPTY_BATCH", "MESSAGE_TOO_LARGE", "BATCH_TOO_LARGE", "REPLY_TOO_LARGE")

    @property
    def limit(self) -> Optional[int]:
        """The server's limit in bytes, for MESSAGE_TOO_LARGE."""
        return self.data.get("limit") if isinstance(self.data, dict) else None


class MethodNotFound(RPCError):
    """-32601: the server has no such method (`data["method"]`)."""

    code_family = -32601
    reasons = ("METHOD_NOT_FOUND",)


class InvalidParams(_FieldError):
    """-32602: a param is missing, unknown or wrong (`.field`, `.why`)."""

    code_family = -32602
    reasons = ("INVALID_PARAMS",)


class InternalError(RPCError):
    """-32603: the server failed in a way it did not expect."""

    code_family = -32603
    reasons = ("INTERNAL_ERROR",)


class MethodNotImplemented(RPCError):
    """-32001: a method of the protocol that this server build does not implement yet."""

    code_family = -32001
    reasons = ("NOT_IMPLEMENTED",)


class NotFound(_FieldError):
    """-32002: an id that names nothing."""

    code_family = -32002
    reasons = ("NOT_FOUND",)


class NotAllowed(_FieldError):
    """-32003: well formed, but not allowed for this item."""

    code_family = -32003
    reasons = ("NOT_ALLOWED",)


class SDKDisabled(RPCError):
    """-32004: refused while the SDK is disabled (`disableSDK`)."""

    code_family = -32004
    reasons = ("SDK_DISABLED",)


class InvalidRule(_FieldError):
    """-32005: a JSONLogic rule that does not compile, does not evaluate, or exceeds the work budget."""

    code_family = -32005
    reasons = ("INVALID_RULE",)


class ShuttingDown(RPCError):
    """-32006: the server is shutting down."""

    code_family = -32006
    reasons = ("SHUTTING_DOWN",)


class StorageError(RPCError):
    """-32007: local storage failed (`data["detail"]`)."""

    code_family = -32007
    reasons = ("STORAGE_ERROR",)


class NotSynced(_ChannelError):
    """-32008: the channel (`.channel`) was never refreshed for the current user.

    Subscribe to the channel before changeUser or openSession (their refresh fills it), or
    call refresh; `.why` says so in words.
    """

    code_family = -32008
    reasons = ("NOT_SYNCED",)


class ChannelDisabled(_ChannelError):
    """-32009: the definitions turn this channel (`.channel`) off."""

    code_family = -32009
    reasons = ("CHANNEL_DISABLED",)


class LimitReached(RPCError):
    """-32010: a bound of the server reached, such as more subscriptions than --max-subscriptions."""

    code_family = -32010
    reasons = ("LIMIT_REACHED",)


class NotEnabled(RPCError):
    """-32011: a method for testing campaigns on a server not started for it (setClock and
    advanceClock need --clock manual, injectFault and clearFaults --faults)."""

    code_family = -32011
    reasons = ("NOT_ENABLED",)


class TemplateError(_FieldError):
    """-32012: a Liquid template given to render_template gave no text (`.line`, `.column` in it).

    INVALID_TEMPLATE: it does not parse, or rendering failed (`.why` says how).
    TEMPLATE_LIMIT: a bound on parsing or rendering was reached.
    TEMPLATE_ABORTED: it ran abort_message (`.abort_message` holds the text given to it).
    """

    code_family = -32012
    reasons = ("INVALID_TEMPLATE", "TEMPLATE_LIMIT", "TEMPLATE_ABORTED")

    @property
    def line(self) -> Optional[int]:
        """1-based line in the template."""
        return self.data.get("line") if isinstance(self.data, dict) else None

    @property
    def column(self) -> Optional[int]:
        """1-based column in the template, in Unicode scalars."""
        return self.data.get("column") if isinstance(self.data, dict) else None

    @property
    def abort_message(self) -> Optional[str]:
        """TEMPLATE_ABORTED: the text given to abort_message (may be empty)."""
        return self.data.get("abortMessage") if isinstance(self.data, dict) else None


ERROR_CLASSES: Tuple[Type[RPCError], ...] = (
    ParseError, InvalidRequest, MethodNotFound, InvalidParams, InternalError, MethodNotImplemented,
    NotFound, NotAllowed, SDKDisabled, InvalidRule, ShuttingDown, StorageError, NotSynced, ChannelDisabled,
    LimitReached, NotEnabled, TemplateError,
)
BY_REASON: Dict[str, Type[RPCError]] = {reason: cls for cls in ERROR_CLASSES for reason in cls.reasons}
BY_CODE: Dict[int, Type[RPCError]] = {cls.code_family: cls for cls in ERROR_CLASSES}  # type: ignore[misc]


def error_class(code: Any, reason: Any) -> Type[RPCError]:
    """The class for an error reply: by reason, else by code, else RPCError."""
    cls = BY_REASON.get(reason) if isinstance(reason, str) else None
    if cls is None and isinstance(code, int):
        cls = BY_CODE.get(code)
    return cls or RPCError


def from_wire(error: Any, method: Optional[str] = None) -> RPCError:
    """Builds the exception for the `error` member of a reply."""
    if not isinstance(error, dict):
        return RPCError(-32603, "the server sent an error that is not an object: %r" % (error,), None, method)
    code = error.get("code")
    message = error.get("message")
    data = error.get("data")
    reason = data.get("reason") if isinstance(data, dict) else None
    cls = error_class(code, reason)
    return cls(code if isinstance(code, int) else -32603, str(message), data, method)


class BuntingTimeout(BuntingError, TimeoutError):
    """Base of the client's timeouts (also a built-in TimeoutError)."""


class RequestTimeout(BuntingTimeout):
    """No reply to a request within its timeout. The server may still run it."""

    def __init__(self, method: str, timeout: float):
        self.method = method
        self.timeout = timeout
        super().__init__("no reply to %s within %g s" % (method, timeout))


class EventTimeout(BuntingTimeout):
    """No matching event within the timeout.

    `seen` holds the events that had arrived and did not match (left queued).
    """

    def __init__(self, what: str, timeout: float, seen: Sequence[Dict[str, Any]] = ()):
        self.timeout = timeout
        self.seen = list(seen)
        summary = ", ".join(_describe(event) for event in self.seen[-10:]) or "none"
        super().__init__("no %s within %g s (queued, not matching: %s)" % (what, timeout, summary))


def _describe(event: Dict[str, Any]) -> str:
    parts = [str(event.get(key)) for key in ("channel", "type", "reason", "action") if key in event]
    return "/".join(parts) or "?"


class ServerExited(BuntingError):
    """The server process ended (or closed its output) while the client still needed it.

    Attributes:
        returncode: its exit status (negative: killed by that signal), None if unknown.
        stderr: its last stderr lines.
    """

    def __init__(self, returncode: Optional[int], stderr: List[str], detail: str = ""):
        self.returncode = returncode
        self.stderr = list(stderr)
        status = "with status %s" % returncode if returncode is not None else "(status unknown)"
        text = "bunting serve exited %s%s" % (status, ": " + detail if detail else "")
        if self.stderr:
            text += "; its last stderr lines:\n" + "\n".join("  " + line for line in self.stderr)
        else:
            text += "; it wrote nothing on stderr"
        super().__init__(text)


class ClientClosed(BuntingError):
    """The client was closed."""


class SubscriptionEnded(BuntingError):
    """The subscription was removed and none of its events is left."""


class BinaryNotFound(BuntingError, FileNotFoundError):
    """No `bunting` binary was found; the message lists where the client looked."""


class ProtocolError(BuntingError):
    """The server wrote something that is not a JSON-RPC message in the expected framing."""
