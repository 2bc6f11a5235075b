"""Misuse that mypy must refuse, each on the line marked `# refused` (tests/test_types.py)."""

from bunting import Bunting, DefinitionsEvent


def a_key_the_definitions_events_lack(client: Bunting) -> None:
    definitions = client.subscribe_to_definitions()
    assert definitions is not None
    print(definitions.next_event()["flagChanged"])  # refused


def a_field_of_another_type(client: Bunting) -> None:
    definitions = client.subscribe_to_definitions()
    assert definitions is not None
    message: int = definitions.next_event()["message"]  # refused
    print(message)


def channel_events_are_not_definitions_events(client: Bunting) -> None:
    flags = client.subscribe("featureFlags")
    assert flags is not None
    event: DefinitionsEvent = flags.next_event()  # refused
    print(event)


def a_type_openfeature_does_not_have(client: Bunting) -> None:
    client.evaluate_flag("dark-mode", {}, type="number")  # refused


def a_channel_that_does_not_exist(client: Bunting) -> None:
    client.subscribe("flags")  # refused


def a_callback_for_other_events(client: Bunting) -> None:
    def on_definitions(event: DefinitionsEvent) -> None:
        print(event)

    client.subscribe("banners", on_definitions)  # refused


def a_key_a_result_lacks(client: Bunting) -> None:
    print(client.status()["user"])  # refused


def a_result_field_of_another_type(client: Bunting) -> None:
    pending: str = client.flush()["pending"]  # refused
    print(pending)


def a_flag_that_may_be_none(client: Bunting) -> None:
    print(client.get_feature_flag("dark-mode")["enabled"])  # refused
