"""The protocol core without a server: what it writes, and how it routes what it reads."""

import json

import pytest

from bunting import errors
from bunting._core import Core, matcher


def wire(*messages):
    return b"".join(json.dumps(message).encode() + b"\n" for message in messages)


def event(subscription, kind, **fields):
    return {"jsonrpc": "2.0", "method": "event",
            "params": dict(subscriptionId=subscription, channel="featureFlags", type=kind, **fields)}


def test_requests_are_numbered_and_leave_out_empty_params():
    core = Core("ndjson")
    first, frame = core.request("status")
    assert json.loads(frame) == {"jsonrpc": "2.0", "id": 1, "method": "status"}
    second, frame = core.request("getFeatureFlag", {"id": "x"})
    assert json.loads(frame) == {"jsonrpc": "2.0", "id": 2, "method": "getFeatureFlag", "params": {"id": "x"}}
    assert set(core.pending) == {1, 2}


def test_lsp_frames_carry_the_byte_length():
    _, frame = Core("lsp").request("changeUser", {"userId": "\u00e9"})
    header, body = frame.split(b"\r\n\r\n")
    assert header == b"Content-Length: %d" % len(body)
    assert json.loads(body)["params"] == {"userId": "\u00e9"}


def test_values_that_are_not_json_are_refused_before_anything_is_registered():
    core = Core("ndjson")
    with pytest.raises(ValueError):
        core.request("evaluate", {"rule": float("nan")})
    with pytest.raises(TypeError):
        core.request("evaluate", {"rule": object()})
    assert core.pending == {}
    assert core.request("status")[0].id == 1


def test_a_subscribe_reply_makes_the_queue_its_events_land_in_while_it_is_routed():
    core = Core("ndjson")
    pending, _ = core.request("subscribe", {"channel": "featureFlags"}, notification="event")
    # The reply and its CACHE_REPLAY arrive in one chunk, before the caller looks.
    fed = core.feed(wire({"jsonrpc": "2.0", "id": 1, "result": {"subscriptionId": "sub-1"}},
                         event("sub-1", "CACHE_REPLAY")))
    assert fed.completed == [pending] and fed.arrived
    state = pending.outcome()
    assert state.id == "sub-1"
    assert core.take(state, None)["type"] == "CACHE_REPLAY"


def test_a_subscribe_reply_with_a_callback_routes_the_following_events_to_it():
    core = Core("ndjson")
    seen = []
    pending, _ = core.request("subscribe", {"channel": "featureFlags"}, notification="event", callback=seen.append)
    fed = core.feed(wire({"jsonrpc": "2.0", "id": 1, "result": {"subscriptionId": "sub-1"}},
                         event("sub-1", "CACHE_REPLAY")))
    assert [e["type"] for _, e in fed.deliveries] == ["CACHE_REPLAY"]
    assert not pending.outcome().queue


def test_null_subscribe_result_makes_no_subscription():
    core = Core("ndjson")
    pending, _ = core.request("subscribe", {"channel": "banners"}, notification="event")
    core.feed(wire({"jsonrpc": "2.0", "id": 1, "result": None}))
    assert pending.outcome() is None
    assert core.subscriptions == {}


def test_events_of_unknown_subscriptions_get_a_queue_on_demand():
    core = Core("ndjson")
    core.feed(wire(event("sub-9", "CACHE_LOAD")))
    assert core.take(core.subscriptions["sub-9"], None)["type"] == "CACHE_LOAD"


def test_take_removes_only_the_first_match_and_keeps_the_order_of_the_rest():
    core = Core("ndjson")
    core.feed(wire(event("s", "CACHE_LOAD"), event("s", "DATA_UPDATED", reason="A"),
                   event("s", "IMPRESSION", action="ENQUEUED"), event("s", "DATA_UPDATED", reason="B")))
    state = core.subscriptions["s"]
    assert core.take(state, matcher({"type": "DATA_UPDATED"}))["reason"] == "A"
    assert core.take(state, matcher({"type": "ERROR"})) is None
    assert [e["type"] for _, e in state.queue] == ["CACHE_LOAD", "IMPRESSION", "DATA_UPDATED"]


def test_take_any_takes_the_oldest_match_across_subscriptions():
    core = Core("ndjson")
    core.feed(wire(event("a", "CACHE_LOAD"), event("b", "DATA_UPDATED", reason="first"),
                   event("a", "DATA_UPDATED", reason="second")))
    assert core.take_any(matcher({"type": "DATA_UPDATED"}), "event")["reason"] == "first"
    assert core.take_any(matcher({"type": "DATA_UPDATED"}), "event")["reason"] == "second"
    assert core.take_any(matcher({"type": "DATA_UPDATED"}), "event") is None
    assert core.take_any(matcher({"type": "DATA_UPDATED"}), "updates") is None
    assert [e["subscriptionId"] for e in core.queued()] == ["a"]


def test_matcher_fields_may_list_alternatives_and_a_predicate():
    match = matcher({"type": ("DATA_UPDATED", "ERROR"), "reason": None}, lambda e: e.get("n", 0) > 1)
    assert match({"type": "ERROR", "n": 2})
    assert not match({"type": "ERROR", "n": 1})
    assert not match({"type": "CACHE_LOAD", "n": 5})
    assert matcher({"type": None}) is None


def test_remove_subscription_ends_it_after_the_reply_and_keeps_its_events():
    core = Core("ndjson")
    core.feed(wire(event("s", "CACHE_REPLAY")))
    state = core.subscriptions["s"]
    pending, _ = core.request("removeSubscription", {"subscriptionId": "s"})
    fed = core.feed(wire({"jsonrpc": "2.0", "id": 1, "result": {"removed": True}}))
    assert fed.arrived and state.ended and "s" not in core.subscriptions
    assert core.take(state, None)["type"] == "CACHE_REPLAY"


def test_error_replies_become_the_class_of_their_reason():
    core = Core("ndjson")
    pending, _ = core.request("logClick", {"channel": "featureFlags", "id": "x"})
    core.feed(wire({"jsonrpc": "2.0", "id": 1, "error": {
        "code": -32602, "message": "Invalid params", "data": {"reason": "INVALID_PARAMS", "field": "channel",
                                                              "why": "no"}}}))
    with pytest.raises(errors.InvalidParams) as raised:
        pending.outcome()
    assert (raised.value.code, raised.value.reason, raised.value.field, raised.value.method) == (
        -32602, "INVALID_PARAMS", "channel", "logClick")


def test_batch_replies_are_matched_by_id_in_any_order():
    core = Core("ndjson")
    pendings, frame = core.batch([("status", None), ("getFeatureFlag", {"id": "x"})])
    assert [m["id"] for m in json.loads(frame)] == [1, 2]
    core.feed(json.dumps([{"jsonrpc": "2.0", "id": 2, "result": None},
                          {"jsonrpc": "2.0", "id": 1, "result": {"v": 1}}]).encode() + b"\n")
    assert [p.outcome() for p in pendings] == [{"v": 1}, None]


def test_errors_with_id_null_are_kept_as_unattributed():
    core = Core("ndjson")
    core.feed(wire({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error",
                                                            "data": {"reason": "INVALID_JSON"}}}))
    assert isinstance(core.unattributed[0], errors.ParseError)


def refusal(reason, **data):
    return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid request",
                                                    "data": dict(reason=reason, **data)}}


def test_a_message_too_large_refusal_ends_the_oldest_request_larger_than_the_limit():
    core = Core("ndjson")
    small, _ = core.request("evaluate", {"rule": 1})
    large, frame = core.request("evaluate", {"rule": "x" * 2000})
    larger, _ = core.request("evaluate", {"rule": "x" * 3000})
    assert large.size == len(frame) - 1  # the body, without the newline
    fed = core.feed(wire(refusal("MESSAGE_TOO_LARGE", limit=1024)))
    assert fed.completed == [large] and set(core.pending) == {small.id, larger.id}
    with pytest.raises(errors.InvalidRequest) as raised:
        large.outcome()
    assert (raised.value.reason, raised.value.data["limit"], raised.value.method) == (
        "MESSAGE_TOO_LARGE", 1024, "evaluate")
    assert not core.unattributed


def test_a_batch_too_large_refusal_ends_every_request_of_that_batch():
    core = Core("lsp")
    single, _ = core.request("status")
    small, _ = core.batch([("status", None)] * 3)
    large, _ = core.batch([("status", None)] * 1001)
    fed = core.feed(b"Content-Length: %d\r\n\r\n%s" % (len(json.dumps(refusal("BATCH_TOO_LARGE"))),
                                                        json.dumps(refusal("BATCH_TOO_LARGE")).encode()))
    assert fed.completed == large and set(core.pending) == {single.id} | {p.id for p in small}
    exceptions = {id(p.exception) for p in large}
    assert len(exceptions) == 1 and isinstance(large[0].exception, errors.InvalidRequest)
    assert large[0].exception.reason == "BATCH_TOO_LARGE"


def test_a_refusal_that_fits_no_unanswered_message_is_unattributed():
    core = Core("ndjson")
    pending, _ = core.request("evaluate", {"rule": 1})
    fed = core.feed(wire(refusal("MESSAGE_TOO_LARGE", limit=1024), refusal("BATCH_TOO_LARGE")))
    assert fed.completed == [] and set(core.pending) == {pending.id}
    assert [error.reason for error in core.unattributed] == ["MESSAGE_TOO_LARGE", "BATCH_TOO_LARGE"]


def test_late_replies_of_abandoned_requests_are_dropped():
    core = Core("ndjson")
    pending, _ = core.request("status")
    core.abandon(pending)
    assert core.feed(wire({"jsonrpc": "2.0", "id": 1, "result": {}})).completed == []


def test_output_that_is_not_json_is_a_protocol_error():
    with pytest.raises(errors.ProtocolError):
        Core("ndjson").feed(b"warning: something\n")


def test_fail_all_gives_each_request_its_own_exception():
    core = Core("ndjson")
    first, _ = core.request("status")
    second, _ = core.request("status")
    core.fail_all(lambda: errors.ServerExited(1, ["boom"]))
    assert first.exception is not second.exception
    with pytest.raises(errors.ServerExited):
        first.outcome()
    assert core.pending == {}
