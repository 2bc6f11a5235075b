"""Subscriptions: no event lost to the reply race, none swallowed by a wait for another."""

import json
import os
import threading

import pytest

from bunting import EventTimeout, SubscriptionEnded
from conftest import DEFINITIONS, sync_user


def test_the_replay_that_follows_a_subscribe_reply_is_never_lost(spawn, framing):
    client = spawn(framing=framing)
    for _ in range(100):
        subscription = client.subscribe("featureFlags")
        replay = subscription.next_event(timeout=30)
        assert (replay["type"], replay["subscriptionId"]) == ("CACHE_REPLAY", subscription.id)


def test_a_callback_gets_every_event_from_the_replay_on(spawn, framing):
    client = spawn(framing=framing)
    seen = []
    updated = threading.Event()

    def on_event(event):
        seen.append(event["type"])
        if event["type"] == "DATA_UPDATED":
            updated.set()

    subscription = client.subscribe("banners", on_event)
    client.change_user("ada")
    assert updated.wait(30)
    assert seen == ["CACHE_REPLAY", "CACHE_LOAD", "DATA_UPDATED"]
    assert subscription.pending() == []
    with pytest.raises(TypeError):
        subscription.next_event(timeout=0)


def test_callbacks_may_call_the_client(spawn):
    client = spawn()
    flags = []
    done = threading.Event()

    def on_event(event):
        if event["type"] == "DATA_UPDATED":
            flags.append(client.get_feature_flag("checkout"))
            done.set()

    client.subscribe("featureFlags", on_event)
    client.change_user("ada", attributes={"tier": "gold"})
    assert done.wait(30)
    assert flags[0]["enabled"] is True


def test_waiting_on_one_channel_leaves_the_others_events_queued(spawn, framing):
    client = spawn(framing=framing)
    flags, banners = client.subscribe("featureFlags"), client.subscribe("banners")
    client.change_user("ada")
    # Wait for the banners first, whatever order the server sends them in.
    assert banners.wait_for(type="DATA_UPDATED")["channel"] == "banners"
    assert flags.wait_for(type="DATA_UPDATED")["channel"] == "featureFlags"
    assert [e["type"] for e in flags.pending()] == ["CACHE_REPLAY", "CACHE_LOAD"]
    assert [e["type"] for e in banners.drain()] == ["CACHE_REPLAY", "CACHE_LOAD"]
    assert banners.pending() == []


def test_client_wide_wait_for_takes_from_the_right_queue(spawn):
    client = spawn()
    flags, banners = client.subscribe("featureFlags"), client.subscribe("banners")
    client.change_user("ada")
    assert client.wait_for(type="DATA_UPDATED", channel="banners")["subscriptionId"] == banners.id
    assert client.wait_for(type="DATA_UPDATED")["subscriptionId"] == flags.id
    assert client.wait_for(type="CACHE_REPLAY")["subscriptionId"] == flags.id  # the oldest first
    left = [(e["channel"], e["type"]) for e in client.queued_events()]
    assert left == [("banners", "CACHE_REPLAY"), ("featureFlags", "CACHE_LOAD"), ("banners", "CACHE_LOAD")]


def test_waiters_on_several_threads_each_get_their_own_event(spawn):
    client = spawn()
    subscriptions = {channel: client.subscribe(channel) for channel in ("featureFlags", "banners", "contentCards")}
    got = {}

    def wait(channel):
        got[channel] = subscriptions[channel].wait_for(type="DATA_UPDATED", timeout=30)["channel"]

    threads = [threading.Thread(target=wait, args=(channel,)) for channel in subscriptions]
    for thread in threads:
        thread.start()
    client.change_user("ada")
    for thread in threads:
        thread.join(45)
    assert got == {channel: channel for channel in subscriptions}


def test_alternatives_and_predicates_in_wait_for(spawn):
    client = spawn()
    flags = sync_user(client, channels=("featureFlags",))["featureFlags"]
    client.change_user("bob")
    event = flags.wait_for(type=("DATA_UPDATED", "ERROR"), match=lambda e: e["cacheSnapshot"]["lastSyncAt"] > 0)
    assert event["type"] == "DATA_UPDATED"


def test_a_timeout_names_what_was_queued_and_takes_nothing(spawn):
    client = spawn()
    flags = client.subscribe("featureFlags")
    with pytest.raises(EventTimeout) as raised:
        flags.wait_for(type="ERROR", timeout=0.2)
    assert "CACHE_REPLAY" in str(raised.value) and raised.value.seen[0]["type"] == "CACHE_REPLAY"
    assert flags.next_event()["type"] == "CACHE_REPLAY"
    with pytest.raises(TimeoutError):  # also a built-in TimeoutError
        client.wait_for(type="ERROR", timeout=0.1)


def test_iteration_ends_when_the_subscription_is_removed(spawn):
    client = spawn()
    flags = client.subscribe("featureFlags")
    seen = []
    started = threading.Event()

    def iterate():
        for event in flags:
            seen.append(event["type"])
            started.set()

    thread = threading.Thread(target=iterate)
    thread.start()
    assert started.wait(30)
    assert flags.remove() is True
    thread.join(30)
    assert not thread.is_alive() and seen == ["CACHE_REPLAY"]
    assert flags.ended and flags.remove() is False
    with pytest.raises(SubscriptionEnded):
        flags.next_event(timeout=1)


def test_removed_subscriptions_get_nothing_more(spawn):
    client = spawn()
    with client.subscribe("featureFlags") as flags:
        flags.next_event()
    assert flags.ended
    other = client.subscribe("featureFlags")
    client.change_user("ada")
    other.wait_for(type="DATA_UPDATED")
    assert flags.pending() == []
    assert client.remove_subscription(flags.id) == {"removed": False}


def test_deprecated_update_subscriptions_get_updates(spawn, framing):
    client = spawn(framing=framing)
    updates = client.subscribe_to_updates("featureFlags")
    assert updates.notification == "updates"
    client.change_user("ada", attributes={"tier": "gold"})
    update = updates.wait_for(match=lambda u: any(f["id"] == "checkout" for f in u["featureFlags"]))
    assert update["channel"] == "featureFlags" and update["subscriptionId"] == updates.id
    assert client.queued_events("event") == []


def test_a_changed_definitions_file_refreshes_the_subscribers(spawn, definitions):
    client = spawn(definitions=str(definitions), poll_interval=0.05)
    flags = sync_user(client, channels=("featureFlags",))["featureFlags"]
    changed = json.loads(definitions.read_text())
    changed["flags"]["checkout"]["defaultVariant"] = "new"
    del changed["flags"]["checkout"]["targeting"]
    staged = definitions.with_suffix(".next")
    staged.write_text(json.dumps(changed))
    os.replace(staged, definitions)
    event = flags.wait_for(type="DATA_UPDATED", reason="AUTO_SERVER_REFRESH", timeout=30,
                           match=lambda e: any(f["id"] == "checkout" and f["enabled"]
                                               for f in e["cacheSnapshot"]["featureFlags"]))
    assert event["channel"] == "featureFlags"


def test_a_disabled_channel_reports_feature_disabled(spawn):
    client = spawn(definitions=str(DEFINITIONS / "cards-off.json"))
    cards = client.subscribe("contentCards")
    error = cards.next_event()
    assert (error["type"], error["reason"], error["retryState"]) == ("ERROR", "FEATURE_DISABLED", "DO_NOT_RETRY")


def replace(path, text):
    staged = path.with_suffix(".next")
    staged.write_text(text)
    os.replace(staged, path)


def test_a_definitions_subscription_gets_ready_changed_error_and_ready_again(spawn, definitions):
    client = spawn(definitions=str(definitions), poll_interval=0.05)
    flags = sync_user(client, channels=("featureFlags",))["featureFlags"]
    subscription = client.subscribe_to_definitions()
    assert subscription.notification == "definitions"
    ready = subscription.next_event()
    assert (ready["type"], ready["subscriptionId"]) == ("READY", subscription.id) and ready["loadedAt"] > 0
    changed = json.loads(definitions.read_text())
    changed["flags"]["greeting"]["defaultVariant"] = "short"
    replace(definitions, json.dumps(changed))
    # CHANGED comes before the DATA_UPDATED that the new document causes.
    flags.wait_for(type="DATA_UPDATED", reason="AUTO_SERVER_REFRESH")
    (event,) = subscription.drain()
    assert event["type"] == "CHANGED" and event["flagsChanged"] == ["greeting"]
    assert event["loadedAt"] >= ready["loadedAt"]
    replace(definitions, "{ not json")
    error = subscription.wait_for(type="ERROR")
    assert (error["reason"], error["retryState"], error["stale"]) == ("INVALID_SERVER_DATA", "DO_NOT_RETRY", True)
    replace(definitions, json.dumps(changed))  # the same document again: READY, not CHANGED
    assert subscription.next_event()["type"] == "READY"
    assert client.queued_events("definitions") == []
    assert subscription.remove() is True and subscription.ended


def test_definitions_that_cannot_be_loaded_are_an_error_that_is_not_stale(spawn, tmp_path):
    path = tmp_path / "definitions.json"
    path.write_text((DEFINITIONS / "broken.json").read_text())
    client = spawn(definitions=str(path), poll_interval=0.05, start_without_definitions=True)
    seen = []
    loaded = threading.Event()

    def on_definitions(event):
        seen.append(event)
        if event["type"] == "READY":
            loaded.set()

    subscription = client.subscribe_to_definitions(on_definitions)
    replace(path, (DEFINITIONS / "shop.json").read_text())
    assert loaded.wait(30)
    assert [(event["type"], event.get("stale")) for event in seen] == [("ERROR", False), ("READY", None)]
    assert seen[0]["reason"] == "INVALID_SERVER_DATA" and "banners" in seen[0]["message"]
    assert subscription.pending() == []


def test_no_definitions_subscription_while_the_sdk_is_disabled(spawn):
    client = spawn()
    client.disable_sdk()
    assert client.subscribe_to_definitions() is None
    client.enable_sdk()
    assert client.subscribe_to_definitions().next_event()["type"] == "READY"


def test_custom_events_of_track_come_to_feature_flag_subscriptions(spawn):
    client = spawn()
    flags = client.subscribe("featureFlags")
    event_id = client.track("purchase", value=3)["eventId"]
    custom = flags.wait_for(type="CUSTOM")
    assert (custom["channel"], custom["action"], custom["eventId"]) == ("featureFlags", "ENQUEUED", event_id)
    assert custom["event"] == {"name": "purchase", "value": 3}


def test_a_client_wide_wait_looks_at_definitions_events_unless_it_names_a_channel(spawn):
    # As the Node client's waitFor: definitions events have no channel.
    client = spawn()
    flags = client.subscribe("featureFlags")
    definitions = client.subscribe_to_definitions()
    assert client.wait_for(type="READY")["subscriptionId"] == definitions.id
    client.subscribe_to_definitions()
    with pytest.raises(EventTimeout):
        client.wait_for(type="READY", channel="featureFlags", timeout=0.2)
    with pytest.raises(EventTimeout):
        client.wait_for(type="READY", notification="event", timeout=0.2)
    assert client.wait_for(type="READY", notification="definitions")["type"] == "READY"
    assert flags.next_event()["type"] == "CACHE_REPLAY"
