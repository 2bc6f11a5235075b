"""Who reads the server's output: a caller reads its own reply, one thread at a time, and
hands the replies it finds for others to them; the watcher reads while nobody waits.
Many threads calling at once each get their own answers, and an event reaches its
callback while no call is made."""

import threading

from bunting import Bunting


def expected_items(tier):
    return 10 if tier == "gold" else 3  # max-items of shop.json


def test_threads_calling_at_once_each_get_their_own_replies(spawn):
    client = spawn(call_timeout=30)
    failures = []
    flags = client.subscribe("featureFlags")

    def call(worker):
        try:
            for index in range(150):
                tier = "gold" if (index + worker) % 2 else "silver"
                context = {"targetingKey": "user-%d-%d" % (worker, index), "tier": tier}
                result = client.evaluate_flag("max-items", context, type="integer")
                if result["value"] != expected_items(tier):
                    failures.append((worker, index, result))
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append((worker, error))

    def change_users():
        try:
            for index in range(20):
                client.change_user("person-%d" % index)
                flags.wait_for(type="DATA_UPDATED", timeout=30)
        except Exception as error:  # noqa: BLE001
            failures.append(("users", error))

    threads = [threading.Thread(target=call, args=(worker,)) for worker in range(6)]
    threads.append(threading.Thread(target=change_users))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads), "a caller hung"
    assert failures == []
    assert client.status()["userId"] == "person-19"


def test_a_callback_hears_events_while_nobody_calls(spawn, definitions):
    import json
    import os
    client = spawn(definitions=str(definitions), poll_interval=0.05)
    heard = []
    changed = threading.Event()

    def on_event(event):
        heard.append(event["type"])
        if event["type"] == "CHANGED":
            changed.set()

    client.subscribe_to_definitions(on_event)
    document = json.loads(definitions.read_text())
    document["flags"]["greeting"]["defaultVariant"] = "short"
    staged = definitions.with_suffix(".next")
    staged.write_text(json.dumps(document))
    os.replace(staged, definitions)
    # No call is made from here on: the watcher reads the notification.
    assert changed.wait(30)
    assert heard == ["READY", "CHANGED"]


def watcher_reads(client: Bunting, deadline: float = 10.0) -> bool:
    """Whether the watcher holds the pipe within `deadline` seconds (looked at every 5 ms)."""
    import time
    end = time.monotonic() + deadline
    pause = threading.Event()
    while not client._watcher_reads:
        if time.monotonic() > end:
            return False
        pause.wait(0.005)
    return True


def test_a_caller_takes_the_pipe_back_from_the_watcher(spawn):
    client: Bunting = spawn()
    for _ in range(20):
        client.status()
        # Left alone, the watcher reads; the next call asks it for the pipe and gets its reply.
        assert watcher_reads(client)
        assert client.status()["sdkEnabled"] is True
