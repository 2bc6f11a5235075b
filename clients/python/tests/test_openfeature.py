"""The OpenFeature provider, against the server methods of this round: evaluateFlag with
`type`, subscribeToDefinitions and track. A server without them fails these tests."""

import datetime
import json
import os
import queue

import pytest

openfeature = pytest.importorskip("openfeature")

from openfeature import api  # noqa: E402
from openfeature.evaluation_context import EvaluationContext  # noqa: E402
from openfeature.event import ProviderEvent  # noqa: E402
from openfeature.exception import ErrorCode  # noqa: E402
from openfeature.flag_evaluation import Reason  # noqa: E402
from openfeature.provider import ProviderStatus  # noqa: E402
from openfeature.track import TrackingEventDetails  # noqa: E402

from bunting.openfeature import BuntingProvider, context_of  # noqa: E402
from conftest import DEFINITIONS  # noqa: E402

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


def next_event(received, kind, timeout=10.0):
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


def test_errors_map_to_openfeature_codes(provider):
    mismatch = provider.resolve_boolean_details("greeting", False, ADA)
    assert (mismatch.value, mismatch.reason, mismatch.error_code) == (False, Reason.ERROR, ErrorCode.TYPE_MISMATCH)
    assert mismatch.error_message
    missing = provider.resolve_string_details("nope", "fallback", ADA)
    assert (missing.value, missing.error_code) == ("fallback", ErrorCode.FLAG_NOT_FOUND)
    disabled = provider.resolve_boolean_details("retired", True, ADA)
    assert disabled.reason == Reason.DISABLED


def test_flag_metadata_overlays_the_flag_set_metadata(provider):
    details = provider.resolve_boolean_details("dark-mode", False, ADA)
    assert details.flag_metadata["team"] == "design"
    assert details.flag_metadata["version"] == "shop-1"


def test_through_the_openfeature_api(spawn, events):
    api.set_provider_and_wait(BuntingProvider(spawn()))
    client = api.get_client()
    assert client.get_provider_status() == ProviderStatus.READY
    next_event(events, ProviderEvent.PROVIDER_READY)
    assert client.get_boolean_value("dark-mode", False, ADA) is True
    assert client.get_integer_value("max-items", 0, EvaluationContext("bob")) == 3
    details = client.get_string_details("max-items", "x", ADA)
    assert details.value == "x" and details.error_code == ErrorCode.TYPE_MISMATCH


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
    api.set_provider(BuntingProvider(spawn(definitions=str(path), poll_interval=0.05)))
    error = next_event(events, ProviderEvent.PROVIDER_ERROR)
    assert error.error_code == ErrorCode.GENERAL
    assert api.get_client().get_provider_status() == ProviderStatus.ERROR
    replace(path, (DEFINITIONS / "shop.json").read_text())
    next_event(events, ProviderEvent.PROVIDER_READY)
    assert api.get_client().get_boolean_value("dark-mode", False, ADA) is True


def test_track_goes_to_the_durable_analytics_path(spawn, tmp_path):
    sink = tmp_path / "events.ndjson"
    client = spawn(sink=str(sink), flush_interval=3600)
    flags = client.subscribe("featureFlags")
    client.change_user("ada")
    provider = BuntingProvider(client)
    provider.initialize(EvaluationContext())
    try:
        provider.track("purchase", ADA, TrackingEventDetails(9.5, {"sku": "boots"}))
        enqueued = flags.wait_for(type="CUSTOM", action="ENQUEUED")
        assert enqueued["event"] == {"name": "purchase", "value": 9.5, "details": {"sku": "boots"}}
        client.flush()
        (line,) = [json.loads(line) for line in sink.read_text().splitlines() if '"custom"' in line]
        assert (line["kind"], line["name"], line["value"], line["userId"]) == ("custom", "purchase", 9.5, "ada")
        assert line["eventId"] == enqueued["eventId"] and line["details"] == {"sku": "boots"}
    finally:
        provider.shutdown()


def test_a_provider_may_spawn_and_own_its_client(binary):
    provider = BuntingProvider(binary=binary, storage=":memory:", definitions=str(DEFINITIONS / "shop.json"))
    provider.initialize(EvaluationContext())
    client = provider.client
    assert provider.resolve_boolean_details("dark-mode", False, ADA).value is True
    provider.shutdown()
    assert not client.alive and client.returncode == 0
