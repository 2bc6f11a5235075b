"""The asyncio provider (AsyncBuntingProvider over AsyncBunting) with the real
openfeature-sdk: async resolutions in both paradigms, an event loop that keeps running
while the server is slow, initialization from the SDK's thread, and track."""

import asyncio
import json
import os
import signal

import pytest
from openfeature import api
from openfeature.evaluation_context import EvaluationContext
from openfeature.event import ProviderEvent
from openfeature.exception import ErrorCode
from openfeature.track import TrackingEventDetails

from bunting import AsyncBunting
from bunting.openfeature import AsyncBuntingProvider, BuntingProvider
from conftest import SHOP

ADA = EvaluationContext("ada", {"email": "ada@example.com", "tier": "gold", "locale": "en-GB"})


def run(coroutine):
    try:
        return asyncio.run(asyncio.wait_for(coroutine, 120))
    finally:
        api.clear_providers()


async def values(openfeature, context):
    return (await openfeature.get_boolean_value_async("dark-mode", False, context),
            await openfeature.get_string_value_async("greeting", "?", context),
            await openfeature.get_integer_value_async("max-items", 0, context),
            await openfeature.get_float_value_async("ratio", 0.0, context),
            await openfeature.get_object_value_async("layout", {}, context))


@pytest.mark.parametrize("paradigm", ["dynamic", "static"])
def test_each_type_resolves_through_the_async_api(binary, paradigm):
    async def main():
        async with AsyncBunting.spawn(binary, storage=":memory:", definitions=str(SHOP)) as client:
            provider = AsyncBuntingProvider(client, paradigm=paradigm)
            await provider.initialize_async(ADA)
            api.set_provider_and_wait(provider)  # initialized already: returns at once
            openfeature = api.get_client()
            assert await values(openfeature, ADA) == (True, "Hi!", 10, 0.25, {"columns": 2})
            assert await values(openfeature, EvaluationContext("bob")) == (
                False, "Hello, and welcome.", 3, 0.25, {"columns": 1})
            mismatch = await openfeature.get_string_details_async("max-items", "x", ADA)
            assert (mismatch.value, mismatch.error_code) == ("x", ErrorCode.TYPE_MISMATCH)
            missing = await openfeature.get_boolean_details_async("nope", True, ADA)
            assert (missing.value, missing.error_code) == (True, ErrorCode.FLAG_NOT_FOUND)

    run(main())


@pytest.mark.parametrize("provider_class", [AsyncBuntingProvider, BuntingProvider])
def test_a_slow_server_does_not_block_the_event_loop(binary, provider_class):
    async def main():
        async with AsyncBunting.spawn(binary, storage=":memory:", definitions=str(SHOP)) as client:
            if provider_class is AsyncBuntingProvider:
                provider = AsyncBuntingProvider(client)
                await provider.initialize_async()
                pid = client.pid
            else:
                # The thread provider's async resolutions, over a thread client of its own.
                provider = BuntingProvider(binary=binary, storage=":memory:", definitions=str(SHOP),
                                           call_timeout=60)
                await asyncio.get_running_loop().run_in_executor(None, provider.initialize, EvaluationContext())
                pid = provider.client.pid
            os.kill(pid, signal.SIGSTOP)  # it answers nothing until SIGCONT
            try:
                pending = asyncio.ensure_future(provider.resolve_integer_details_async("max-items", 0, ADA))
                # The loop goes on running other work while the resolution waits for the server.
                for _ in range(20):
                    await asyncio.sleep(0)
                other = await asyncio.wait_for(asyncio.ensure_future(asyncio.sleep(0, "done")), 5)
                assert other == "done" and not pending.done()
            finally:
                os.kill(pid, signal.SIGCONT)
            assert (await asyncio.wait_for(pending, 30)).value == 10
            if provider_class is BuntingProvider:
                await asyncio.get_running_loop().run_in_executor(None, provider.shutdown)

    run(main())


def test_the_sdk_thread_initializes_it_and_the_loop_hears_ready(binary):
    async def main():
        async with AsyncBunting.spawn(binary, storage=":memory:", definitions=str(SHOP)) as client:
            loop = asyncio.get_running_loop()
            ready = asyncio.Event()

            def on_ready(details):
                # The handler also runs at once for the provider that was ready before.
                if api.get_provider_metadata().name == "bunting":
                    loop.call_soon_threadsafe(ready.set)

            api.set_provider(AsyncBuntingProvider(client, paradigm="static"))  # initialize() runs on a thread
            api.add_handler(ProviderEvent.PROVIDER_READY, on_ready)
            try:
                await asyncio.wait_for(ready.wait(), 30)
                assert await api.get_client().get_integer_value_async("max-items", 0, ADA) == 10
            finally:
                api.remove_handler(ProviderEvent.PROVIDER_READY, on_ready)

    run(main())


def test_waiting_on_the_loop_it_would_block_is_an_error_not_a_hang(binary):
    async def main():
        async with AsyncBunting.spawn(binary, storage=":memory:", definitions=str(SHOP)) as client:
            provider = AsyncBuntingProvider(client)
            with pytest.raises(Exception, match="initialize_async"):
                provider.initialize(EvaluationContext())
            await provider.initialize_async()
            api.set_provider_and_wait(provider)
            # A blocking resolution on the loop's own thread: refused, the caller's default returned.
            details = api.get_client().get_integer_details("max-items", 7, ADA)
            assert (details.value, details.error_code) == (7, ErrorCode.GENERAL)
            assert "get_*_async" in details.error_message

    run(main())


def test_track_from_the_loop_keeps_its_user(binary, tmp_path):
    sink = tmp_path / "events.ndjson"

    async def main():
        async with AsyncBunting.spawn(binary, storage=":memory:", definitions=str(SHOP), sink=str(sink),
                                      flush_interval=3600) as client:
            flags = await client.subscribe("featureFlags")
            provider = AsyncBuntingProvider(client)
            await provider.initialize_async()
            api.set_provider_and_wait(provider)
            api.get_client().track("checkout", EvaluationContext("grace", {"tier": "gold"}), TrackingEventDetails(2.5))
            enqueued = await flags.wait_for(type="CUSTOM", action="ENQUEUED")
            assert enqueued["event"] == {"name": "checkout", "value": 2.5, "userId": "grace",
                                         "attributes": {"tier": "gold"}}
            assert await client.flush() == {"flushed": 1, "pending": 0}

    run(main())
    (line,) = [json.loads(text) for text in sink.read_text().splitlines()]
    assert (line["userId"], line["attributes"]) == ("grace", {"tier": "gold"})
