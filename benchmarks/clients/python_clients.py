#!/usr/bin/env python3
"""The Python side of the clients benchmark: what a resolution costs through each
client and each paradigm, next to the raw pipe and to flagd's evaluator in-process.

    python_clients.py --binary PATH --workload PATH [--rounds N] [--round-trips N]
                      [--reads N] --json OUT

Two groups of modes, each run in every round in a rotating order, every mode on a
server of its own (the release binary, `--storage :memory:`):

- Round trips, a context per call from the workload's targeting keys (the
  server-side paradigm): `evaluateFlag` written to the pipe and its reply read back
  with nothing else (raw pipe, the baseline), the same with the reply read by a
  second thread and handed over through a lock, the same with each request encoded
  and each reply decoded by `json` (the least a client does), `Bunting.evaluate_flag`, the
  dynamic `BuntingProvider`; and on asyncio, the raw pipe read by a protocol of the
  event loop (the asyncio baseline), `AsyncBunting.evaluate_flag` and the dynamic
  `AsyncBuntingProvider`'s `resolve_boolean_details_async`. Each sample is one call.
- Resolutions in the OpenFeature style, for three workloads (the attribute rule for
  one user and for the targeting keys, the 25/75 rollout for one user):
  openfeature-flagd-core called directly and behind a five-line provider through
  the OpenFeature client (`get_boolean_value`), and Bunting's providers: static (a
  look-up; one-user workloads only) and dynamic, on the provider itself and through
  the same OpenFeature client. Samples are blocks of 100 calls, per call.

Before timing, every workload's answers are checked to be the same from Bunting and
from flagd-core. Writes the samples' statistics as JSON for report.py.
"""

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python"))

from openfeature import api  # noqa: E402
from openfeature.contrib.tools.flagd.core import FlagdCore  # noqa: E402
from openfeature.evaluation_context import EvaluationContext  # noqa: E402
from openfeature.provider import AbstractProvider, Metadata  # noqa: E402

from bunting import AsyncBunting, Bunting  # noqa: E402
from bunting.openfeature import AsyncBuntingProvider, BuntingProvider  # noqa: E402

BLOCK = 100


class FlagdCoreProvider(AbstractProvider):
    """The peer: flagd's evaluator in-process behind the least provider there is."""

    def __init__(self, document: Dict[str, Any]):
        super().__init__()
        self.core = FlagdCore()
        self.core.set_flags(document)

    def get_metadata(self) -> Metadata:
        return Metadata(name="flagd-core")

    def resolve_boolean_details(self, flag_key, default_value, evaluation_context=None):
        return self.core.resolve_boolean_value(flag_key, default_value, evaluation_context)

    def resolve_string_details(self, flag_key, default_value, evaluation_context=None):
        return self.core.resolve_string_value(flag_key, default_value, evaluation_context)

    def resolve_integer_details(self, flag_key, default_value, evaluation_context=None):
        return self.core.resolve_integer_value(flag_key, default_value, evaluation_context)

    def resolve_float_details(self, flag_key, default_value, evaluation_context=None):
        return self.core.resolve_float_value(flag_key, default_value, evaluation_context)

    def resolve_object_details(self, flag_key, default_value, evaluation_context=None):
        return self.core.resolve_object_value(flag_key, default_value, evaluation_context)


def evaluation_context(context: Dict[str, Any]) -> EvaluationContext:
    return EvaluationContext(context["targetingKey"], {k: v for k, v in context.items() if k != "targetingKey"})


class Setting:
    def __init__(self, options: argparse.Namespace):
        self.binary = options.binary
        made = json.loads(Path(options.workload).read_text())
        self.document = made["document"]
        self.definitions = str(Path(options.workload).with_suffix(".definitions.json"))
        self.contexts: List[Dict[str, Any]] = made["contexts"]
        self.one_user: Dict[str, Any] = made["oneUser"]
        self.round_trips = options.round_trips
        self.reads = options.reads

    def spawn(self) -> Bunting:
        return Bunting.spawn(self.binary, storage=":memory:", definitions=self.definitions)


# Round trips -----------------------------------------------------------------

def request(request_id: int, flag: str, context: Dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "evaluateFlag",
                       "params": {"flagKey": flag, "context": context, "type": "boolean"}},
                      separators=(",", ":")).encode() + b"\n"


class RawPipe:
    """The baseline: each request's bytes written (encoded before timing), its reply read back."""

    def __init__(self, setting: Setting):
        self.setting = setting
        self.process = subprocess.Popen([setting.binary, "serve", "--framing", "ndjson", "--storage", ":memory:",
                                         "--definitions", setting.definitions],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        bufsize=0)
        self.fd = self.process.stdin.fileno()
        self.out = os.fdopen(os.dup(self.process.stdout.fileno()), "rb", buffering=65536)
        self.frames = [request(index + 1, "attribute-rule", context) for index, context in enumerate(setting.contexts)]

    def run(self, count: int) -> List[int]:
        write, fd, readline, clock, frames = os.write, self.fd, self.out.readline, time.perf_counter_ns, self.frames
        samples = []
        for index in range(count):
            start = clock()
            write(fd, frames[index % len(frames)])
            reply = readline()
            samples.append(clock() - start)
        assert b'"value":' in reply, reply
        return samples

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)
        self.out.close()


class ThreadedPipe(RawPipe):
    """The raw pipe with each reply read by a second thread and handed over through a
    lock: what a client with a reader thread pays at least."""

    def run(self, count: int) -> List[int]:
        replies: List[bytes] = []
        ready = threading.Lock()
        ready.acquire()

        def read() -> None:
            for _ in range(count):
                replies.append(self.out.readline())
                ready.release()

        reader = threading.Thread(target=read)
        reader.start()
        write, fd, clock, frames = os.write, self.fd, time.perf_counter_ns, self.frames
        samples = []
        for index in range(count):
            start = clock()
            write(fd, frames[index % len(frames)])
            ready.acquire()
            samples.append(clock() - start)
        reader.join()
        assert b'"value":' in replies[-1], replies[-1]
        return samples


class JsonPipe(RawPipe):
    """The least any client does: each request encoded with json, written, the reply read
    (poll, then read, as a client with a deadline must) and decoded: the floor."""

    def run(self, count: int) -> List[int]:
        import select
        encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
        decode = json.loads
        poller = select.poll()
        out_fd = self.process.stdout.fileno()
        poller.register(out_fd, select.POLLIN)
        write, fd, read, clock, contexts = os.write, self.fd, os.read, time.perf_counter_ns, self.setting.contexts
        samples = []
        for index in range(count):
            start = clock()
            write(fd, encode({"jsonrpc": "2.0", "id": index, "method": "evaluateFlag",
                              "params": {"flagKey": "attribute-rule", "context": contexts[index % len(contexts)],
                                         "type": "boolean"}}).encode() + b"\n")
            poller.poll(30000)
            reply = decode(read(out_fd, 65536))
            samples.append(clock() - start)
        assert "value" in reply["result"], reply
        return samples


class ClientCalls:
    def __init__(self, setting: Setting):
        self.client = setting.spawn()
        self.contexts = setting.contexts

    def run(self, count: int) -> List[int]:
        evaluate, clock, contexts = self.client.evaluate_flag, time.perf_counter_ns, self.contexts
        samples = []
        for index in range(count):
            start = clock()
            evaluate("attribute-rule", contexts[index % len(contexts)], type="boolean")
            samples.append(clock() - start)
        return samples

    def close(self) -> None:
        self.client.close()


class DynamicProviderCalls:
    def __init__(self, setting: Setting):
        self.client = setting.spawn()
        self.provider = BuntingProvider(self.client)
        self.provider.initialize(EvaluationContext())
        self.contexts = [evaluation_context(context) for context in setting.contexts]

    def run(self, count: int) -> List[int]:
        resolve, clock, contexts = self.provider.resolve_boolean_details, time.perf_counter_ns, self.contexts
        samples = []
        for index in range(count):
            start = clock()
            resolve("attribute-rule", False, contexts[index % len(contexts)])
            samples.append(clock() - start)
        return samples

    def close(self) -> None:
        self.provider.shutdown()
        self.client.close()


class OnLoop:
    """A mode whose calls run on an asyncio loop of its own."""

    def __init__(self, setting: Setting):
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(self.start(setting))

    async def start(self, setting: Setting) -> None:
        raise NotImplementedError

    async def calls(self, count: int) -> List[int]:
        raise NotImplementedError

    async def stop(self) -> None:
        pass

    def run(self, count: int) -> List[int]:
        return self.loop.run_until_complete(self.calls(count))

    def close(self) -> None:
        self.loop.run_until_complete(self.stop())
        self.loop.close()


class _Replies(asyncio.SubprocessProtocol):
    def __init__(self) -> None:
        self.buffer = b""
        self.waiter: "asyncio.Future[bytes] | None" = None

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd != 1:
            return
        self.buffer += data
        newline = self.buffer.find(b"\n")
        if newline >= 0 and self.waiter is not None and not self.waiter.done():
            line, self.buffer = self.buffer[:newline], self.buffer[newline + 1:]
            self.waiter.set_result(line)


class AsyncRawPipe(OnLoop):
    """The asyncio baseline: the raw pipe, each reply read by a protocol of the event loop."""

    async def start(self, setting: Setting) -> None:
        loop = asyncio.get_running_loop()
        self.transport, self.protocol = await loop.subprocess_exec(
            _Replies, setting.binary, "serve", "--framing", "ndjson", "--storage", ":memory:", "--definitions",
            setting.definitions, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL)
        self.stdin = self.transport.get_pipe_transport(0)
        self.frames = [request(index + 1, "attribute-rule", context) for index, context in enumerate(setting.contexts)]

    async def calls(self, count: int) -> List[int]:
        loop, protocol, write, clock, frames = (asyncio.get_running_loop(), self.protocol, self.stdin.write,
                                                time.perf_counter_ns, self.frames)
        samples = []
        for index in range(count):
            start = clock()
            protocol.waiter = loop.create_future()
            write(frames[index % len(frames)])
            reply = await protocol.waiter
            samples.append(clock() - start)
        assert b'"value":' in reply, reply
        return samples

    async def stop(self) -> None:
        self.stdin.close()
        for _ in range(1000):
            if self.transport.get_returncode() is not None:
                break
            await asyncio.sleep(0.01)
        self.transport.close()


class AsyncClientCalls(OnLoop):
    async def start(self, setting: Setting) -> None:
        self.client = await AsyncBunting.spawn(setting.binary, storage=":memory:", definitions=setting.definitions)
        self.contexts = setting.contexts

    async def calls(self, count: int) -> List[int]:
        evaluate, clock, contexts = self.client.evaluate_flag, time.perf_counter_ns, self.contexts
        samples = []
        for index in range(count):
            start = clock()
            await evaluate("attribute-rule", contexts[index % len(contexts)], type="boolean")
            samples.append(clock() - start)
        return samples

    async def stop(self) -> None:
        await self.client.close()


class AsyncProviderCalls(OnLoop):
    async def start(self, setting: Setting) -> None:
        self.client = await AsyncBunting.spawn(setting.binary, storage=":memory:", definitions=setting.definitions)
        self.provider = AsyncBuntingProvider(self.client)
        await self.provider.initialize_async()
        self.contexts = [evaluation_context(context) for context in setting.contexts]

    async def calls(self, count: int) -> List[int]:
        resolve, clock, contexts = self.provider.resolve_boolean_details_async, time.perf_counter_ns, self.contexts
        samples = []
        for index in range(count):
            start = clock()
            await resolve("attribute-rule", False, contexts[index % len(contexts)])
            samples.append(clock() - start)
        return samples

    async def stop(self) -> None:
        await self.client.close()


ROUND_TRIPS: Dict[str, Callable[[Setting], Any]] = {
    "raw pipe": RawPipe,
    "raw pipe + reader thread": ThreadedPipe,
    "raw pipe + json": JsonPipe,
    "Bunting.evaluate_flag": ClientCalls,
    "BuntingProvider dynamic": DynamicProviderCalls,
    "raw pipe, asyncio": AsyncRawPipe,
    "AsyncBunting.evaluate_flag": AsyncClientCalls,
    "AsyncBuntingProvider dynamic": AsyncProviderCalls,
}


# OpenFeature-style resolutions ---------------------------------------------------

WORKLOADS = {
    # name: (flag, one user?)
    "attribute rule, one user": ("attribute-rule", True),
    "attribute rule, 10,000 targeting keys": ("attribute-rule", False),
    "25/75 rollout, one user": ("rollout", True),
}


class Reads:
    """Resolutions of one flag for a workload's contexts, timed in blocks of BLOCK calls."""

    def __init__(self, setting: Setting, workload: str, kind: str):
        flag, one = WORKLOADS[workload]
        self.flag = flag
        contexts = [setting.one_user] if one else setting.contexts
        self.contexts = [evaluation_context(context) for context in contexts]
        self.client = None
        self.domain = None
        if kind.startswith("flagd-core"):
            provider: AbstractProvider = FlagdCoreProvider(setting.document)
            direct = provider.core.resolve_boolean_value  # type: ignore[attr-defined]
        else:
            self.client = setting.spawn()
            provider = BuntingProvider(self.client, paradigm="static" if "static" in kind else "dynamic")
            direct = provider.resolve_boolean_details
        if kind.endswith("OpenFeature client"):
            self.domain = kind
            api.set_provider_and_wait(provider, self.domain)
            self.resolve = api.get_client(self.domain).get_boolean_value
        else:
            provider.initialize(EvaluationContext())
            self.provider = provider
            self.resolve = direct

    def run(self, count: int) -> List[float]:
        resolve, flag, contexts, clock = self.resolve, self.flag, self.contexts, time.perf_counter_ns
        size = len(contexts)
        samples = []
        index = 0
        for _ in range(max(1, count // BLOCK)):
            start = clock()
            for _ in range(BLOCK):
                resolve(flag, False, contexts[index % size])
                index += 1
            samples.append((clock() - start) / BLOCK)
        return samples

    def close(self) -> None:
        if self.domain is None:
            self.provider.shutdown()
        if self.client is not None:
            self.client.close()


READ_KINDS = [
    ("flagd-core, direct", True),
    ("flagd-core provider, OpenFeature client", True),
    ("BuntingProvider static", False),
    ("BuntingProvider static, OpenFeature client", False),
    ("BuntingProvider dynamic", True),
    ("BuntingProvider dynamic, OpenFeature client", True),
]


def check_answers(setting: Setting) -> int:
    """Bunting and flagd-core give the same value for every context of every workload."""
    core = FlagdCore()
    core.set_flags(setting.document)
    checked = 0
    with setting.spawn() as client:
        for flag in ("attribute-rule", "rollout"):
            for context in [setting.one_user] + setting.contexts:
                theirs = core.resolve_boolean_value(flag, False, evaluation_context(context))
                ours = client.evaluate_flag(flag, context, type="boolean")
                if (ours["value"], ours["variant"]) != (theirs.value, theirs.variant):
                    raise SystemExit("different answers for %s %r: Bunting %r, flagd-core %r"
                                     % (flag, context, ours, theirs))
                checked += 1
    return checked


def summary(samples: List[float]) -> Dict[str, float]:
    ordered = sorted(samples)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] / 1000.0

    return {"p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "mean": statistics.fmean(ordered) / 1000.0,
            "count": len(ordered)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--workload", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--round-trips", type=int, default=5000)
    parser.add_argument("--reads", type=int, default=20000)
    parser.add_argument("--json", required=True)
    options = parser.parse_args()
    setting = Setting(options)
    checked = check_answers(setting)
    print("python: the same answers from Bunting and flagd-core for %d resolutions" % checked, file=sys.stderr)

    samples: Dict[str, List[float]] = {}
    modes: List[tuple] = [("round trips", name, None) for name in ROUND_TRIPS]
    modes += [(workload, kind, None) for workload, (_, one) in WORKLOADS.items()
              for kind, any_users in READ_KINDS if one or any_users]
    for round_index in range(options.rounds):
        shift = round_index * 3 % len(modes)
        for group, name, _ in modes[shift:] + modes[:shift]:
            if group == "round trips":
                runner = ROUND_TRIPS[name](setting)
                count, warmup = setting.round_trips, max(200, setting.round_trips // 10)
            else:
                runner = Reads(setting, group, name)
                count = setting.reads if "dynamic" not in name else setting.round_trips
                warmup = max(BLOCK, count // 10)
            try:
                runner.run(warmup)
                gc.collect()
                samples.setdefault("%s\t%s" % (group, name), []).extend(runner.run(count))
            finally:
                runner.close()
                if group != "round trips":
                    api.clear_providers()
        print("python: round %d of %d done" % (round_index + 1, options.rounds), file=sys.stderr)
    rows = []
    for key, values in samples.items():
        group, name = key.split("\t")
        rows.append({"language": "python", "group": group, "mode": name, **summary(values)})
    Path(options.json).write_text(json.dumps({
        "python": sys.version.split()[0], "rounds": options.rounds, "roundTrips": setting.round_trips,
        "reads": setting.reads, "checked": checked, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
