"""Finding the binary, its command line, closing, a dead or stuck server, timeouts, stderr."""

import logging
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from bunting import BinaryNotFound, Bunting, ClientClosed, RequestTimeout, ServerExited
from bunting._launch import find_binary, serve_arguments


@pytest.fixture
def bare_environment(monkeypatch, tmp_path):
    """No BUNTING_BIN, and a PATH without bunting on it."""
    monkeypatch.delenv("BUNTING_BIN", raising=False)
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    return empty


def test_binary_named_as_argument_or_by_environment(binary, monkeypatch, tmp_path):
    assert find_binary(binary) == binary
    with pytest.raises(BinaryNotFound):
        find_binary(str(tmp_path / "missing" / "bunting"))
    monkeypatch.setenv("BUNTING_BIN", binary)
    assert find_binary() == binary
    monkeypatch.setenv("BUNTING_BIN", str(tmp_path / "nope"))
    with pytest.raises(BinaryNotFound) as raised:
        find_binary()
    assert "BUNTING_BIN" in str(raised.value)


def test_binary_on_the_path(binary, bare_environment):
    (bare_environment / "bunting").symlink_to(binary)
    assert find_binary() == str(bare_environment / "bunting")


def test_binary_of_a_checkout_above_the_working_directory(binary, bare_environment, tmp_path, monkeypatch):
    release = tmp_path / "checkout" / ".build" / "release"
    release.mkdir(parents=True)
    (release / "bunting").symlink_to(binary)
    deep = tmp_path / "checkout" / "clients" / "python"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert Path(find_binary()) == release / "bunting"
    with Bunting.spawn(storage=":memory:") as client:
        assert client.status()["version"]


def test_no_binary_anywhere(bare_environment, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BinaryNotFound) as raised:
        Bunting.spawn()
    assert "BUNTING_BIN" in str(raised.value) and isinstance(raised.value, FileNotFoundError)


def test_serve_options_become_flags():
    assert serve_arguments({"definitions": Path("d.json"), "poll_interval": 1, "header": ["A: 1", "B: 2"],
                            "ca_file": None, "verbose": True, "quiet": False, "retry_initial_delay": 0.5}) == [
        "--definitions", "d.json", "--poll-interval", "1", "--header", "A: 1", "--header", "B: 2", "--verbose",
        "--retry-initial-delay", "0.5"]


def test_the_child_gets_that_command_line(spawn):
    client = spawn(framing="lsp", header=["X-A: 1", "X-B: 2"], flush_interval=7)
    argv = Path("/proc/%d/cmdline" % client.pid).read_bytes().split(b"\0")[1:-1]
    assert argv[:3] == [b"serve", b"--framing", b"lsp"]
    assert b" ".join(argv).count(b"--header") == 2 and b"--flush-interval" in argv
    assert client.status()["framing"] == "lsp"


def test_close_shuts_down_cleanly_and_only_once(spawn):
    client = spawn()
    client.subscribe("featureFlags")
    assert client.close() == 0
    assert client.close() == 0
    assert not client.alive
    with pytest.raises(ClientClosed):
        client.status()
    with pytest.raises(ClientClosed):
        client.wait_for(type="DATA_UPDATED", timeout=1)


def test_close_kills_a_server_that_does_not_exit(spawn):
    client = spawn()
    client.status()
    os.kill(client.pid, signal.SIGSTOP)  # it can neither answer shutdown nor exit
    started = time.monotonic()
    assert client.close(timeout=0.5) == -signal.SIGKILL
    assert time.monotonic() - started < 5


def test_a_killed_server_fails_calls_with_its_status(spawn):
    client = spawn()
    client.status()
    os.kill(client.pid, signal.SIGSTOP)
    outcome = {}

    def call():
        try:
            client.status(timeout=30)
        except ServerExited as error:
            outcome["error"] = error

    waiting = threading.Thread(target=call)
    waiting.start()
    os.kill(client.pid, signal.SIGKILL)
    waiting.join(45)
    assert outcome["error"].returncode == -signal.SIGKILL
    with pytest.raises(ServerExited) as raised:
        client.status()
    assert raised.value is not outcome["error"]  # a fresh exception each time
    assert "-9" in str(raised.value)


def test_a_server_that_exits_at_start_says_why(spawn, tmp_path):
    first = spawn(storage=str(tmp_path / "state"))
    first.status()
    second = spawn(storage=str(tmp_path / "state"))
    with pytest.raises(ServerExited) as raised:
        second.status()
    assert raised.value.returncode == 1
    assert any("in use" in line for line in raised.value.stderr)
    assert "in use" in str(raised.value)


def test_a_refused_command_line_is_reported_with_its_stderr(spawn):
    client = spawn(no_such_option=1)
    with pytest.raises(ServerExited) as raised:
        client.status()
    assert raised.value.returncode == 64
    assert "no-such-option" in str(raised.value)


def test_timeouts_per_call_and_by_default(spawn):
    client = spawn(call_timeout=0.3)
    client.status(timeout=30)  # started and answering (a busy machine may take a while)
    os.kill(client.pid, signal.SIGSTOP)
    try:
        with pytest.raises(RequestTimeout) as raised:
            client.status()
        assert raised.value.method == "status" and raised.value.timeout == 0.3
        with pytest.raises(TimeoutError):
            client.get_snapshot("banners", timeout=0.05)
    finally:
        os.kill(client.pid, signal.SIGCONT)
    # The late replies are dropped; the connection goes on.
    assert client.status(timeout=30)["userId"] is None
    assert client.evaluate({"+": [2, 2]}, timeout=30) == {"result": 4}


def test_a_chatty_server_never_blocks_on_stderr(spawn):
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logger = logging.getLogger("bunting.test-chatty")
    logger.addHandler(Keep())
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    client = spawn(log_level="debug", stderr_logger=logger, stderr_lines=50)
    # Each failed notification logs a line of about 900 bytes that names its rule's operator.
    operator = "no-such-operator-" + "x" * 400
    for index in range(3000):  # about 2.7 MB of stderr, far more than a pipe holds
        client.notify("evaluate", {"rule": {"%s-%d" % (operator, index): [1]}})
    assert client.status(timeout=30)["version"]
    # stderr is its own pipe: its last lines may still be on their way when the reply is in.
    last = client.stderr.wait_for(lambda line: line.endswith('"%s-2999"' % operator), timeout=30)
    assert client.stderr.count >= 3000
    tail = client.stderr_tail()
    # The server goes on logging (its checks of the definitions): the line is in the tail.
    assert len(tail) == 50 and last in tail
    failed = [r for r in records if "failed" in r.getMessage()]
    assert len(failed) == 3000 and all(r.levelno == logging.DEBUG for r in failed)
