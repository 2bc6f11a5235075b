"""The static-context paradigm of the provider, with the real openfeature-sdk against the
real server: the same answers as the dynamic paradigm, one round trip per context,
reads that need no server, and flags kept current by the definitions' events."""

import json
import os
import signal
import threading

import pytest
from openfeature import api
from openfeature.evaluation_context import EvaluationContext
from openfeature.event import ProviderEvent

from bunting.openfeature import BuntingProvider
from conftest import DEFINITIONS

TYPES = ("boolean", "string", "integer", "float", "object")
DEFAULTS = {"boolean": False, "string": "?", "integer": -1, "float": -1.5, "object": {"default": True}}
CONTEXTS = [
    None,
    EvaluationContext(),
    EvaluationContext("ada", {"email": "ada@example.com", "tier": "gold", "locale": "en-GB"}),
    EvaluationContext("bob", {"tier": "silver", "locale": "fr-FR"}),
    EvaluationContext(None, {"email": "x@example.com"}),
]


def resolve(provider, flag_type, key, context):
    method = getattr(provider, "resolve_%s_details" % flag_type)
    return method(key, DEFAULTS[flag_type], context)


def fields(details):
    return (details.value, type(details.value), details.variant, details.reason, details.error_code,
            details.error_message, dict(details.flag_metadata))


class Counting:
    """Counts the client's evaluateFlags calls (the real client does the work)."""

    def __init__(self, client):
        self.calls = 0
        self.called = threading.Event()
        real = client.evaluate_flags

        def counted(*args, **kwargs):
            self.calls += 1
            self.called.set()
            return real(*args, **kwargs)

        client.evaluate_flags = counted


def test_the_paradigm_is_one_of_two():
    with pytest.raises(ValueError, match="static"):
        BuntingProvider(paradigm="statik")


@pytest.mark.parametrize("document", ["shop.json", "flawed.json"])
def test_static_reads_answer_as_dynamic_calls_do(spawn, document):
    client = spawn(definitions=str(DEFINITIONS / document))
    dynamic, static = BuntingProvider(client), BuntingProvider(client, paradigm="static")
    dynamic.initialize(EvaluationContext())
    static.initialize(EvaluationContext())
    keys = list(json.loads((DEFINITIONS / document).read_text())["flags"]) + ["no-such-flag"]
    try:
        for context in CONTEXTS:
            for key in keys:
                for flag_type in TYPES:
                    expected = fields(resolve(dynamic, flag_type, key, context))
                    assert fields(resolve(static, flag_type, key, context)) == expected, (key, flag_type, context)
                    # The second read comes from what the first kept.
                    assert fields(resolve(static, flag_type, key, context)) == expected, (key, flag_type, context)
    finally:
        static.shutdown()
        dynamic.shutdown()


def test_one_round_trip_per_context_and_none_for_a_held_one(spawn):
    client = spawn()
    counting = Counting(client)
    provider = BuntingProvider(client, paradigm="static")
    ada = EvaluationContext("ada", {"tier": "gold"})
    provider.initialize(ada)
    assert counting.calls == 1
    assert provider.resolve_integer_details("max-items", 0, EvaluationContext("ada", {"tier": "gold"})).value == 10
    assert counting.calls == 1, "an equal context is the held one"
    # A stopped server answers nothing: the held context's reads do not ask it.
    os.kill(client.pid, signal.SIGSTOP)
    try:
        for _ in range(100):
            assert provider.resolve_integer_details("max-items", 0, ada).value == 10
            assert provider.resolve_string_details("greeting", "?", ada).value == "Hello, and welcome."
    finally:
        os.kill(client.pid, signal.SIGCONT)
    assert provider.resolve_integer_details("max-items", 0, EvaluationContext("bob")).value == 3
    assert counting.calls == 2
    assert provider.resolve_integer_details("max-items", 0, ada).value == 10
    assert counting.calls == 3, "only the newest context is held"
    provider.shutdown()


def test_a_changed_attribute_is_a_new_context(spawn):
    provider = BuntingProvider(spawn(), paradigm="static")
    attributes = {"tier": "silver"}
    context = EvaluationContext("ada", attributes)
    provider.initialize(context)
    assert provider.resolve_integer_details("max-items", 0, context).value == 3
    attributes["tier"] = "gold"  # the caller's own dict, changed in place
    assert provider.resolve_integer_details("max-items", 0, context).value == 10
    provider.shutdown()


def test_a_new_document_is_resolved_before_its_event_is_told(spawn, definitions):
    provider = BuntingProvider(spawn(definitions=str(definitions), poll_interval=0.05), paradigm="static")
    ada = EvaluationContext("ada", {"locale": "en-GB"})
    seen = []
    done = threading.Event()

    def on_changed(details):
        # A handler reads the flag the event names: the new document's answer, already held.
        seen.append(api.get_client().get_string_value("greeting", "?", ada))
        done.set()

    api.add_handler(ProviderEvent.PROVIDER_CONFIGURATION_CHANGED, on_changed)
    try:
        api.set_provider_and_wait(provider)
        assert api.get_client().get_string_value("greeting", "?", ada) == "Hi!"
        changed = json.loads(definitions.read_text())
        changed["flags"]["greeting"]["variants"]["short"] = "Hey!"
        staged = definitions.with_suffix(".next")
        staged.write_text(json.dumps(changed))
        os.replace(staged, definitions)
        assert done.wait(30)
        assert seen == ["Hey!"]
    finally:
        api.remove_handler(ProviderEvent.PROVIDER_CONFIGURATION_CHANGED, on_changed)
        api.clear_providers()


def test_a_refresh_of_the_flags_resolves_them_again(spawn):
    client = spawn()
    provider = BuntingProvider(client, paradigm="static")
    provider.initialize(EvaluationContext("ada"))
    counting = Counting(client)
    client.refresh("featureFlags")  # rules that read $flagd.timestamp may answer otherwise now
    assert counting.called.wait(30)
    assert counting.calls == 1
    provider.shutdown()


def test_the_server_gone_is_an_error_for_a_new_context_only(spawn):
    client = spawn()
    provider = BuntingProvider(client, paradigm="static")
    ada = EvaluationContext("ada", {"tier": "gold"})
    provider.initialize(ada)
    client.kill()
    assert provider.resolve_integer_details("max-items", 0, ada).value == 10
    with pytest.raises(Exception) as raised:
        provider.resolve_integer_details("max-items", 0, EvaluationContext("bob"))
    assert "evaluateFlags failed" in str(raised.value)
