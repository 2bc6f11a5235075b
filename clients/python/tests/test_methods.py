"""Every method family against the real binary, under both framings."""

import json

import pytest

from bunting import ClientClosed, InvalidParams, SDKDisabled
from conftest import CHANNELS, sync_user


def test_discover_and_status(spawn, framing):
    client = spawn(framing=framing)
    document = client.rpc_discover()
    assert document["openrpc"] and {m["name"] for m in document["methods"]} >= {"status", "subscribe"}
    status = client.status()
    assert status["framing"] == framing
    assert status["userId"] is None and status["sdkEnabled"] is True
    assert set(status["channels"]) == set(CHANNELS)


def test_user_and_session(spawn, framing):
    client = spawn(framing=framing)
    assert client.change_user("ada", attributes={"tier": "gold"}) == {}
    assert client.status()["userId"] == "ada"
    assert client.set_user_attributes({"locale": "en-GB"}) == {}
    assert client.close_session() == {}
    assert client.status()["sessionId"] is None
    assert client.open_session() == {}
    assert client.status()["sessionId"]


def test_reads_after_a_sync(spawn, framing):
    client = spawn(framing=framing)
    sync_user(client, "ada", tier="gold")
    flag = client.get_feature_flag("checkout")
    assert flag["enabled"] is True and flag["properties"]["color"]["value"] == "green"
    assert client.get_banner("home-top")["id"] == "home-hello"
    snapshot = client.get_snapshot("contentCards")
    assert [card["id"] for card in snapshot["contentCards"]["cards"]] == ["house-rules", "welcome"]
    assert snapshot["lastSyncAt"] > 0


def test_refresh_reports_through_events(spawn, framing):
    client = spawn(framing=framing)
    subscriptions = sync_user(client, channels=("banners",))
    assert client.refresh("banners", placement_ids=["home-top"]) == {}
    event = subscriptions["banners"].wait_for(type="DATA_UPDATED", reason="MANUAL_SERVER_REFRESH")
    assert "home-top" in event["cacheSnapshot"]["banners"]


def test_analytics_reach_the_sink(spawn, framing, tmp_path):
    sink = tmp_path / "events.ndjson"
    client = spawn(framing=framing, sink=str(sink), flush_interval=3600)
    subscriptions = sync_user(client)
    assert client.log_impression("featureFlags", id="checkout") == {}
    assert client.log_click("banners", "home-top", button_id="go") == {}
    assert client.log_impression("contentCards", ids=["welcome", "house-rules"]) == {}
    enqueued = subscriptions["featureFlags"].wait_for(type="IMPRESSION", action="ENQUEUED")
    subscriptions["banners"].wait_for(type="CLICK", action="ENQUEUED")
    result = client.flush()
    assert result["flushed"] == 4 and result["pending"] == 0
    flushed = subscriptions["featureFlags"].wait_for(type="IMPRESSION", action="FLUSHED")
    assert flushed["eventId"] == enqueued["eventId"]
    kinds = sorted(json.loads(line)["kind"] for line in sink.read_text().splitlines())
    assert kinds == ["click", "impression", "impression", "impression"]


def test_dismiss_removes_the_card(spawn, framing):
    client = spawn(framing=framing)
    cards = sync_user(client)["contentCards"]
    assert client.log_dismiss("contentCards", "welcome") == {}
    cards.wait_for(type="DISMISS", action="ENQUEUED")
    updated = cards.wait_for(type="DATA_UPDATED", reason="CLIENT_ACTION")
    assert [card["id"] for card in updated["cacheSnapshot"]["contentCards"]["cards"]] == ["house-rules"]


def test_wipe_data_sends_empty_snapshots(spawn, framing):
    client = spawn(framing=framing)
    flags = sync_user(client)["featureFlags"]
    assert client.wipe_data() == {}
    loaded = flags.wait_for(type="CACHE_LOAD")
    assert loaded["cacheSnapshot"]["featureFlags"] == []


def test_disable_and_enable_sdk(spawn, framing):
    client = spawn(framing=framing)
    assert client.disable_sdk() == {}
    assert client.subscribe("featureFlags") is None
    with pytest.raises(SDKDisabled) as raised:
        client.change_user("ada")
    assert raised.value.code == -32004
    assert client.enable_sdk() == {}
    assert client.subscribe("featureFlags").next_event()["type"] == "CACHE_REPLAY"


def test_evaluate_and_evaluate_flag(spawn, framing):
    client = spawn(framing=framing)
    assert client.evaluate({"sem_ver": [{"var": "v"}, "^", "1.2.0"]}, data={"v": "1.9.3"}) == {"result": True}
    assert client.evaluate({"+": [1, 2]}) == {"result": 3}
    resolved = client.evaluate_flag("max-items", {"targetingKey": "ada", "tier": "gold"})
    assert (resolved["value"], resolved["variant"], resolved["reason"]) == (10, "many", "TARGETING_MATCH")
    missing = client.evaluate_flag("nope", {})
    assert (missing["reason"], missing["errorCode"]) == ("ERROR", "FLAG_NOT_FOUND")


def test_optional_params_left_at_none_are_not_sent(spawn, framing):
    client = spawn(framing=framing)
    # Sending null would be refused (-32602): an unset optional must be left out.
    assert client.change_user("ada", attributes=None) == {}
    with pytest.raises(InvalidParams) as raised:
        client.call("changeUser", {"userId": "bob", "attributes": None})
    assert raised.value.field == "attributes"


def test_call_and_notify_reach_any_method(spawn, framing):
    client = spawn(framing=framing)
    client.notify("changeUser", {"userId": "bob"})
    assert client.call("status")["userId"] == "bob"


def test_batches_answer_in_order_with_errors_returned(spawn, framing):
    client = spawn(framing=framing)
    results = client.batch([("status", None), ("nope", None), ("evaluate", {"rule": {"*": [6, 7]}})])
    assert results[0]["userId"] is None
    assert type(results[1]).__name__ == "MethodNotFound" and results[1].data["method"] == "nope"
    assert results[2] == {"result": 42}


def test_shutdown_ends_the_connection(spawn, framing):
    client = spawn(framing=framing)
    assert client.shutdown() == {}
    assert client._process.wait(10) == 0
    with pytest.raises(ClientClosed):
        client.status()
    assert client.close() == 0


def test_messages_far_larger_than_a_pipe_go_both_ways(spawn, framing):
    client = spawn(framing=framing)
    text = "\u00e9a" * 1_500_000  # 4.5 MB of UTF-8 each way
    assert client.evaluate({"var": "x"}, data={"x": text}, timeout=60) == {"result": text}
