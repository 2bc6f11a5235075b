"""The generated methods follow the OpenRPC document, and the generated file is current."""

import functools
import importlib.util
import inspect
import json
from pathlib import Path

import pytest

from bunting import METHODS, AsyncBunting, Bunting, errors

CLIENT = Path(__file__).resolve().parents[1]
DOCUMENT_PATH = CLIENT.parents[1] / "schemas" / "openrpc.json"
DOCUMENT = json.loads(DOCUMENT_PATH.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def generator():
    spec = importlib.util.spec_from_file_location("generate_methods", CLIENT / "tools" / "generate_methods.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_modules_are_up_to_date():
    outputs = generator().outputs(DOCUMENT)
    assert sorted(path.name for path in outputs) == ["_methods.py", "events.py", "results.py"]
    for path, text in outputs.items():
        assert path.read_text(encoding="utf-8") == text, (
            "bunting/%s is out of date: run python3 clients/python/tools/generate_methods.py" % path.name)


def test_each_notification_has_a_typed_dict_of_its_params():
    from bunting import events
    for notification in DOCUMENT["x-notifications"]:
        typed = getattr(events, generator().EVENT_TYPES[notification["name"]])
        assert {"subscriptionId"} <= typed.__required_keys__
    assert events.DefinitionsEvent.__required_keys__ == {"subscriptionId", "type"}
    assert {"loadedAt", "flagsChanged", "stale", "reason"} <= events.DefinitionsEvent.__optional_keys__
    assert events.ChannelEvent.__required_keys__ == {"subscriptionId", "channel", "type"}
    assert {"cacheSnapshot", "event", "eventId", "action"} <= events.ChannelEvent.__optional_keys__


@pytest.mark.parametrize("name", [method["name"] for method in DOCUMENT["methods"]])
@pytest.mark.parametrize("cls", [Bunting, AsyncBunting])
def test_every_method_of_the_document_has_a_client_method_with_its_params(cls, name):
    spec = next(method for method in DOCUMENT["methods"] if method["name"] == name)
    python = generator().snake(name)
    method = getattr(cls, python, None)
    assert method is not None, "%s has no method %s for %s" % (cls.__name__, python, name)
    assert inspect.iscoroutinefunction(method) == (cls is AsyncBunting)
    signature = inspect.signature(method)
    own = {"self", "timeout", "callback"}
    declared = {generator().snake(p["name"]): bool(p.get("required")) for p in spec.get("params", [])}
    actual = {param.name: param.default is inspect.Parameter.empty
              for param in signature.parameters.values() if param.name not in own}
    assert actual == declared, "params of %s differ from the document" % name
    assert "timeout" in signature.parameters
    assert METHODS[name].python == python
    assert [(p.wire, p.required) for p in METHODS[name].params] == [
        (p["name"], bool(p.get("required"))) for p in spec.get("params", [])]


def test_the_table_lists_exactly_the_documents_methods():
    assert list(METHODS) == [method["name"] for method in DOCUMENT["methods"]]


def test_snake_case_names():
    snake = generator().snake
    assert [snake(n) for n in ("getFeatureFlag", "disableSDK", "rpc.discover", "placementIds", "subscribeToUpdates",
                               "buttonId", "from")] == [
        "get_feature_flag", "disable_sdk", "rpc_discover", "placement_ids", "subscribe_to_updates", "button_id",
        "from_"]


def test_every_error_reason_of_the_document_has_its_class_with_its_code():
    for name, error in DOCUMENT["components"]["errors"].items():
        reason = error["data"]["reason"]
        cls = errors.BY_REASON.get(reason)
        assert cls is not None, "no error class for reason %s (%s): add it to bunting/errors.py" % (reason, name)
        assert cls.code_family == error["code"], reason
        built = errors.from_wire(error, "m")
        assert type(built) is cls and built.reason == reason and built.data == error["data"]


def test_unknown_reasons_fall_back_to_their_code_then_to_the_base_class():
    assert type(errors.from_wire({"code": -32602, "message": "x", "data": {"reason": "SOMETHING_NEW"}})) \
        is errors.InvalidParams
    unknown = errors.from_wire({"code": -32099, "message": "x", "data": {"reason": "SOMETHING_NEW"}})
    assert type(unknown) is errors.RPCError and unknown.reason == "SOMETHING_NEW"


def test_the_reasons_of_this_round_have_classes():
    for code, reason, cls in ((-32008, "NOT_SYNCED", errors.NotSynced),
                              (-32009, "CHANNEL_DISABLED", errors.ChannelDisabled),
                              (-32600, "BATCH_TOO_LARGE", errors.InvalidRequest),
                              (-32600, "REPLY_TOO_LARGE", errors.InvalidRequest),
                              (-32007, "STORAGE_ERROR", errors.StorageError)):
        error = errors.from_wire({"code": code, "message": "m", "data": {"reason": reason, "channel": "banners"}})
        assert type(error) is cls and error.data["channel"] == "banners"


def test_the_running_servers_methods_all_have_client_methods(spawn):
    discovered = spawn().rpc_discover()
    missing = [m["name"] for m in discovered["methods"] if m["name"] not in METHODS]
    assert not missing, "the binary has methods the client lacks (regenerate): %s" % missing
