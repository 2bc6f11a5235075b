"""Typed use of the client that mypy must accept (checked by tests/test_types.py, not run)."""

from typing import List

from bunting import AsyncBunting, Bunting, ChannelEvent, DefinitionsEvent, UpdatesEvent


def follow_the_definitions(client: Bunting) -> List[str]:
    definitions = client.subscribe_to_definitions()
    assert definitions is not None
    event: DefinitionsEvent = definitions.next_event()
    stale: bool = event.get("stale", False)
    changed: List[str] = event.get("flagsChanged", []) if not stale else []
    for later in definitions:
        if later["type"] == "CHANGED":
            changed += later["flagsChanged"]
    return changed


def follow_a_channel(client: Bunting) -> str:
    flags = client.subscribe("featureFlags", extras=None)
    assert flags is not None
    updated: ChannelEvent = flags.wait_for(type="DATA_UPDATED", match=lambda e: e["channel"] == "featureFlags")
    queued: List[ChannelEvent] = flags.pending()
    updates = client.subscribe_to_updates("banners", lambda update: print(update["channel"]))
    assert updates is not None
    update: UpdatesEvent = updates.next_event()
    return updated["type"] + str(len(queued)) + update["subscriptionId"]


def resolve(client: Bunting) -> object:
    client.track("purchase", value=1.5, details={"sku": "boots"})
    return client.evaluate_flag("dark-mode", {"targetingKey": "ada"}, type="boolean")["value"]


async def follow_asynchronously(client: AsyncBunting) -> str:
    definitions = await client.subscribe_to_definitions()
    assert definitions is not None
    event: DefinitionsEvent = await definitions.next_event()
    async for later in definitions:
        return later["type"]
    return event["type"]


def read_results(client: Bunting) -> str:
    status = client.status()
    channel_enabled: bool = status["channels"]["featureFlags"]["enabled"]
    flag = client.get_feature_flag("dark-mode")
    enabled = flag["enabled"] if flag is not None else False
    flags = client.evaluate_flags({"targetingKey": "ada"})["flags"]
    reasons = [resolution["reason"] for resolution in flags.values()]
    pending: int = client.flush()["pending"]
    return "%s %s %s %s %d" % (status["version"], channel_enabled, enabled, reasons, pending)
