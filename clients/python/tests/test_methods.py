"""Every method family against the real binary, under both framings."""

import json

import pytest

from bunting import ClientClosed, InvalidParams, SDKDisabled
from conftest import CHANNELS, DEFINITIONS, sync_user


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
    assert client._process.wait(30) == 0
    with pytest.raises(ClientClosed):
        client.status()
    assert client.close() == 0


def test_messages_far_larger_than_a_pipe_go_both_ways(spawn, framing):
    client = spawn(framing=framing)
    text = "\u00e9a" * 1_500_000  # 4.5 MB of UTF-8 each way
    assert client.evaluate({"var": "x"}, data={"x": text}, timeout=60) == {"result": text}


def test_evaluate_flag_of_a_type_and_its_metadata(spawn, framing):
    client = spawn(framing=framing)
    gold = {"targetingKey": "ada", "tier": "gold"}
    resolved = client.evaluate_flag("max-items", gold, type="integer")
    assert (resolved["value"], resolved["variant"], resolved["metadata"]) == (
        10, "many", {"version": "shop-1", "owner": "client-tests"})
    mismatch = client.evaluate_flag("max-items", gold, type="string")
    assert (mismatch["value"], mismatch["variant"], mismatch["reason"], mismatch["errorCode"]) == (
        None, None, "ERROR", "TYPE_MISMATCH")
    assert mismatch["errorMessage"]
    with pytest.raises(InvalidParams) as raised:
        client.evaluate_flag("max-items", gold, type="number")
    assert raised.value.field == "type"


def test_evaluate_flags_resolves_all_or_the_named_flags_in_one_reply(spawn, framing):
    client = spawn(framing=framing)
    gold = {"targetingKey": "ada", "tier": "gold", "email": "ada@example.com"}
    every = client.evaluate_flags(gold)
    assert set(every["flags"]) == {"checkout", "dark-mode", "greeting", "max-items", "ratio", "layout", "retired"}
    assert every["metadata"] == {"version": "shop-1", "owner": "client-tests"}
    assert every["flags"]["retired"]["reason"] == "DISABLED"
    assert every["flags"]["dark-mode"] == client.evaluate_flag("dark-mode", gold)
    named = client.evaluate_flags(gold, flag_keys=["layout", "nope"])
    assert set(named["flags"]) == {"layout", "nope"}
    assert named["flags"]["layout"]["value"] == {"columns": 2}
    assert named["flags"]["nope"]["errorCode"] == "FLAG_NOT_FOUND"


def test_track_takes_the_durable_path_to_the_sink(spawn, framing, tmp_path):
    sink = tmp_path / "events.ndjson"
    client = spawn(framing=framing, sink=str(sink), flush_interval=3600)
    flags = sync_user(client, channels=("featureFlags",))["featureFlags"]
    banners = client.subscribe("banners")
    tracked = client.track("purchase", value=12.5, details={"sku": "boots"})
    enqueued = flags.wait_for(type="CUSTOM", action="ENQUEUED")
    assert enqueued["eventId"] == tracked["eventId"]
    assert enqueued["event"] == {"name": "purchase", "value": 12.5, "details": {"sku": "boots"}}
    assert client.track("signup")["eventId"] != tracked["eventId"]
    assert flags.wait_for(type="CUSTOM", action="ENQUEUED")["event"] == {"name": "signup"}
    assert client.flush() == {"flushed": 2, "pending": 0}
    assert flags.wait_for(type="CUSTOM", action="FLUSHED")["eventId"] == tracked["eventId"]
    lines = [json.loads(line) for line in sink.read_text().splitlines()]
    assert [(line["kind"], line["name"], line["itemId"], line["channel"]) for line in lines] == [
        ("custom", "purchase", "purchase", "featureFlags"), ("custom", "signup", "signup", "featureFlags")]
    assert lines[0]["eventId"] == tracked["eventId"] and lines[0]["userId"] == "ada"
    # Custom events go to featureFlags subscriptions only.
    assert [event["type"] for event in banners.drain()] == ["CACHE_REPLAY"]


def test_track_refuses_what_it_cannot_store(spawn):
    client = spawn()
    with pytest.raises(InvalidParams) as raised:
        client.track("")
    assert raised.value.field == "name"
    with pytest.raises(ValueError):  # JSON has no NaN: refused before it is sent
        client.track("x", value=float("nan"))
    client.disable_sdk()
    with pytest.raises(SDKDisabled):
        client.track("purchase")


def test_extras_select_a_feed_of_content_cards(spawn, framing):
    client = spawn(framing=framing)
    inbox = client.subscribe("contentCards", extras={"feed": "inbox"})
    every = client.subscribe("contentCards")
    client.change_user("ada")
    updated = inbox.wait_for(type="DATA_UPDATED")["cacheSnapshot"]["contentCards"]
    assert ([card["id"] for card in updated["cards"]], updated["unviewedCount"]) == (["welcome"], 1)
    assert len(every.wait_for(type="DATA_UPDATED")["cacheSnapshot"]["contentCards"]["cards"]) == 2
    news = client.get_snapshot("contentCards", extras={"feed": "news"})["contentCards"]
    assert [card["id"] for card in news["cards"]] == ["house-rules"]
    assert client.get_snapshot("contentCards", extras={"feed": "nowhere"})["contentCards"] == {
        "cards": [], "unviewedCount": 0}
    with pytest.raises(InvalidParams):
        client.get_snapshot("banners", extras={"feed": "inbox"})


def test_status_describes_the_definitions(spawn, framing):
    definitions = spawn(framing=framing).status()["definitions"]
    assert definitions["loaded"] is True and definitions["problems"] == []
    assert definitions["location"].endswith("shop.json") and definitions["loadedAt"] > 0
    flawed = spawn(framing=framing, definitions=str(DEFINITIONS / "flawed.json")).status()["definitions"]
    (problem,) = flawed["problems"]
    assert problem["pointer"].startswith("/flags/typo") and problem["line"] > 0 and problem["message"]


def test_a_request_after_change_user_sees_the_new_users_data(spawn, framing):
    client = spawn(framing=framing)
    flags = client.subscribe("featureFlags")
    client.change_user("ada", attributes={"tier": "gold"})
    # No wait: the refresh that changeUser started is finished before the next request is handled,
    # and its events are queued before that request's reply returns.
    assert client.get_feature_flag("checkout")["enabled"] is True
    assert [event["type"] for event in flags.pending()] == ["CACHE_REPLAY", "CACHE_LOAD", "DATA_UPDATED"]
