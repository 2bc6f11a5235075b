"""The protocol core shared by the thread and asyncio clients: no I/O, no threads.

It numbers requests and encodes them in the chosen framing, decodes what the
server wrote, matches replies to pending requests, and routes every
notification that carries a `subscriptionId` into that subscription's queue.

A subscription's queue exists as soon as its first event or its subscribe
reply is decoded, whichever comes first, and the reply to a subscribe request
creates the subscription while the reply is being routed: the events that
follow it at once (CACHE_REPLAY) can never arrive before there is a queue (or
a callback) for them, however the caller's thread and the reader are scheduled.

An error the server sends with id null is about a message it could not read,
except for two refusals of a whole message that the client can recognise:
MESSAGE_TOO_LARGE (`data.limit`) belongs to the oldest unanswered message whose
body is larger than the limit, and BATCH_TOO_LARGE to the oldest unanswered
batch of more than BATCH_LIMIT requests. Their callers get the error at once
instead of waiting for replies that will never come.

The transports own the locking (the thread client calls every method of a
Core under one lock; the asyncio client calls them from its event loop only).
"""

import json
import logging
from collections import deque
from typing import Any, Callable, Deque, Dict, Iterable, List, Optional, Tuple

from . import errors
from ._framing import decoder_for, encoder_for

log = logging.getLogger("bunting")

Event = Dict[str, Any]
Predicate = Callable[[Event], bool]
Callback = Callable[[Event], Any]

#: The most requests a batch may hold (the protocol's limit; more is BATCH_TOO_LARGE).
BATCH_LIMIT = 1000


def _encoder() -> Callable[[Any], str]:
    # Compact, UTF-8 (not \u-escaped), and refusing NaN and the infinities, which JSON
    # lacks. CPython's C encoder made once costs half of what json.dumps with these
    # options costs per call (it builds a new encoder each time).
    try:
        from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - other Pythons
        c_make_encoder = None
    if c_make_encoder is None:  # pragma: no cover
        return json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode

    def fail(value: Any) -> Any:
        raise TypeError("Object of type %s is not JSON serializable" % type(value).__name__)

    make = c_make_encoder({}, fail, encode_basestring, None, ":", ",", False, False, False)
    join = "".join

    def encode(value: Any) -> str:
        return join(make(value, 0))

    return encode


_dumps = _encoder()
_scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # CPython's C scanner: json.loads without its Python layers


def _loads(text: str) -> Any:
    """json.loads for the server's messages, which start with their value and end with it."""
    try:
        value, end = _scan(text, 0)
        if end == len(text):
            return value
    except StopIteration:
        pass
    return json.loads(text)  # anything else, with json's own error (or whitespace around a value)


class SubscriptionState:
    """One subscription's routing record and its queue of events not yet taken."""

    __slots__ = ("id", "notification", "queue", "callback", "ended")

    def __init__(self, subscription_id: Any, notification: str):
        self.id = subscription_id
        #: the notification method its events come in: event, updates or definitions
        self.notification = notification
        #: (arrival number, params), oldest first
        self.queue: Deque[Tuple[int, Event]] = deque()
        #: when set, events go to it instead of the queue
        self.callback: Optional[Callback] = None
        #: removed with removeSubscription (its queued events can still be taken)
        self.ended = False


class Pending:
    """A request written and not yet answered; `waiter` belongs to the transport."""

    __slots__ = ("id", "method", "params", "notification", "callback", "waiter", "woken",
                 "done", "result", "error", "exception", "size", "frame")

    def __init__(self, request_id: int, method: str, params: Optional[Dict[str, Any]],
                 notification: Optional[str], callback: Optional[Callback]):
        self.id = request_id
        #: the bytes of the JSON body it was written in (with the rest of its batch)
        self.size = 0
        #: the ids of the requests of its batch (ids, not the requests: no reference cycle);
        #: None when it was written alone
        self.frame: Optional[Tuple[int, ...]] = None
        self.method = method
        self.params = params
        self.notification = notification
        self.callback = callback
        self.waiter: Any = None
        #: whether the transport has released `waiter` since its caller last took it
        self.woken = False
        self.done = False
        self.result: Any = None
        self.error: Any = None  # the reply's `error` member
        self.exception: Optional[BaseException] = None  # set when the connection failed

    def outcome(self) -> Any:
        """The result, or raises what the reply (or the connection) said."""
        if self.exception is not None:
            raise self.exception
        if self.error is not None:
            raise errors.from_wire(self.error, self.method)
        return self.result


class Fed:
    """What one chunk of server output brought."""

    __slots__ = ("completed", "deliveries", "arrived")

    def __init__(self) -> None:
        self.completed: List[Pending] = []
        self.deliveries: List[Tuple[Callback, Event]] = []
        #: whether an event was queued or a subscription ended (waiters should look again)
        self.arrived = False


class Core:
    def __init__(self, framing: str):
        self.framing = framing
        self._encode = encoder_for(framing)
        self._decoder = decoder_for(framing)
        self._last_id = 0
        self._arrivals = 0
        self.pending: Dict[int, Pending] = {}
        self.subscriptions: Dict[Any, SubscriptionState] = {}
        #: error replies with id null: about a message the server could not read, so
        #: they cannot name a request (the newest 50)
        self.unattributed: Deque[errors.RPCError] = deque(maxlen=50)

    # Requests ---------------------------------------------------------------

    def request(self, method: str, params: Optional[Dict[str, Any]] = None,
                notification: Optional[str] = None,
                callback: Optional[Callback] = None) -> Tuple[Pending, bytes]:
        """Registers a request and returns it with the frame to write.

        `notification` marks a subscribe request: the reply's subscriptionId
        becomes a subscription whose events come in that notification method.
        """
        request_id = self._last_id + 1
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params:
            message["params"] = params
        body = _dumps(message).encode("utf-8")  # raises before the id is used, for params that are not JSON
        self._last_id = request_id
        pending = Pending(request_id, method, params, notification, callback)
        pending.size = len(body)
        self.pending[request_id] = pending
        return pending, self._encode(body)

    def batch(self, calls: Iterable[Tuple[str, Optional[Dict[str, Any]]]]) -> Tuple[List[Pending], bytes]:
        """Registers several requests sent as one JSON-RPC batch; returns them with the frame."""
        pendings: List[Pending] = []
        messages: List[Dict[str, Any]] = []
        for method, params in calls:
            message = self._message(method, params, self._last_id + 1 + len(pendings))
            messages.append(message)
            pendings.append(Pending(message["id"], method, params, None, None))
        if not pendings:
            raise ValueError("a batch needs at least one call")
        body = _dumps(messages).encode("utf-8")
        self._last_id += len(pendings)
        ids = tuple(pending.id for pending in pendings)
        for pending in pendings:
            pending.size = len(body)
            pending.frame = ids
            self.pending[pending.id] = pending
        return pendings, self._encode(body)

    def notification_frame(self, method: str, params: Optional[Dict[str, Any]] = None) -> bytes:
        return self._encode(self._body(method, params, None))

    def _body(self, method: str, params: Optional[Dict[str, Any]], request_id: Optional[int]) -> bytes:
        return _dumps(self._message(method, params, request_id)).encode("utf-8")

    @staticmethod
    def _message(method: str, params: Optional[Dict[str, Any]], request_id: Optional[int]) -> Dict[str, Any]:
        message: Dict[str, Any] = {"jsonrpc": "2.0"}
        if request_id is not None:
            message["id"] = request_id
        message["method"] = method
        if params:
            message["params"] = params
        return message

    def abandon(self, pending: Pending) -> None:
        """Forgets a request whose caller stopped waiting; a late reply is dropped."""
        self.pending.pop(pending.id, None)

    def fail_all(self, make_exception: Callable[[], BaseException]) -> List[Pending]:
        """Ends every pending request with a fresh exception; returns them."""
        failed = list(self.pending.values())
        self.pending.clear()
        for pending in failed:
            pending.exception = make_exception()
            pending.done = True
        return failed

    # Server output ----------------------------------------------------------

    def feed(self, data: bytes) -> Fed:
        """Decodes a chunk of server output and routes every message in it."""
        fed = Fed()
        for body in self._decoder.feed(data):
            try:
                message = _loads(body.decode("utf-8"))
            except ValueError as error:
                raise errors.ProtocolError("the server wrote something that is not JSON (%s): %r"
                                           % (error, body[:200])) from None
            if isinstance(message, list):  # a batch's replies
                for item in message:
                    self._route(item, fed)
            else:
                self._route(message, fed)
        return fed

    def _route(self, message: Any, fed: Fed) -> None:
        if not isinstance(message, dict):
            raise errors.ProtocolError("the server wrote a message that is not an object: %r" % (message,))
        if "method" in message:
            if "id" in message:
                log.debug("ignoring a request from the server: %r", message)
                return
            self._route_notification(message.get("method"), message.get("params"), fed)
            return
        request_id = message.get("id")
        if request_id is None:
            refused = self._refused(message.get("error"))
            if refused:
                self._fail_frame(refused, message.get("error"), fed)
                return
            # A parse error of something we wrote: it cannot name the request it was.
            log.warning("the server answered a message it could not read: %r", message.get("error"))
            self.unattributed.append(errors.from_wire(message.get("error")))
            return
        pending = self.pending.pop(request_id, None)
        if pending is None:
            log.debug("dropping a reply nobody waits for (id %r)", request_id)
            return
        if "error" in message:
            pending.error = message["error"]
        else:
            pending.result = self._settle(pending, message.get("result"), fed)
        pending.done = True
        fed.completed.append(pending)

    def _refused(self, error: Any) -> Tuple[int, ...]:
        """The ids of the unanswered message an id-null error refuses as a whole, if it can be told."""
        data = error.get("data") if isinstance(error, dict) else None
        if not isinstance(data, dict):
            return ()
        reason, limit = data.get("reason"), data.get("limit")
        if reason == "MESSAGE_TOO_LARGE" and isinstance(limit, int):
            def fits(pending: Pending) -> bool:
                return pending.size > limit
        elif reason == "BATCH_TOO_LARGE":
            def fits(pending: Pending) -> bool:
                return pending.frame is not None and len(pending.frame) > BATCH_LIMIT
        else:
            return ()
        for pending in self.pending.values():  # oldest first
            if fits(pending):
                frame = pending.frame or (pending.id,)
                if all(member in self.pending for member in frame):
                    return frame
        return ()

    def _fail_frame(self, frame: Tuple[int, ...], error: Any, fed: Fed) -> None:
        pendings = [self.pending.pop(member) for member in frame]
        exception = errors.from_wire(error, pendings[0].method if pendings[0].frame is None else None)
        for pending in pendings:
            pending.exception = exception
            pending.done = True
            fed.completed.append(pending)

    def _settle(self, pending: Pending, result: Any, fed: Fed) -> Any:
        if pending.notification is not None:
            if isinstance(result, dict) and "subscriptionId" in result:
                state = self._state(result["subscriptionId"], pending.notification)
                if pending.callback is not None:
                    state.callback = pending.callback
                    while state.queue:
                        fed.deliveries.append((state.callback, state.queue.popleft()[1]))
                return state
            return None  # null while the SDK is disabled: no subscription was made
        if pending.method == "removeSubscription" and isinstance(result, dict) and result.get("removed"):
            removed = (pending.params or {}).get("subscriptionId")
            ended = self.subscriptions.pop(removed) if removed in self.subscriptions else None
            if ended is not None:
                ended.ended = True
                fed.arrived = True
        return result

    def _route_notification(self, method: Any, params: Any, fed: Fed) -> None:
        if not isinstance(params, dict) or "subscriptionId" not in params:
            log.debug("ignoring notification %r without a subscriptionId", method)
            return
        state = self._state(params["subscriptionId"], method)
        if state.callback is not None:
            fed.deliveries.append((state.callback, params))
            return
        self._arrivals += 1
        state.queue.append((self._arrivals, params))
        fed.arrived = True

    def _state(self, subscription_id: Any, notification: str) -> SubscriptionState:
        state = self.subscriptions.get(subscription_id)
        if state is None:
            state = SubscriptionState(subscription_id, notification)
            self.subscriptions[subscription_id] = state
        return state

    # Taking events ----------------------------------------------------------

    def take(self, state: SubscriptionState, predicate: Optional[Predicate]) -> Optional[Event]:
        """Removes and returns the subscription's oldest event that matches."""
        queue = state.queue
        for index, (_, event) in enumerate(queue):
            if predicate is None or predicate(event):
                del queue[index]
                return event
        return None

    def take_any(self, predicate: Optional[Predicate], notification: Optional[str]) -> Optional[Event]:
        """Removes and returns the oldest matching event of any subscription."""
        best: Optional[Tuple[int, SubscriptionState, int]] = None
        for state in self.subscriptions.values():
            if notification is not None and state.notification != notification:
                continue
            for index, (arrival, event) in enumerate(state.queue):
                if best is not None and arrival > best[0]:
                    break
                if predicate is None or predicate(event):
                    best = (arrival, state, index)
                    break
        if best is None:
            return None
        _, state, index = best
        event = state.queue[index][1]
        del state.queue[index]
        return event

    def queued(self, notification: Optional[str] = None) -> List[Event]:
        """Every queued event (of one notification method), in arrival order."""
        entries = [entry for state in self.subscriptions.values()
                   if notification is None or state.notification == notification
                   for entry in state.queue]
        entries.sort(key=lambda entry: entry[0])
        return [event for _, event in entries]


def matcher(fields: Dict[str, Any], match: Optional[Callable[[Any], Any]] = None) -> Optional[Predicate]:
    """A predicate over events: every given field equals (or, for a tuple, list or
    set, is one of) the event's; `match`, when given, must hold too."""
    wanted = [(key, value) for key, value in fields.items() if value is not None]
    if not wanted and match is None:
        return None

    def predicate(event: Event) -> bool:
        for key, value in wanted:
            actual = event.get(key)
            if isinstance(value, (tuple, list, set, frozenset)):
                if actual not in value:
                    return False
            elif actual != value:
                return False
        return match is None or bool(match(event))

    return predicate


def describe_wait(subject: str, fields: Dict[str, Any], match: Optional[Callable[[Any], Any]]) -> str:
    """Words for a timeout message: `DATA_UPDATED event (reason=…) on sub-1`."""
    shown = dict((key, value) for key, value in fields.items() if value is not None)
    kind = shown.pop("type", None)
    words = ("%s event" % ("|".join(kind) if isinstance(kind, (tuple, list, set, frozenset)) else kind)
             if kind else "event")
    extras = ["%s=%s" % (key, value) for key, value in shown.items()]
    if match is not None:
        extras.append("match=%s" % getattr(match, "__name__", "…"))
    if extras:
        words += " (%s)" % ", ".join(extras)
    return words + " " + subject if subject else words


def fields_of(type: Any = None, reason: Any = None, action: Any = None, channel: Any = None,
              extra: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    fields = {"type": type, "reason": reason, "action": action, "channel": channel}
    if extra:
        fields.update(extra)
    return fields


def iter_values(items: Iterable[Tuple[int, Event]]) -> List[Event]:
    return [event for _, event in items]
