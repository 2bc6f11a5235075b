"""The annotations hold: mypy accepts the package and typed use of its events and methods,
and refuses misuse (a key a definitions event lacks, the wrong event type, a wrong literal)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from bunting import ChannelEvent, DefinitionsEvent, UpdatesEvent
from conftest import sync_user

HERE = Path(__file__).resolve().parent
CLIENT = HERE.parent


def mypy(tmp_path, *paths):
    environment = dict(os.environ, MYPYPATH=str(CLIENT))
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                           "--no-error-summary", "--hide-error-context", *map(str, paths)],
                          capture_output=True, text=True, cwd=str(CLIENT), env=environment, timeout=300)
    return done.returncode, done.stdout + done.stderr


def test_the_package_and_typed_use_of_it_pass(tmp_path):
    status, output = mypy(tmp_path, CLIENT / "bunting", HERE / "typed" / "well_typed.py")
    assert status == 0, output


def test_misuse_is_refused_on_each_marked_line(tmp_path):
    program = HERE / "typed" / "ill_typed.py"
    marked = {number for number, line in enumerate(program.read_text().splitlines(), 1) if line.rstrip().endswith("# refused")}
    status, output = mypy(tmp_path, program)
    refused = {int(found) for found in re.findall(r"ill_typed\.py:(\d+): error", output)}
    assert status == 1 and refused == marked, output


def keys_fit(event, typed):
    return typed.__required_keys__ <= set(event) <= typed.__required_keys__ | typed.__optional_keys__


def test_the_servers_events_have_the_keys_of_their_typed_dicts(spawn, definitions):
    client = spawn(definitions=str(definitions), poll_interval=0.05, flush_interval=3600)
    subscriptions = sync_user(client)
    watching = client.subscribe_to_definitions()
    updates = client.subscribe_to_updates("contentCards")
    client.track("purchase", value=1, details={"sku": "boots"})
    client.log_click("banners", "home-top", button_id="go")
    client.log_dismiss("contentCards", "welcome")
    changed = json.loads(definitions.read_text())
    changed["flags"]["greeting"]["defaultVariant"] = "short"
    staged = definitions.with_suffix(".next")
    staged.write_text(json.dumps(changed))
    os.replace(staged, definitions)
    subscriptions["featureFlags"].wait_for(type="DATA_UPDATED", reason="AUTO_SERVER_REFRESH")
    client.status()  # every event caused so far is queued once its reply is in
    channel_events = client.queued_events("event")
    assert {"CACHE_REPLAY", "CACHE_LOAD", "DATA_UPDATED", "CUSTOM", "CLICK", "DISMISS"} <= {
        event["type"] for event in channel_events}
    for event in channel_events:
        assert keys_fit(event, ChannelEvent), event
    definitions_events = watching.drain()
    assert [event["type"] for event in definitions_events] == ["READY", "CHANGED"]
    for event in definitions_events:
        assert keys_fit(event, DefinitionsEvent), event
    update_events = updates.drain()
    assert update_events
    for update in update_events:
        assert keys_fit(update, UpdatesEvent), update
