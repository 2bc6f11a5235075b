"""`Bunting`: the client on threads.

Whoever waits for the server reads its output. A caller waiting for its reply
(or for an event) takes the read baton and reads the pipe itself, so that a
reply reaches its caller without a hand-off between threads: handing every
reply from a reader thread to its caller cost two thirds of a call. One thread
reads at a time; a reply it finds for another caller is handed to that caller
at once, and once its own has come it passes the baton to a caller still
waiting. While nobody waits, a watcher thread reads, so that callbacks get
their events and the end of the server is noticed; it gives the baton up as
soon as a caller asks, and takes it back only after callers have left it alone
for IDLE_GRACE, so that a run of calls pays no hand-off at all. A second
thread drains stderr; callbacks run on a third, started on demand.
"""

import fcntl
import logging
import math
import os
import queue
import select
import subprocess
import threading
import time
from typing import Any, Callable, Dict, Generic, Iterator, List, Mapping, Optional, Sequence, Tuple, TypeVar, cast

from . import errors
from ._core import Callback, Core, Event, Pending, Predicate, SubscriptionState, describe_wait, fields_of, matcher
from ._launch import StderrLogger, StderrTail, command_line, find_binary
from ._methods import SyncMethods

log = logging.getLogger("bunting")

_WAIT_FOREVER = threading.TIMEOUT_MAX
_monotonic = time.monotonic


def _seconds(timeout: Optional[float], default: Optional[float]) -> float:
    """A timeout for the threading primitives: None → the default, inf/None default → forever."""
    value = default if timeout is None else timeout
    if value is None or value == math.inf or value > _WAIT_FOREVER:
        return _WAIT_FOREVER
    return max(0.0, float(value))


def _outcome_or_error(pending: Pending) -> Any:
    if pending.exception is not None:
        raise pending.exception
    if pending.error is not None:
        return errors.from_wire(pending.error, pending.method)
    return pending.result


#: How long callers must leave the pipe alone before the watcher reads it again: a
#: caller that finds the watcher reading pays a hand-off, one every IDLE_GRACE at most.
IDLE_GRACE = 0.02


def _poll_ms(seconds: float) -> Optional[int]:
    """A poll() timeout in milliseconds: None blocks (poll takes at most a C int, some 24 days)."""
    return None if seconds >= 2_000_000 else max(0, math.ceil(seconds * 1000))


class _Waiter:
    """What a caller blocks on: released when its reply came, when the connection
    ended, or when it is its turn to read (the pendings of a batch share one)."""

    __slots__ = ("lock", "woken")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.lock.acquire()
        #: released and not yet taken again by its caller (guards against a second release)
        self.woken = False


#: The events of a subscription: a TypedDict of bunting.events (plain dicts at run time).
E = TypeVar("E")


class Subscription(Generic[E]):
    """A subscription and the queue of its events (dicts: the notification's params).

    Events wait in the queue until taken: `next_event` takes the oldest,
    `wait_for` the oldest that matches (leaving the others queued), iterating
    takes them one by one until the subscription is removed or the client closes.
    With a callback, events go to the callback instead and the queue stays empty.

    `subscribe` makes a `Subscription[ChannelEvent]`, `subscribe_to_definitions` a
    `Subscription[DefinitionsEvent]` and `subscribe_to_updates` a
    `Subscription[UpdatesEvent]` (bunting.events), so that a type checker knows the
    keys of what `next_event` and `wait_for` return.
    """

    __slots__ = ("_client", "_state")

    def __init__(self, client: "Bunting", state: SubscriptionState):
        self._client = client
        self._state = state

    @property
    def id(self) -> Any:
        """The server's subscriptionId."""
        return self._state.id

    @property
    def notification(self) -> str:
        """The notification method its events come in: event, updates or definitions."""
        return self._state.notification

    @property
    def ended(self) -> bool:
        """Whether it was removed (queued events can still be taken)."""
        return self._state.ended

    def next_event(self, timeout: Optional[float] = None) -> E:
        """Takes the oldest queued event, waiting for one if none is queued.

        Raises EventTimeout after `timeout` seconds (default: the client's
        call_timeout; math.inf waits without limit), SubscriptionEnded once it was
        removed and is empty, ClientClosed or ServerExited when the connection ended.
        """
        return cast(E, self._client._take(self._state, None, timeout, "event on %s" % self.id))

    def wait_for(self, type: Any = None, reason: Any = None, action: Any = None, *,
                 match: Optional[Callable[[E], Any]] = None, timeout: Optional[float] = None, **fields: Any) -> E:
        """Takes the oldest event whose fields match, waiting for one if needed.

        Each given field must equal the event's (a tuple, list or set: be one of
        them), as must any other field given by keyword (`channel=...`); `match`
        is an extra predicate. Events already queued are looked at first; events
        that do not match stay queued, in order. Raises as `next_event` does.
        """
        wanted = fields_of(type, reason, action, extra=fields)
        return cast(E, self._client._take(self._state, matcher(wanted, match), timeout,
                                          describe_wait("on %s" % self.id, wanted, match)))

    def pending(self) -> List[E]:
        """The events queued now, oldest first, without taking them."""
        with self._client._lock:
            return [cast(E, event) for _, event in self._state.queue]

    def drain(self) -> List[E]:
        """Takes every event queued now, oldest first, without waiting."""
        with self._client._lock:
            events = [cast(E, event) for _, event in self._state.queue]
            self._state.queue.clear()
            return events

    def __iter__(self) -> Iterator[E]:
        while True:
            try:
                yield cast(E, self._client._take(self._state, None, math.inf, "event on %s" % self.id))
            except (errors.SubscriptionEnded, errors.ClientClosed):
                return

    def remove(self, timeout: Optional[float] = None) -> bool:
        """Ends the subscription (`removeSubscription`); returns whether the server had it."""
        if self._state.ended:
            return False
        result = self._client.remove_subscription(self.id, timeout=timeout)
        return bool(result.get("removed")) if isinstance(result, dict) else False

    def __enter__(self) -> "Subscription[E]":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if not self._state.ended and self._client.alive:
            self.remove()

    def __repr__(self) -> str:
        return "<Subscription %s (%s)%s>" % (self.id, self.notification, " ended" if self.ended else "")


class Bunting(SyncMethods):
    """A `bunting serve` child process and the connection to it.

    Make one with `Bunting.spawn(...)`; use it as a context manager, or call
    `close()`. Every protocol method is a method here (see SyncMethods); methods
    the document does not list yet can be called with `call()`.
    """

    def __init__(self, process: "subprocess.Popen[bytes]", framing: str = "ndjson", *,
                 call_timeout: Optional[float] = 30.0, close_timeout: float = 5.0,
                 stderr: Optional[StderrTail] = None):
        self._process = process
        self._core = Core(framing)
        self.call_timeout = call_timeout
        self.close_timeout = close_timeout
        self._lock = threading.Lock()  # guards _core and the fields below
        self._events = threading.Condition(self._lock)  # notified when events arrive, a reader leaves, or the end
        self._watch = threading.Condition(self._lock)  # wakes the watcher: the end of output, or close()
        self._write_lock = threading.Lock()  # one frame at a time on stdin
        self._lost: Optional[Callable[[], BaseException]] = None  # makes the error once the connection ended
        self._closing = False
        self._shutdown_sent = False
        self._stdin_fd = process.stdin.fileno()  # type: ignore[union-attr]
        self._stdout_fd = process.stdout.fileno()  # type: ignore[union-attr]
        # The read baton: only its holder reads stdout.
        self._reading = threading.Lock()
        self._watcher_reads = False  # whether the watcher holds the baton (a caller then asks for it)
        self._baton_taken = 0  # how often a caller took the baton: the watcher keeps off while it grows
        self._baton_given = 0  # how often the baton was given back: an event waiter looks again
        self._event_waiters = 0
        self._output_ended = False  # stdout reached its end or cannot be read: nobody reads again
        self._output_failure: Optional[BaseException] = None
        self._wake_read, self._wake_write = os.pipe()  # a caller's byte makes the watcher give the baton up
        for fd in (self._wake_read, self._wake_write):
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
        self._caller_poll = select.poll()
        self._caller_poll.register(self._stdout_fd, select.POLLIN)
        self.stderr = stderr or StderrTail()
        self._callbacks: Optional["queue.SimpleQueue[Any]"] = None
        self._callback_thread: Optional[threading.Thread] = None
        self._stderr_thread = threading.Thread(target=self._drain_stderr, name="bunting-stderr", daemon=True)
        self._watcher = threading.Thread(target=self._watch_output, name="bunting-watcher", daemon=True)
        self._stderr_thread.start()
        self._watcher.start()

    @classmethod
    def spawn(cls, binary: Optional[str] = None, framing: str = "ndjson", *,
              call_timeout: Optional[float] = 30.0, close_timeout: float = 5.0,
              stderr_logger: StderrLogger = None, stderr_lines: int = 200,
              env: Optional[Mapping[str, str]] = None, cwd: Optional[str] = None,
              args: Sequence[str] = (), **serve_options: Any) -> "Bunting":
        """Starts `bunting serve` and connects to it.

        Args:
            binary: the binary; default $BUNTING_BIN, the PATH, then .build/release/bunting
                in the current directory or a parent.
            framing: "ndjson" (default) or "lsp"; passed on as --framing.
            call_timeout: default seconds to wait for a reply or an event (None: no limit).
            close_timeout: seconds close() waits for the server to exit before killing it.
            stderr_logger: a logging.Logger (or its name, or True for "bunting.server")
                that receives the server's stderr lines.
            stderr_lines: how many of the last stderr lines to keep for error messages.
            env, cwd: the child's environment and working directory.
            args: extra command-line arguments, passed as they are.
            **serve_options: `bunting serve` flags: definitions="x" → --definitions x,
                poll_interval=1 → --poll-interval 1, header=[...] repeats, True is a bare flag.
        """
        argv = command_line(find_binary(binary), framing, serve_options, args)
        tail = StderrTail(stderr_lines, stderr_logger)
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, bufsize=0, env=env, cwd=cwd)
        return cls(process, framing, call_timeout=call_timeout, close_timeout=close_timeout, stderr=tail)

    # The connection ---------------------------------------------------------

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def framing(self) -> str:
        return self._core.framing

    @property
    def returncode(self) -> Optional[int]:
        return self._process.poll()

    @property
    def alive(self) -> bool:
        """Whether requests can still be sent."""
        return self._lost is None and not self._closing

    def stderr_tail(self) -> List[str]:
        """The server's last stderr lines."""
        return self.stderr.lines()

    def call(self, method: str, params: Optional[Dict[str, Any]] = None, *, timeout: Optional[float] = None) -> Any:
        """Calls any method by its wire name with wire (camelCase) params."""
        return self._request(method, params, timeout)

    def notify(self, method: str, params: Optional[Dict[str, Any]] = None) -> None:
        """Sends a notification: the method runs, nothing is answered."""
        with self._lock:
            self._raise_if_lost()
            frame = self._core.notification_frame(method, params)
        self._write(frame, None)

    def batch(self, calls: Sequence[Tuple[str, Optional[Dict[str, Any]]]], *,
              timeout: Optional[float] = None) -> List[Any]:
        """Sends (method, wire params) calls as one JSON-RPC batch. Returns, in order,
        each call's result or its RPCError (returned, not raised)."""
        waiter = _Waiter()
        with self._lock:
            self._raise_if_lost()
            pendings, frame = self._core.batch(calls)
            for pending in pendings:
                pending.waiter = waiter
                if pending.method == "shutdown":
                    self._shutdown_sent = True
        self._write(frame, None)
        self._await(pendings, waiter, _seconds(timeout, self.call_timeout), "a batch of %d" % len(pendings))
        return [_outcome_or_error(pending) for pending in pendings]

    def unattributed_errors(self) -> List[errors.RPCError]:
        """Errors the server sent with id null (about messages it could not read), newest last."""
        with self._lock:
            return list(self._core.unattributed)

    def _request(self, method: str, params: Optional[Dict[str, Any]], timeout: Optional[float],
                 notification: Optional[str] = None, callback: Optional[Callback] = None,
                 closing: bool = False) -> Any:
        waiter = _Waiter()
        with self._lock:
            if self._lost is not None or self._closing:
                self._raise_if_lost(closing)
            pending, frame = self._core.request(method, params, notification, callback)
            pending.waiter = waiter
            if method == "shutdown":
                self._shutdown_sent = True
        self._write(frame, pending)
        self._await((pending,), waiter, _seconds(timeout, self.call_timeout), method)
        return pending.outcome()

    def _await(self, pendings: Sequence[Pending], waiter: _Waiter, seconds: float, what: str) -> None:
        """Returns once every one of `pendings` is done, reading the output itself
        while nobody else does; raises RequestTimeout after `seconds`."""
        deadline = _monotonic() + seconds
        last = pendings[-1]  # replies come in order: the last done means all are
        poll = self._caller_poll.poll
        while not last.done:
            remaining = deadline - _monotonic()
            if remaining > 0 and self._take_baton():
                # The usual call: its caller reads the reply itself (the loop is _read, inlined).
                try:
                    while not last.done and not self._output_ended:
                        remaining = deadline - _monotonic()
                        if remaining <= 0:
                            break
                        if poll(_poll_ms(remaining)):
                            self._read_available()
                finally:
                    self._give_baton(waiter)
                if last.done:
                    break
                remaining = deadline - _monotonic()
            if remaining > 0 and waiter.lock.acquire(timeout=min(remaining, _WAIT_FOREVER)):
                with self._lock:
                    waiter.woken = False
                continue
            with self._lock:
                if not last.done:
                    for pending in pendings:
                        self._core.abandon(pending)
                    raise errors.RequestTimeout(what, seconds)

    def _subscribe(self, method: str, params: Optional[Dict[str, Any]], notification: str,
                   callback: Optional[Callback], timeout: Optional[float]) -> Optional[Subscription[Any]]:
        state = self._request(method, params, timeout, notification, callback)
        return Subscription(self, state) if state is not None else None

    def _write(self, frame: bytes, pending: Optional[Pending]) -> None:
        try:
            with self._write_lock:  # one frame at a time: a large one takes several writes
                written = os.write(self._stdin_fd, frame)
                if written < len(frame):  # a frame larger than the pipe takes several writes
                    view = memoryview(frame)[written:]
                    while view:
                        view = view[os.write(self._stdin_fd, view):]
        except OSError:
            # The server is gone; the watcher is about to find out why (its exit status, stderr).
            self._watcher.join(self.close_timeout)
            with self._lock:
                if pending is not None:
                    self._core.abandon(pending)
                self._raise_if_lost()
            raise errors.ServerExited(self._process.poll(), self.stderr.lines(), "it stopped reading requests")

    def _raise_if_lost(self, closing: bool = False) -> None:
        if self._lost is not None:
            raise self._lost()
        if self._closing and not closing:
            raise errors.ClientClosed("the client was closed")

    # Reading --------------------------------------------------------------

    def _take_baton(self) -> bool:
        """Takes the read baton if it is free; asks the watcher for it if the watcher holds it."""
        if self._output_ended:
            return False
        if self._reading.acquire(False):
            self._baton_taken += 1
            return True
        if self._watcher_reads:
            try:
                os.write(self._wake_write, b"!")
            except BlockingIOError:
                pass  # the pipe is full of the same request already
        return False

    def _give_baton(self, mine: Optional[_Waiter] = None) -> None:
        """Gives the baton back, and wakes a caller (other than `mine`) that waits for a
        reply nobody is reading now, or else the event waiters."""
        self._reading.release()
        if not self._core.pending and not self._event_waiters:
            return  # nobody waits: the usual end of a call (read without the lock: see _take)
        with self._lock:
            self._baton_given += 1
            for pending in self._core.pending.values():
                waiter = pending.waiter
                if not pending.done and waiter is not None and waiter is not mine:
                    if not waiter.woken:
                        waiter.woken = True
                        waiter.lock.release()
                    break
            if self._event_waiters:
                self._events.notify_all()

    def _read(self, timeout: float) -> None:
        """With the baton: reads and routes what the server wrote, waiting at most `timeout` seconds."""
        if self._caller_poll.poll(_poll_ms(timeout)):
            self._read_available()

    def _read_available(self) -> None:
        try:
            data = os.read(self._stdout_fd, 65536)
        except OSError as error:
            self._end_of_output(errors.ProtocolError("reading the server's output failed: %s" % error))
            return
        if not data:
            self._end_of_output(None)
            return
        try:
            with self._lock:
                fed = self._core.feed(data)
                if fed.arrived:
                    self._events.notify_all()
                for pending in fed.completed:
                    waiter = pending.waiter
                    if waiter is not None and not waiter.woken:
                        waiter.woken = True
                        waiter.lock.release()
        except errors.ProtocolError as error:
            self._end_of_output(error)
            return
        if fed.deliveries:
            self._deliver(fed.deliveries)

    def _end_of_output(self, failure: Optional[BaseException]) -> None:
        """Nobody reads again; the watcher ends the connection (it waits for the exit status)."""
        with self._lock:
            self._output_ended = True
            self._output_failure = failure
            self._watch.notify_all()

    def _watch_output(self) -> None:
        """The watcher: reads while no caller does, then ends the connection."""
        poller = select.poll()
        poller.register(self._stdout_fd, select.POLLIN)
        poller.register(self._wake_read, select.POLLIN)
        seen = -1
        while True:
            with self._lock:
                if self._output_ended:
                    break
                closing = self._closing
                busy = self._baton_taken != seen or self._event_waiters
                seen = self._baton_taken
                if busy and not closing:
                    # Callers are reading: keep off until they have left the pipe alone for a while.
                    self._watch.wait(IDLE_GRACE)
                    continue
            # Once the client closes, the end of output is the watcher's to find, as soon as it may read.
            if not (self._reading.acquire(timeout=IDLE_GRACE) if closing else self._reading.acquire(False)):
                seen = -1
                continue
            self._watcher_reads = True
            try:
                asked = False
                while not asked and not self._output_ended:
                    for fd, _ in poller.poll():
                        if fd == self._wake_read:
                            asked = True
                            try:
                                while os.read(self._wake_read, 512):
                                    pass
                            except BlockingIOError:
                                pass
                        else:
                            self._read_available()
            finally:
                self._watcher_reads = False
                self._give_baton()
            seen = -1
        self._connection_lost(self._output_failure)

    def _connection_lost(self, failure: Optional[BaseException]) -> None:
        if failure is not None:
            # A corrupt stream cannot be followed any further; the server must not run on unread.
            self._process.kill()
        if not self._closing and not self._shutdown_sent:
            try:
                self._process.wait(self.close_timeout)
            except subprocess.TimeoutExpired:
                pass
            self.stderr.finished.wait(self.close_timeout)
        returncode = self._process.poll()
        tail = self.stderr.lines()

        def make() -> BaseException:
            if failure is not None:
                return errors.ProtocolError("%s; the server's last stderr lines: %s" % (failure, tail[-5:]))
            if self._closing or self._shutdown_sent:
                return errors.ClientClosed("the client was closed" if self._closing else "the server was shut down")
            return errors.ServerExited(returncode, tail)

        with self._lock:
            self._lost = make
            for pending in self._core.fail_all(make):
                waiter = pending.waiter
                if waiter is not None and not waiter.woken:
                    waiter.woken = True
                    waiter.lock.release()
            self._events.notify_all()
        if self._callbacks is not None:
            self._callbacks.put(None)

    def _drain_stderr(self) -> None:
        fd = self._process.stderr.fileno()  # type: ignore[union-attr]
        try:
            while True:
                data = os.read(fd, 65536)
                if not data:
                    break
                self.stderr.feed(data)
        except OSError:
            pass
        finally:
            self.stderr.finish()

    def _deliver(self, deliveries: List[Tuple[Callback, Event]]) -> None:
        if self._callbacks is None:
            self._callbacks = queue.SimpleQueue()
            self._callback_thread = threading.Thread(target=self._run_callbacks, name="bunting-callbacks",
                                                     daemon=True)
            self._callback_thread.start()
        for delivery in deliveries:
            self._callbacks.put(delivery)

    def _run_callbacks(self) -> None:
        assert self._callbacks is not None
        while True:
            delivery = self._callbacks.get()
            if delivery is None:
                return
            callback, event = delivery
            try:
                callback(event)
            except Exception:
                log.exception("a Bunting event callback raised")

    def _take(self, state: Optional[SubscriptionState], predicate: Optional[Predicate],
              timeout: Optional[float], what: str, notification: Optional[str] = None) -> Event:
        if state is not None and state.callback is not None:
            raise TypeError("the events of %s go to its callback, not to a queue" % state.id)
        seconds = _seconds(timeout, self.call_timeout)
        deadline = time.monotonic() + seconds
        with self._lock:
            self._event_waiters += 1
        try:
            while True:
                with self._lock:
                    event = (self._core.take(state, predicate) if state is not None
                             else self._core.take_any(predicate, notification))
                    if event is not None:
                        return event
                    if state is not None and state.ended:
                        raise errors.SubscriptionEnded("%s was removed" % state.id)
                    self._raise_if_lost()
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        seen = ([event for _, event in state.queue] if state is not None
                                else self._core.queued(notification))
                        raise errors.EventTimeout(what, seconds, seen)
                    given = self._baton_given
                if self._take_baton():
                    try:
                        self._read(remaining)
                    finally:
                        self._give_baton()
                    continue
                with self._lock:
                    # Whoever reads notifies when events arrive or it gives the baton back.
                    if self._baton_given == given and not self._lost:
                        self._events.wait(remaining)
        finally:
            with self._lock:
                self._event_waiters -= 1

    # Events across subscriptions ------------------------------------------

    def wait_for(self, type: Any = None, channel: Any = None, reason: Any = None, action: Any = None, *,
                 match: Optional[Predicate] = None, timeout: Optional[float] = None,
                 notification: Optional[str] = None, **fields: Any) -> Event:
        """Takes the oldest queued event of any subscription that matches, waiting if needed.

        Fields match as in Subscription.wait_for. Every subscription's events are
        looked at, the definitions' too (they have no `channel`, so a wait that names
        a channel never takes one), as the Node client's `waitFor` does;
        `notification="event"` keeps to channel events.
        """
        wanted = fields_of(type, reason, action, channel, fields)
        return self._take(None, matcher(wanted, match), timeout, describe_wait("", wanted, match), notification)

    def queued_events(self, notification: Optional[str] = None) -> List[Event]:
        """Every event queued now on any subscription, in arrival order, without taking them."""
        with self._lock:
            return self._core.queued(notification)

    # Ending -----------------------------------------------------------------

    def close(self, timeout: Optional[float] = None) -> Optional[int]:
        """Sends `shutdown`, waits for the server to exit, and kills it only if it has
        not exited within `timeout` (default close_timeout) seconds. Returns its exit
        status (negative: the signal that killed it). Safe to call more than once."""
        seconds = self.close_timeout if timeout is None else timeout
        deadline = time.monotonic() + seconds
        with self._lock:
            already = self._closing
            usable = self._lost is None and not self._shutdown_sent
            self._closing = True
            self._watch.notify_all()  # from now on the watcher reads: the end of output is its to find
        if already:
            return self._process.wait()
        if usable:
            try:
                self._request("shutdown", None, seconds, closing=True)
            except errors.BuntingError:
                pass  # a server that does not answer is killed below
        try:
            self._process.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        try:
            self._process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.warning("bunting serve (pid %d) did not exit within %g s; killing it", self.pid, seconds)
            self._process.kill()
            self._process.wait()
        self._watcher.join(seconds)
        self._stderr_thread.join(seconds)
        if self._callback_thread is not None and self._callback_thread is not threading.current_thread():
            self._callback_thread.join(seconds)
        for stream in (self._process.stdout, self._process.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
        if not self._watcher.is_alive():
            for fd in (self._wake_read, self._wake_write):
                os.close(fd)
        return self._process.returncode

    def kill(self) -> None:
        """Kills the server at once (SIGKILL), without shutdown."""
        self._process.kill()

    def __enter__(self) -> "Bunting":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "alive" if self.alive else "closed"
        return "<Bunting pid %d %s %s>" % (self.pid, self.framing, state)
