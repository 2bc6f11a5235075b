"""The asyncio flavour: the same surface as coroutines, on the same protocol core."""

import asyncio
import json
import os
import signal

import pytest

from bunting import (AsyncBunting, ClientClosed, EventTimeout, InvalidParams, InvalidRequest, MethodNotFound,
                     NotSynced, RequestTimeout, ServerExited)
from conftest import CHANNELS, SHOP


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 120))


async def sync_user(client, user="ada", channels=CHANNELS, **attributes):
    subscriptions = {channel: await client.subscribe(channel) for channel in channels}
    await client.change_user(user, attributes=attributes or None)
    for subscription in subscriptions.values():
        await subscription.wait_for(type="DATA_UPDATED", timeout=30)
    return subscriptions


def test_methods_and_errors(binary, framing):
    async def main():
        async with AsyncBunting.spawn(binary, framing=framing, storage=":memory:", definitions=str(SHOP)) as client:
            assert (await client.status())["framing"] == framing
            await sync_user(client, tier="gold")
            assert (await client.get_feature_flag("checkout"))["enabled"] is True
            resolved = await client.evaluate_flag("greeting", {"targetingKey": "ada", "locale": "en-GB"})
            assert (resolved["value"], resolved["variant"]) == ("Hi!", "short")
            with pytest.raises(InvalidParams) as raised:
                await client.log_click("featureFlags", "checkout")
            assert raised.value.field == "channel"
            status, missing = await client.batch([("status", None), ("nope", None)])
            assert status["userId"] == "ada" and isinstance(missing, MethodNotFound)
            text = "\u00e9a" * 1_500_000  # 4.5 MB each way: the stdin pipe fills and drains
            assert await client.evaluate({"var": "x"}, data={"x": text}, timeout=60) == {"result": text}
            await client.notify("changeUser", {"userId": "bob"})
            assert (await client.call("status"))["userId"] == "bob"
        assert client.returncode == 0
        with pytest.raises(ClientClosed):
            await client.status()

    run(main())


def test_events_are_neither_lost_nor_swallowed(binary, framing):
    async def main():
        client = await AsyncBunting.spawn(binary, framing=framing, storage=":memory:", definitions=str(SHOP))
        try:
            for _ in range(50):
                subscription = await client.subscribe("contentCards")
                assert (await subscription.next_event())["type"] == "CACHE_REPLAY"
            flags, banners = await client.subscribe("featureFlags"), await client.subscribe("banners")
            await client.change_user("ada")
            assert (await banners.wait_for(type="DATA_UPDATED"))["channel"] == "banners"
            assert (await flags.wait_for(type="DATA_UPDATED"))["channel"] == "featureFlags"
            assert [e["type"] for e in flags.pending()] == ["CACHE_REPLAY", "CACHE_LOAD"]
            assert (await client.wait_for(type="CACHE_LOAD", channel="banners"))["subscriptionId"] == banners.id
            with pytest.raises(EventTimeout):
                await flags.wait_for(type="ERROR", timeout=0.1)
        finally:
            await client.close()

    run(main())


def test_definitions_track_and_the_new_errors(binary, framing, tmp_path):
    async def main():
        sink = tmp_path / "events.ndjson"
        async with AsyncBunting.spawn(binary, framing=framing, storage=":memory:", definitions=str(SHOP),
                                      sink=str(sink), flush_interval=3600, max_message_size=4096) as client:
            definitions = await client.subscribe_to_definitions()
            assert definitions.notification == "definitions"
            assert (await definitions.next_event())["type"] == "READY"
            with pytest.raises(NotSynced) as raised:
                await client.get_feature_flag("checkout")
            assert raised.value.channel == "featureFlags"
            flags = (await sync_user(client, channels=("featureFlags",)))["featureFlags"]
            tracked = await client.track("purchase", value=2, details={"sku": "hat"})
            enqueued = await flags.wait_for(type="CUSTOM", action="ENQUEUED")
            assert enqueued["eventId"] == tracked["eventId"] and enqueued["event"]["details"] == {"sku": "hat"}
            assert await client.flush() == {"flushed": 1, "pending": 0}
            assert (await flags.wait_for(type="CUSTOM", action="FLUSHED"))["eventId"] == tracked["eventId"]
            assert [json.loads(line)["eventId"] for line in sink.read_text().splitlines()] == [tracked["eventId"]]
            flagged = await client.evaluate_flags({"targetingKey": "ada"}, flag_keys=["ratio"])
            assert flagged["flags"]["ratio"]["value"] == 0.25
            # Refusals sent with id null still fail the call they are about, at once.
            with pytest.raises(InvalidRequest) as raised:
                await client.evaluate({"var": "x"}, data={"x": "a" * 5000}, timeout=30)
            assert raised.value.reason == "MESSAGE_TOO_LARGE"
            with pytest.raises(InvalidRequest) as raised:  # a batch past the size limit: refused whole
                await client.batch([("status", None)] * 200, timeout=30)
            assert raised.value.reason == "MESSAGE_TOO_LARGE"
            assert len(await client.batch([("status", None)] * 20)) == 20
            assert client.unattributed_errors() == []
            assert await definitions.remove() is True

    run(main())


def test_coroutine_callbacks_run_in_order_and_may_call_the_client(binary):
    async def main():
        async with AsyncBunting.spawn(binary, storage=":memory:", definitions=str(SHOP)) as client:
            seen = []
            done = asyncio.Event()

            async def on_event(event):
                seen.append(event["type"])
                if event["type"] == "DATA_UPDATED":
                    seen.append((await client.get_feature_flag("checkout"))["enabled"])
                    done.set()

            await client.subscribe("featureFlags", on_event)
            await client.change_user("ada", attributes={"tier": "gold"})
            await asyncio.wait_for(done.wait(), 10)
            assert seen == ["CACHE_REPLAY", "CACHE_LOAD", "DATA_UPDATED", True]

    run(main())


def test_async_iteration_ends_when_the_subscription_is_removed(binary):
    async def main():
        async with AsyncBunting.spawn(binary, storage=":memory:") as client:
            flags = await client.subscribe("featureFlags")
            seen = []

            async def iterate():
                async for event in flags:
                    seen.append(event["type"])

            task = asyncio.ensure_future(iterate())
            await client.change_user("ada")
            assert await flags.remove() is True
            await asyncio.wait_for(task, 10)
            assert seen[0] == "CACHE_REPLAY" and flags.ended

    run(main())


def test_timeouts_and_a_killed_server(binary):
    async def main():
        client = await AsyncBunting.spawn(binary, storage=":memory:", call_timeout=0.3)
        await client.status(timeout=30)  # started and answering (a busy machine may take a while)
        os.kill(client.pid, signal.SIGSTOP)
        with pytest.raises(RequestTimeout):
            await client.status()
        with pytest.raises(TimeoutError):
            await client.status(timeout=0.05)
        os.kill(client.pid, signal.SIGCONT)
        assert (await client.evaluate({"+": [1, 1]}, timeout=30)) == {"result": 2}
        os.kill(client.pid, signal.SIGKILL)
        with pytest.raises(ServerExited) as raised:
            await client.status(timeout=30)
        assert raised.value.returncode == -signal.SIGKILL
        await client.close()

    run(main())


def test_close_kills_a_server_that_does_not_exit(binary):
    async def main():
        client = await AsyncBunting.spawn(binary, storage=":memory:")
        await client.status()
        os.kill(client.pid, signal.SIGSTOP)
        assert await client.close(timeout=0.5) == -signal.SIGKILL

    run(main())


def test_a_server_that_exits_at_start_says_why(binary):
    async def main():
        client = await AsyncBunting.spawn(binary, no_such_option=True)
        with pytest.raises(ServerExited) as raised:
            await client.status()
        assert raised.value.returncode == 64 and "no-such-option" in str(raised.value)
        await client.close()

    run(main())


def test_a_chatty_server_never_blocks_on_stderr(binary):
    async def main():
        async with AsyncBunting.spawn(binary, storage=":memory:", log_level="debug", stderr_lines=10) as client:
            for index in range(3000):  # a line of about 900 bytes each on stderr
                await client.notify("evaluate", {"rule": {"no-such-operator-%s-%d" % ("y" * 400, index): [1]}})
            assert (await client.status(timeout=30))["version"]
            last = await client.wait_for_stderr(lambda line: line.endswith('-2999"'), timeout=30)
            # The server goes on logging (its checks of the definitions), so the line is in the
            # tail rather than last in it.
            assert client.stderr.count >= 3000 and last in client.stderr_tail()

    run(main())
