"""Error replies of the real server become exceptions of their reason's class."""

import pytest

from bunting import errors
from conftest import sync_user


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
