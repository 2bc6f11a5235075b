"""The OpenFeature provider with the real openfeature-sdk, against the real server:
typed resolution, errors, metadata, provider events from the definitions, and track."""

import datetime
import json
import os
import queue

import pytest
from openfeature import api
from openfeature.evaluation_context import EvaluationContext
from openfeature.event import ProviderEvent
from openfeature.exception import ErrorCode
from openfeature.flag_evaluation import Reason
from openfeature.provider import ProviderStatus
from openfeature.track import TrackingEventDetails

from bunting.openfeature import BuntingProvider, context_of
from conftest import DEFINITIONS

ADA = EvaluationContext("ada", {"email": "ada@example.com", "tier": "gold", "locale": "en-GB"})


@pytest.fixture
def provider(spawn):
    provider = BuntingProvider(spawn())
    provider.initialize(EvaluationContext())
    yield provider
    provider.shutdown()


@pytest.fixture
def events():
    """Every provider event the OpenFeature API dispatches, in a queue."""
    received: "queue.Queue" = queue.Queue()
    handlers = {kind: (lambda details, kind=kind: received.put((kind, details))) for kind in ProviderEvent}
    for kind, handler in handlers.items():
        api.add_handler(kind, handler)
    yield received
    for kind, handler in handlers.items():
        api.remove_handler(kind, handler)
    api.clear_providers()


def next_event(received, kind, timeout=30.0):
    while True:
        got, details = received.get(timeout=timeout)
        if got is kind:
            return details


def replace(path, document):
    staged = path.with_suffix(".next")
    staged.write_text(json.dumps(document) if not isinstance(document, str) else document)
    os.replace(staged, path)


def test_the_context_is_the_targeting_key_and_the_attributes():
    when = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
    assert context_of(EvaluationContext("ada", {"tier": "gold", "when": when, "n": [1, {"at": when}]})) == {
        "targetingKey": "ada", "tier": "gold", "when": "2026-01-02T03:04:05+00:00",
        "n": [1, {"at": "2026-01-02T03:04:05+00:00"}]}
    assert context_of(EvaluationContext(None, {"x": 1})) == {"x": 1}
    assert context_of(None) == {}


def test_each_type_resolves(provider):
    cases = [
        (provider.resolve_boolean_details, "dark-mode", False, True, "on"),
        (provider.resolve_string_details, "greeting", "?", "Hi!", "short"),
        (provider.resolve_integer_details, "max-items", 0, 10, "many"),
        (provider.resolve_float_details, "ratio", 0.0, 0.25, "low"),
        (provider.resolve_object_details, "layout", {}, {"columns": 2}, "grid"),
    ]
    for resolve, key, default, value, variant in cases:
        details = resolve(key, default, ADA)
        assert (details.value, details.variant, details.error_code) == (value, variant, None), key
        assert type(details.value) is type(value)
    assert provider.resolve_float_details("ratio", 0.0, ADA).reason == Reason.STATIC
    assert provider.resolve_boolean_details("dark-mode", False, ADA).reason == Reason.TARGETING_MATCH


def test_a_value_of_another_type_is_a_type_mismatch_for_each_type(provider):
    cases = [
        (provider.resolve_boolean_details, "greeting", False, "boolean"),
        (provider.resolve_string_details, "max-items", "?", "string"),
        (provider.resolve_integer_details, "ratio", 7, "integer"),
        (provider.resolve_float_details, "layout", 1.5, "float"),
        (provider.resolve_object_details, "dark-mode", {"x": 1}, "object"),
    ]
    for resolve, key, default, asked in cases:
        details = resolve(key, default, ADA)
        assert (details.value, details.reason, details.error_code) == (default, Reason.ERROR,
                                                                       ErrorCode.TYPE_MISMATCH), key
        assert details.variant is None and asked in details.error_message
    # An integer is a float too (flagd's rule): not a mismatch, and a float comes back.
    widened = provider.resolve_float_details("max-items", 0.0, ADA)
    assert (widened.value, type(widened.value), widened.error_code) == (10.0, float, None)


def test_errors_map_to_openfeature_codes(spawn):
    provider = BuntingProvider(spawn(definitions=str(DEFINITIONS / "flawed.json")))
    provider.initialize(EvaluationContext())
    try:
        missing = provider.resolve_string_details("nope", "fallback", ADA)
        assert (missing.value, missing.reason, missing.error_code) == ("fallback", Reason.ERROR,
                                                                       ErrorCode.FLAG_NOT_FOUND)
        assert "nope" in missing.error_message
        broken = provider.resolve_boolean_details("typo", True, ADA)
        assert (broken.value, broken.reason, broken.error_code) == (True, Reason.ERROR, ErrorCode.PARSE_ERROR)
        assert "iff" in broken.error_message and broken.flag_metadata["version"] == "flawed-1"
        # The other flags of that document serve.
        assert provider.resolve_boolean_details("dark-mode", False, ADA).value is True
        disabled = provider.resolve_boolean_details("retired", True, ADA)
        assert (disabled.value, disabled.reason, disabled.error_code) == (True, Reason.DISABLED, None)
    finally:
        provider.shutdown()


def test_flag_metadata_overlays_the_flag_set_metadata(provider):
    details = provider.resolve_boolean_details("dark-mode", False, ADA)
    assert dict(details.flag_metadata) == {"team": "design", "version": "shop-1", "owner": "client-tests"}
    assert dict(provider.resolve_float_details("ratio", 0.0, ADA).flag_metadata) == {
        "version": "shop-1", "owner": "client-tests"}


def test_through_the_openfeature_api(spawn, events):
    api.set_provider_and_wait(BuntingProvider(spawn()))
    client = api.get_client()
    assert client.get_provider_status() == ProviderStatus.READY
    next_event(events, ProviderEvent.PROVIDER_READY)
    assert client.get_boolean_value("dark-mode", False, ADA) is True
    assert client.get_integer_value("max-items", 0, EvaluationContext("bob")) == 3
    assert client.get_float_value("ratio", 0.0, ADA) == 0.25
    assert client.get_string_value("greeting", "?", ADA) == "Hi!"
    assert client.get_object_value("layout", {}, ADA) == {"columns": 2}
    details = client.get_string_details("max-items", "x", ADA)
    assert details.value == "x" and details.error_code == ErrorCode.TYPE_MISMATCH
    assert client.get_boolean_details("dark-mode", False, ADA).flag_metadata["team"] == "design"


def test_definition_changes_become_provider_events(spawn, definitions, events):
    api.set_provider_and_wait(BuntingProvider(spawn(definitions=str(definitions), poll_interval=0.05)))
    next_event(events, ProviderEvent.PROVIDER_READY)
    original = json.loads(definitions.read_text())
    changed = json.loads(definitions.read_text())
    changed["flags"]["greeting"]["defaultVariant"] = "short"
    replace(definitions, changed)
    details = next_event(events, ProviderEvent.PROVIDER_CONFIGURATION_CHANGED)
    assert "greeting" in details.flags_changed and "checkout" not in details.flags_changed
    replace(definitions, "{ this is not json")
    stale = next_event(events, ProviderEvent.PROVIDER_STALE)
    assert "INVALID_SERVER_DATA" in (stale.message or "")
    assert api.get_client().get_provider_status() == ProviderStatus.STALE
    replace(definitions, changed)  # the same document again: READY, not CHANGED
    next_event(events, ProviderEvent.PROVIDER_READY)
    assert api.get_client().get_provider_status() == ProviderStatus.READY
    replace(definitions, original)
    assert "greeting" in next_event(events, ProviderEvent.PROVIDER_CONFIGURATION_CHANGED).flags_changed


def test_no_definitions_is_an_error_until_they_load(spawn, tmp_path, events):
    path = tmp_path / "definitions.json"
    path.write_text((DEFINITIONS / "broken.json").read_text())
    client = spawn(definitions=str(path), poll_interval=0.05, start_without_definitions=True)
    api.set_provider(BuntingProvider(client))
    error = next_event(events, ProviderEvent.PROVIDER_ERROR)
    assert error.error_code == ErrorCode.GENERAL and "INVALID_SERVER_DATA" in error.message
    assert api.get_client().get_provider_status() == ProviderStatus.ERROR
    replace(path, (DEFINITIONS / "shop.json").read_text())
    next_event(events, ProviderEvent.PROVIDER_READY)
    assert api.get_client().get_boolean_value("dark-mode", False, ADA) is True


def test_a_server_that_cannot_start_makes_the_provider_fatal(spawn, events):
    # Without --start-without-definitions, unusable definitions stop the server at start-up.
    api.set_provider(BuntingProvider(spawn(definitions=str(DEFINITIONS / "broken.json"))))
    error = next_event(events, ProviderEvent.PROVIDER_ERROR)
    assert error.error_code == ErrorCode.PROVIDER_FATAL and "expected array" in error.message
    assert api.get_client().get_provider_status() == ProviderStatus.FATAL


def custom_lines(sink):
    return [json.loads(line) for line in sink.read_text().splitlines() if json.loads(line)["kind"] == "custom"]


def test_track_reaches_the_sink_exactly_once(spawn, tmp_path, events):
    sink = tmp_path / "events.ndjson"
    client = spawn(sink=str(sink), flush_interval=3600)
    flags = client.subscribe("featureFlags")
    client.change_user("ada")
    api.set_provider_and_wait(BuntingProvider(client))
    api.get_client().track("purchase", ADA, TrackingEventDetails(9.5, {"sku": "boots", "size": 42}))
    enqueued = flags.wait_for(type="CUSTOM", action="ENQUEUED")
    assert enqueued["channel"] == "featureFlags"
    assert enqueued["event"] == {"name": "purchase", "value": 9.5, "details": {"sku": "boots", "size": 42},
                                 "userId": "ada", "attributes": dict(ADA.attributes)}
    assert client.flush() == {"flushed": 1, "pending": 0}
    flushed = flags.wait_for(type="CUSTOM", action="FLUSHED")
    assert flushed["eventId"] == enqueued["eventId"]
    (line,) = custom_lines(sink)
    assert (line["kind"], line["channel"], line["itemId"], line["name"], line["value"], line["userId"]) == (
        "custom", "featureFlags", "purchase", "purchase", 9.5, "ada")
    assert line["eventId"] == enqueued["eventId"] and line["details"] == {"sku": "boots", "size": 42}
    assert line["attributes"] == {"email": "ada@example.com", "tier": "gold", "locale": "en-GB"}
    # Neither another flush nor the one at shutdown sends it again.
    assert client.flush() == {"flushed": 0, "pending": 0}
    assert client.close() == 0
    assert [line["eventId"] for line in custom_lines(sink)] == [enqueued["eventId"]]


def test_track_keeps_the_user_of_its_context(spawn, tmp_path, events):
    # A server tracking for many users: three targeting keys, interleaved, none the current user.
    sink = tmp_path / "events.ndjson"
    client = spawn(sink=str(sink), flush_interval=3600)
    client.change_user("ada")
    api.set_provider_and_wait(BuntingProvider(client))
    openfeature = api.get_client()
    sent = [("grace", "gold"), ("linus", "free"), ("grace", "silver"), ("ken", "gold"), ("linus", "gold")]
    for user, tier in sent:
        openfeature.track("checkout", EvaluationContext(user, {"tier": tier}), TrackingEventDetails(1.0))
    openfeature.track("opened")  # no context: the server's current user
    assert client.flush() == {"flushed": 6, "pending": 0}
    lines = custom_lines(sink)
    assert [(line["userId"], line.get("attributes")) for line in lines] == [
        (user, {"tier": tier}) for user, tier in sent] + [("ada", None)]
    assert all("sessionId" not in line for line in lines[:-1]) and "sessionId" in lines[-1]
    assert client.status()["userId"] == "ada"


def test_track_without_value_or_details_sends_only_the_name(spawn, tmp_path, provider):
    client = provider.client
    flags = client.subscribe("featureFlags")
    provider.track("signup")
    assert flags.wait_for(type="CUSTOM", action="ENQUEUED")["event"] == {"name": "signup"}


def test_a_provider_may_spawn_and_own_its_client(binary):
    provider = BuntingProvider(binary=binary, storage=":memory:", definitions=str(DEFINITIONS / "shop.json"))
    provider.initialize(EvaluationContext())
    client = provider.client
    assert provider.resolve_boolean_details("dark-mode", False, ADA).value is True
    provider.shutdown()
    assert not client.alive and client.returncode == 0


def test_growthbook_features_resolve_typed_through_the_provider(spawn):
    """A GrowthBook payload as definitions: each feature resolves as a flag,
    typed, an experiment's arm as its variant with reason SPLIT."""
    provider = BuntingProvider(spawn(definitions=str(DEFINITIONS / "growthbook.json")))
    provider.initialize(EvaluationContext())
    try:
        gold = provider.resolve_boolean_details("new-nav", False, EvaluationContext("ada", {"tier": "gold"}))
        assert (gold.value, gold.reason) == (True, Reason.TARGETING_MATCH)
        assert provider.resolve_boolean_details("new-nav", True, EvaluationContext("bo", {})).value is False
        arm = provider.resolve_string_details("checkout-button", "?", EvaluationContext("ada"))
        assert arm.value in ("blue", "green") and arm.reason == Reason.SPLIT
        assert arm.variant == {"blue": "control", "green": "treatment"}[arm.value]
        assert provider.resolve_object_details("limits", {}, ADA).value == {"items": 10, "label": "basic"}
        assert provider.resolve_float_details("discount", 0.0, ADA).value == 0.1
        mismatch = provider.resolve_integer_details("checkout-button", 7, ADA)
        assert (mismatch.value, mismatch.error_code) == (7, ErrorCode.TYPE_MISMATCH)
    finally:
        provider.shutdown()
