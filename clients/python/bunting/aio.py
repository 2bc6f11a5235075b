"""`AsyncBunting`: the client on asyncio, with the methods of `Bunting` as coroutines.

    async with AsyncBunting.spawn(storage=":memory:") as bunting:
        flags = await bunting.subscribe("featureFlags")
        await bunting.change_user("ada")
        print(await flags.wait_for(type="DATA_UPDATED"))

The child's pipes feed the same protocol core as the thread client straight
from the event loop's pipe callbacks (stdout routed, stderr kept), so a reply
wakes its caller without a reader task in between; callbacks (plain or
coroutine functions) run in order on a task of their own. Everything runs on
the event loop that spawned the server.
"""

import asyncio
import inspect
import logging
import math
from typing import (Any, Awaitable, Callable, Dict, Generator, Generic, List, Mapping, Optional, Sequence, Tuple,
                    TypeVar, cast)

from . import errors
from ._core import Callback, Core, Event, Pending, Predicate, SubscriptionState, describe_wait, fields_of, matcher
from ._launch import StderrLogger, StderrTail, command_line, find_binary
from ._methods import AsyncMethods

log = logging.getLogger("bunting")


def _seconds(timeout: Optional[float], default: Optional[float]) -> Optional[float]:
    """None → the default; no default or math.inf → None (no limit)."""
    value = default if timeout is None else timeout
    if value is None or value == math.inf:
        return None
    return max(0.0, float(value))


#: The events of a subscription: a TypedDict of bunting.events (plain dicts at run time).
E = TypeVar("E")


class AsyncSubscription(Generic[E]):
    """A subscription and the queue of its events; see bunting.client.Subscription."""

    __slots__ = ("_client", "_state")

    def __init__(self, client: "AsyncBunting", state: SubscriptionState):
        self._client = client
        self._state = state

    @property
    def id(self) -> Any:
        return self._state.id

    @property
    def notification(self) -> str:
        return self._state.notification

    @property
    def ended(self) -> bool:
        return self._state.ended

    async def next_event(self, timeout: Optional[float] = None) -> E:
        """Takes the oldest queued event, waiting for one if none is queued."""
        return cast(E, await self._client._take(self._state, None, timeout, "event on %s" % self.id))

    async def wait_for(self, type: Any = None, reason: Any = None, action: Any = None, *,
                       match: Optional[Callable[[E], Any]] = None, timeout: Optional[float] = None,
                       **fields: Any) -> E:
        """Takes the oldest event whose fields match (queued ones first), waiting if needed."""
        wanted = fields_of(type, reason, action, extra=fields)
        return cast(E, await self._client._take(self._state, matcher(wanted, match), timeout,
                                                describe_wait("on %s" % self.id, wanted, match)))

    def pending(self) -> List[E]:
        return [cast(E, event) for _, event in self._state.queue]

    def drain(self) -> List[E]:
        events = [cast(E, event) for _, event in self._state.queue]
        self._state.queue.clear()
        return events

    def __aiter__(self) -> "AsyncSubscription[E]":
        return self

    async def __anext__(self) -> E:
        try:
            return cast(E, await self._client._take(self._state, None, math.inf, "event on %s" % self.id))
        except (errors.SubscriptionEnded, errors.ClientClosed):
            raise StopAsyncIteration from None

    async def remove(self, timeout: Optional[float] = None) -> bool:
        if self._state.ended:
            return False
        result = await self._client.remove_subscription(self.id, timeout=timeout)
        return bool(result.get("removed")) if isinstance(result, dict) else False

    async def __aenter__(self) -> "AsyncSubscription[E]":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        if not self._state.ended and self._client.alive:
            await self.remove()

    def __repr__(self) -> str:
        return "<AsyncSubscription %s (%s)%s>" % (self.id, self.notification, " ended" if self.ended else "")


class _Spawning:
    """What AsyncBunting.spawn returns: await it, or use it with `async with`."""

    def __init__(self, start: Callable[[], Awaitable["AsyncBunting"]]):
        self._start = start
        self._client: Optional["AsyncBunting"] = None

    def __await__(self) -> Generator[Any, None, "AsyncBunting"]:
        return self._start().__await__()

    async def __aenter__(self) -> "AsyncBunting":
        self._client = await self._start()
        return self._client

    async def __aexit__(self, *exc_info: Any) -> None:
        if self._client is not None:
            await self._client.close()


class _Pipes(asyncio.SubprocessProtocol):
    """Hands the child's output straight to the client, without a reader task in between."""

    def __init__(self, client: "AsyncBunting"):
        self._client = client

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 1:
            self._client._on_output(data)
        elif fd == 2:
            self._client.stderr.feed(data)
            self._client._wake_stderr()

    def pipe_connection_lost(self, fd: int, exc: Optional[Exception]) -> None:
        if fd == 1:
            self._client._on_output_closed()
        elif fd == 2:
            self._client.stderr.finish()
            _settle(self._client._stderr_done)
            self._client._wake_stderr()

    def process_exited(self) -> None:
        _settle(self._client._exited)

    def pause_writing(self) -> None:
        self._client._writable = self._client._loop.create_future()

    def resume_writing(self) -> None:
        _settle(self._client._writable)
        self._client._writable = None


def _settle(future: "Optional[asyncio.Future[None]]") -> None:
    if future is not None and not future.done():
        future.set_result(None)


class AsyncBunting(AsyncMethods):
    """A `bunting serve` child process driven from asyncio.

    Make one with `await AsyncBunting.spawn(...)` (or `async with AsyncBunting.spawn(...)`).
    """

    def __init__(self, framing: str = "ndjson", *, call_timeout: Optional[float] = 30.0,
                 close_timeout: float = 5.0, stderr: Optional[StderrTail] = None):
        self._loop = asyncio.get_running_loop()
        self._core = Core(framing)
        self.call_timeout = call_timeout
        self.close_timeout = close_timeout
        self.stderr = stderr or StderrTail()
        self._transport: Optional[asyncio.SubprocessTransport] = None
        self._stdin: Any = None
        self._writable: "Optional[asyncio.Future[None]]" = None  # set while the stdin pipe is full
        self._exited: "asyncio.Future[None]" = self._loop.create_future()
        self._stderr_done: "asyncio.Future[None]" = self._loop.create_future()
        self._ended: "asyncio.Future[None]" = self._loop.create_future()  # the connection-lost work is done
        self._lost: Optional[Callable[[], BaseException]] = None
        self._failure: Optional[BaseException] = None
        self._closing = False
        self._shutdown_sent = False
        self._event_waiters: List["asyncio.Future[None]"] = []
        self._stderr_waiters: List["asyncio.Future[None]"] = []
        self._callbacks: Optional["asyncio.Queue[Any]"] = None
        self._callback_task: Optional["asyncio.Task[None]"] = None

    @classmethod
    def spawn(cls, binary: Optional[str] = None, framing: str = "ndjson", *,
              call_timeout: Optional[float] = 30.0, close_timeout: float = 5.0,
              stderr_logger: StderrLogger = None, stderr_lines: int = 200,
              env: Optional[Mapping[str, str]] = None, cwd: Optional[str] = None,
              args: Sequence[str] = (), **serve_options: Any) -> _Spawning:
        """Starts `bunting serve`; takes the arguments of `Bunting.spawn`.

        `client = await AsyncBunting.spawn(...)`, or `async with AsyncBunting.spawn(...) as client:`.
        """

        async def start() -> "AsyncBunting":
            argv = command_line(find_binary(binary), framing, serve_options, args)
            client = cls(framing, call_timeout=call_timeout, close_timeout=close_timeout,
                         stderr=StderrTail(stderr_lines, stderr_logger))
            transport, _ = await client._loop.subprocess_exec(
                lambda: _Pipes(client), *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=env, cwd=cwd)
            client._transport = transport
            client._stdin = transport.get_pipe_transport(0)
            return client

        return _Spawning(start)

    # The connection ---------------------------------------------------------

    @property
    def pid(self) -> int:
        return self._transport.get_pid()  # type: ignore[union-attr]

    @property
    def framing(self) -> str:
        return self._core.framing

    @property
    def returncode(self) -> Optional[int]:
        return self._transport.get_returncode() if self._transport is not None else None

    @property
    def alive(self) -> bool:
        return self._lost is None and not self._closing

    def stderr_tail(self) -> List[str]:
        return self.stderr.lines()

    async def wait_for_stderr(self, predicate: Callable[[str], bool], timeout: float = 30.0) -> str:
        """Waits until a kept or new stderr line matches; returns it (see StderrTail.wait_for)."""
        deadline = self._loop.time() + timeout
        while True:
            found = self.stderr.find(predicate)
            if found is not None:
                return found
            remaining = deadline - self._loop.time()
            if self.stderr.finished.is_set() or remaining <= 0:
                raise errors.BuntingTimeout("no matching stderr line within %g s" % timeout)
            waiter = self._loop.create_future()
            self._stderr_waiters.append(waiter)
            await asyncio.wait({waiter}, timeout=remaining)

    def _wake_stderr(self) -> None:
        waiters, self._stderr_waiters = self._stderr_waiters, []
        for waiter in waiters:
            _settle(waiter)

    async def call(self, method: str, params: Optional[Dict[str, Any]] = None, *,
                   timeout: Optional[float] = None) -> Any:
        """Calls any method by its wire name with wire (camelCase) params."""
        return await self._request(method, params, timeout)

    async def notify(self, method: str, params: Optional[Dict[str, Any]] = None) -> None:
        """Sends a notification: the method runs, nothing is answered."""
        self._raise_if_lost()
        await self._write(self._core.notification_frame(method, params), None)

    async def batch(self, calls: Sequence[Tuple[str, Optional[Dict[str, Any]]]], *,
                    timeout: Optional[float] = None) -> List[Any]:
        """Sends (method, wire params) calls as one JSON-RPC batch. Returns, in order,
        each call's result or its RPCError (returned, not raised)."""
        self._raise_if_lost()
        pendings, frame = self._core.batch(calls)
        for pending in pendings:
            pending.waiter = self._loop.create_future()
            if pending.method == "shutdown":
                self._shutdown_sent = True
        await self._write(frame, None)
        seconds = _seconds(timeout, self.call_timeout)
        done, waiting = await asyncio.wait([pending.waiter for pending in pendings], timeout=seconds)
        if waiting:
            for pending in pendings:
                self._core.abandon(pending)
            raise errors.RequestTimeout("a batch of %d" % len(pendings), seconds or 0.0)
        results = []
        for pending in pendings:
            if pending.exception is not None:
                raise pending.exception
            results.append(errors.from_wire(pending.error, pending.method) if pending.error is not None
                           else pending.result)
        return results

    def unattributed_errors(self) -> List[errors.RPCError]:
        """Errors the server sent with id null (about messages it could not read), newest last."""
        return list(self._core.unattributed)

    async def _request(self, method: str, params: Optional[Dict[str, Any]], timeout: Optional[float],
                       notification: Optional[str] = None, callback: Optional[Callback] = None,
                       closing: bool = False) -> Any:
        self._raise_if_lost(closing)
        pending, frame = self._core.request(method, params, notification, callback)
        waiter = pending.waiter = self._loop.create_future()
        if method == "shutdown":
            self._shutdown_sent = True
        await self._write(frame, pending)
        seconds = _seconds(timeout, self.call_timeout)
        expiry = self._loop.call_later(seconds, self._expire, pending, seconds) if seconds is not None else None
        try:
            await waiter
        except asyncio.CancelledError:
            self._core.abandon(pending)
            raise
        finally:
            if expiry is not None:
                expiry.cancel()
        return pending.outcome()

    def _expire(self, pending: Pending, seconds: float) -> None:
        if not pending.waiter.done():
            self._core.abandon(pending)
            pending.exception = errors.RequestTimeout(pending.method, seconds)
            pending.waiter.set_result(None)

    async def _subscribe(self, method: str, params: Optional[Dict[str, Any]], notification: str,
                         callback: Optional[Callback], timeout: Optional[float]
                         ) -> Optional[AsyncSubscription[Any]]:
        state = await self._request(method, params, timeout, notification, callback)
        return AsyncSubscription(self, state) if state is not None else None

    async def _write(self, frame: bytes, pending: Optional[Pending]) -> None:
        if self._stdin.is_closing():
            # The server is gone; the connection-lost work is about to find out why.
            await asyncio.wait({self._ended}, timeout=self.close_timeout)
            if pending is not None:
                self._core.abandon(pending)
            self._raise_if_lost()
            raise errors.ServerExited(self.returncode, self.stderr.lines(), "it stopped reading requests")
        self._stdin.write(frame)
        if self._writable is not None:  # back-pressure: the pipe is full until the server reads
            await self._writable

    def _raise_if_lost(self, closing: bool = False) -> None:
        if self._lost is not None:
            raise self._lost()
        if self._closing and not closing:
            raise errors.ClientClosed("the client was closed")

    # The child's output -----------------------------------------------------

    def _on_output(self, data: bytes) -> None:
        if self._failure is not None:
            return
        try:
            fed = self._core.feed(data)
        except errors.ProtocolError as error:
            # A corrupt stream cannot be followed any further; the server must not run on unread.
            self._failure = error
            self._transport.kill()  # type: ignore[union-attr]
            return
        for pending in fed.completed:
            if not pending.waiter.done():
                pending.waiter.set_result(None)
        if fed.arrived:
            self._wake()
        if fed.deliveries:
            self._deliver(fed.deliveries)

    def _on_output_closed(self) -> None:
        self._loop.create_task(self._connection_lost())

    async def _connection_lost(self) -> None:
        failure = self._failure
        if not self._closing and not self._shutdown_sent:
            await asyncio.wait({self._exited}, timeout=self.close_timeout)
            await asyncio.wait({self._stderr_done}, timeout=self.close_timeout)
        returncode = self.returncode
        tail = self.stderr.lines()

        def make() -> BaseException:
            if failure is not None:
                return errors.ProtocolError("%s; the server's last stderr lines: %s" % (failure, tail[-5:]))
            if self._closing or self._shutdown_sent:
                return errors.ClientClosed("the client was closed" if self._closing else "the server was shut down")
            return errors.ServerExited(returncode, tail)

        self._lost = make
        for pending in self._core.fail_all(make):
            if not pending.waiter.done():
                pending.waiter.set_result(None)
        self._wake()
        if self._callbacks is not None:
            self._callbacks.put_nowait(None)
        _settle(self._ended)

    def _wake(self) -> None:
        waiters, self._event_waiters = self._event_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _deliver(self, deliveries: List[Tuple[Callback, Event]]) -> None:
        if self._callbacks is None:
            self._callbacks = asyncio.Queue()
            self._callback_task = self._loop.create_task(self._run_callbacks())
        for delivery in deliveries:
            self._callbacks.put_nowait(delivery)

    async def _run_callbacks(self) -> None:
        assert self._callbacks is not None
        while True:
            delivery = await self._callbacks.get()
            if delivery is None:
                return
            callback, event = delivery
            try:
                result = callback(event)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("a Bunting event callback raised")

    async def _take(self, state: Optional[SubscriptionState], predicate: Optional[Predicate],
                    timeout: Optional[float], what: str, notification: Optional[str] = None) -> Event:
        if state is not None and state.callback is not None:
            raise TypeError("the events of %s go to its callback, not to a queue" % state.id)
        seconds = _seconds(timeout, self.call_timeout)
        deadline = None if seconds is None else self._loop.time() + seconds
        while True:
            event = (self._core.take(state, predicate) if state is not None
                     else self._core.take_any(predicate, notification))
            if event is not None:
                return event
            if state is not None and state.ended:
                raise errors.SubscriptionEnded("%s was removed" % state.id)
            self._raise_if_lost()
            remaining = None if deadline is None else deadline - self._loop.time()
            if remaining is not None and remaining <= 0:
                seen = [event for _, event in state.queue] if state is not None else self._core.queued(notification)
                raise errors.EventTimeout(what, seconds or 0.0, seen)
            waiter = self._loop.create_future()
            self._event_waiters.append(waiter)
            try:
                await asyncio.wait({waiter}, timeout=remaining)
            finally:
                if not waiter.done():
                    waiter.cancel()
                    try:
                        self._event_waiters.remove(waiter)
                    except ValueError:
                        pass

    # Events across subscriptions ------------------------------------------

    async def wait_for(self, type: Any = None, channel: Any = None, reason: Any = None, action: Any = None, *,
                       match: Optional[Predicate] = None, timeout: Optional[float] = None,
                       notification: Optional[str] = None, **fields: Any) -> Event:
        """Takes the oldest queued event of any subscription that matches, waiting if needed."""
        wanted = fields_of(type, reason, action, channel, fields)
        return await self._take(None, matcher(wanted, match), timeout, describe_wait("", wanted, match),
                                notification)

    def queued_events(self, notification: Optional[str] = None) -> List[Event]:
        return self._core.queued(notification)

    # Ending -----------------------------------------------------------------

    async def close(self, timeout: Optional[float] = None) -> Optional[int]:
        """Sends `shutdown`, waits for the server to exit, kills it after `timeout`
        (default close_timeout) seconds; returns its exit status."""
        seconds = self.close_timeout if timeout is None else timeout
        deadline = self._loop.time() + seconds
        if self._closing:
            await self._exited
            return self.returncode
        usable = self._lost is None and not self._shutdown_sent
        self._closing = True
        if usable:
            try:
                await self._request("shutdown", None, seconds, closing=True)
            except errors.BuntingError:
                pass  # a server that does not answer is killed below
        self._stdin.close()
        await asyncio.wait({self._exited}, timeout=max(0.0, deadline - self._loop.time()))
        if not self._exited.done():
            log.warning("bunting serve (pid %d) did not exit within %g s; killing it", self.pid, seconds)
            self._transport.kill()  # type: ignore[union-attr]
            await self._exited
        await asyncio.wait({self._ended, self._stderr_done}, timeout=seconds)
        if self._callback_task is not None and self._callback_task is not asyncio.current_task():
            await asyncio.wait({self._callback_task}, timeout=seconds)
        self._transport.close()  # type: ignore[union-attr]
        return self.returncode

    def kill(self) -> None:
        """Kills the server at once (SIGKILL), without shutdown."""
        self._transport.kill()  # type: ignore[union-attr]

    async def __aenter__(self) -> "AsyncBunting":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.close()

    def __repr__(self) -> str:
        return "<AsyncBunting pid %d %s %s>" % (self.pid, self.framing, "alive" if self.alive else "closed")
