"""Shared fixtures: the binary under test (BUNTING_BIN), definitions files, and a
spawn helper that closes every client it made."""

import os
import shutil
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bunting import AsyncBunting, Bunting  # noqa: E402
from bunting._launch import find_binary  # noqa: E402

DEFINITIONS = HERE / "definitions"
SHOP = DEFINITIONS / "shop.json"
FRAMINGS = ("ndjson", "lsp")
CHANNELS = ("featureFlags", "banners", "contentCards")


@pytest.fixture(scope="session")
def binary() -> str:
    return find_binary()


@pytest.fixture
def definitions(tmp_path: Path) -> Path:
    """A copy of shop.json that a test may edit (the server watches it)."""
    target = tmp_path / "definitions.json"
    shutil.copyfile(SHOP, target)
    return target


def _options(options: Dict[str, Any]) -> Dict[str, Any]:
    merged = {"storage": ":memory:", "definitions": str(SHOP)}
    merged.update(options)
    return {key: value for key, value in merged.items() if value is not None}


@pytest.fixture
def spawn(binary: str) -> Callable[..., Bunting]:
    clients: List[Bunting] = []

    def make(**options: Any) -> Bunting:
        client = Bunting.spawn(binary, **_options(options))
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close(timeout=5)


@pytest.fixture
def aspawn(binary: str):
    """For async tests: `client = await aspawn(...)`; closed after the test's loop ends its work."""
    clients: List[AsyncBunting] = []

    async def make(**options: Any) -> AsyncBunting:
        client = await AsyncBunting.spawn(binary, **_options(options))
        clients.append(client)
        return client

    make.clients = clients  # type: ignore[attr-defined]
    return make


@pytest.fixture(params=FRAMINGS)
def framing(request: pytest.FixtureRequest) -> str:
    return request.param


def sync_user(client: Bunting, user: str = "ada", channels=CHANNELS, **attributes: Any):
    """Subscribes to the channels, changes to `user` and waits for each DATA_UPDATED."""
    subscriptions = {channel: client.subscribe(channel) for channel in channels}
    client.change_user(user, attributes=attributes or None)
    for subscription in subscriptions.values():
        subscription.wait_for(type="DATA_UPDATED", timeout=30)
    return subscriptions


