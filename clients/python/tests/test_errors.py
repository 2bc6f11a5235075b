"""Error replies of the real server become exceptions of their reason's class."""

import json

import pytest

from bunting import errors
from conftest import SHOP, sync_user


def raised_by(call):
    with pytest.raises(errors.RPCError) as raised:
        call()
    return raised.value


def test_each_reason_family_has_its_class(spawn, framing):
    client = spawn(framing=framing)
    sync_user(client)
    cases = [
        (lambda: client.call("status", "not an object"), errors.InvalidRequest, -32600, "INVALID_REQUEST"),
        (lambda: client.call("sattus"), errors.MethodNotFound, -32601, "METHOD_NOT_FOUND"),
        (lambda: client.log_click("featureFlags", "checkout"), errors.InvalidParams, -32602, "INVALID_PARAMS"),
        (lambda: client.log_impression("contentCards", id="nope"), errors.NotFound, -32002, "NOT_FOUND"),
        (lambda: client.log_dismiss("contentCards", "house-rules"), errors.NotAllowed, -32003, "NOT_ALLOWED"),
        (lambda: client.evaluate({"nope": [1]}), errors.InvalidRule, -32005, "INVALID_RULE"),
    ]
    for call, cls, code, reason in cases:
        error = raised_by(call)
        assert type(error) is cls
        assert (error.code, error.reason, error.data["reason"]) == (code, reason, reason)
        assert isinstance(error, errors.BuntingError) and error.message in str(error)


def test_invalid_params_name_the_field_and_why(spawn, framing):
    error = raised_by(lambda: spawn(framing=framing).call("getFeatureFlag", {"id": "x", "idd": "y"}))
    assert isinstance(error, errors.InvalidParams)
    assert error.field == "idd" and error.why and error.method == "getFeatureFlag"


def test_sdk_disabled(spawn, framing):
    client = spawn(framing=framing)
    client.disable_sdk()
    error = raised_by(lambda: client.log_impression("featureFlags", id="checkout"))
    assert type(error) is errors.SDKDisabled and error.reason == "SDK_DISABLED"


def test_shutting_down(spawn, framing):
    client = spawn(framing=framing)
    done, refused = client.batch([("shutdown", None), ("status", None)])
    assert done == {}
    assert type(refused) is errors.ShuttingDown and refused.code == -32006


def test_parse_errors_of_unreadable_messages_are_kept(spawn, framing):
    client = spawn(framing=framing)
    broken = b'{"jsonrpc":"2.0","id":1,"method":' if framing == "ndjson" else b'{"jsonrpc":'
    # The client never writes broken JSON itself; write it past the encoder.
    client._write(broken + b"\n" if framing == "ndjson" else b"Content-Length: %d\r\n\r\n%s" % (len(broken), broken),
                  None)
    client.status()  # replies come in order: the parse error's is in by now
    (error,) = client.unattributed_errors()
    assert type(error) is errors.ParseError and error.code == -32700
    assert error.reason == "INVALID_JSON" and "line" in error.data


def test_reads_before_a_sync_are_not_synced(spawn, framing):
    client = spawn(framing=framing)
    for read, channel in ((lambda: client.get_feature_flag("checkout"), "featureFlags"),
                          (lambda: client.get_banner("home-top"), "banners")):
        error = raised_by(read)
        assert type(error) is errors.NotSynced and (error.code, error.channel) == (-32008, channel)
        assert "subscribe" in error.why
    # Once the channel was refreshed for this user, a missing item is null, not an error.
    sync_user(client, channels=("featureFlags",))
    assert client.get_feature_flag("nope") is None
    assert type(raised_by(lambda: client.get_banner("home-top"))) is errors.NotSynced


def test_reads_of_a_channel_the_definitions_turn_off(spawn, tmp_path):
    document = json.loads(SHOP.read_text())
    document["channels"]["banners"] = False
    path = tmp_path / "banners-off.json"
    path.write_text(json.dumps(document))
    client = spawn(definitions=str(path))
    sync_user(client, channels=("featureFlags",))
    error = raised_by(lambda: client.get_banner("home-top"))
    assert type(error) is errors.ChannelDisabled and (error.code, error.channel) == (-32009, "banners")
    assert client.get_feature_flag("checkout")["id"] == "checkout"


def test_a_batch_of_more_than_a_thousand_is_refused_as_a_whole(spawn, framing):
    client = spawn(framing=framing)
    # The refusal comes with id null; the client knows which batch it was and raises at once.
    with pytest.raises(errors.InvalidRequest) as raised:
        client.batch([("changeUser", {"userId": "user-%d" % index}) for index in range(1001)], timeout=60)
    assert raised.value.reason == "BATCH_TOO_LARGE" and raised.value.code == -32600
    assert client.status()["userId"] is None  # none of it ran
    assert len(client.batch([("status", None)] * 1000, timeout=60)) == 1000
    assert client.unattributed_errors() == []


def test_a_message_over_the_servers_limit_fails_its_own_call(spawn, framing):
    client = spawn(framing=framing, max_message_size=4096)
    with pytest.raises(errors.InvalidRequest) as raised:
        client.evaluate({"var": "x"}, data={"x": "a" * 5000}, timeout=30)
    assert (raised.value.reason, raised.value.limit, raised.value.method) == ("MESSAGE_TOO_LARGE", 4096, "evaluate")
    with pytest.raises(errors.InvalidRequest):
        client.batch([("evaluate", {"rule": {"var": "x"}, "data": {"x": "b" * 2000}})] * 3, timeout=30)
    assert client.evaluate({"var": "x"}, data={"x": "a" * 3000}) == {"result": "a" * 3000}
    assert client.unattributed_errors() == []


def test_requests_past_a_batchs_reply_limit_each_get_reply_too_large(spawn):
    client = spawn()
    # One reply of 17 MB from a request of 1 MB: past the batch's 16 MiB, the rest does not run.
    large = ("evaluate", {"rule": [{"var": "x"}] * 17, "data": {"x": "a" * 1_000_000}})
    result, refused = client.batch([large, ("changeUser", {"userId": "ada"})], timeout=120)
    assert len(result["result"]) == 17
    assert type(refused) is errors.InvalidRequest and refused.reason == "REPLY_TOO_LARGE"
    assert client.status()["userId"] is None


def test_a_template_that_gives_no_text_is_a_template_error(spawn, framing):
    client = spawn(framing=framing)
    assert client.render_template("Hi {{${first_name}}}!", attributes={"first_name": "Ada"}) == {"text": "Hi Ada!"}
    assert client.render_template("{{ xs | join: '+' }}", data={"xs": [1, 2]}) == {"text": "1+2"}
    aborted = raised_by(lambda: client.render_template("a\n{% abort_message('not today') %}", data={}))
    assert type(aborted) is errors.TemplateError and aborted.code == -32012 and aborted.reason == "TEMPLATE_ABORTED"
    assert (aborted.line, aborted.column, aborted.abort_message, aborted.field) == (2, 1, "not today", "template")
    broken = raised_by(lambda: client.render_template("{% bogus %}"))
    assert type(broken) is errors.TemplateError and broken.reason == "INVALID_TEMPLATE" and broken.why
    assert broken.abort_message is None
