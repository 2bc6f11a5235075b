"""The five-line program: two channels' DATA_UPDATED after a user change, neither ever lost."""

import ast
import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

PROGRAM = Path(__file__).resolve().parents[1] / "examples" / "two_channels.py"


def check(output: str) -> None:
    lines = output.splitlines()
    assert len(lines) == 2, output
    events = [ast.literal_eval(line) for line in lines]
    assert [(e["channel"], e["type"], e["reason"]) for e in events] == [
        ("featureFlags", "DATA_UPDATED", "AUTO_SERVER_REFRESH"), ("banners", "DATA_UPDATED", "AUTO_SERVER_REFRESH")]
    assert all(e["cacheSnapshot"]["lastSyncAt"] > 0 for e in events)


def test_the_program_is_five_lines_and_the_one_the_readme_shows():
    assert len(PROGRAM.read_text().splitlines()) == 5
    readme = (PROGRAM.parents[1] / "README.md").read_text()
    first_block = readme.split("```python\n", 1)[1].split("```", 1)[0]
    assert first_block == PROGRAM.read_text()


def test_the_program_runs_on_its_own(binary):
    environment = dict(os.environ, BUNTING_BIN=binary)
    environment["PYTHONPATH"] = os.pathsep.join([str(PROGRAM.parents[1]), environment.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, str(PROGRAM)], capture_output=True, text=True, timeout=60,
                          env=environment)
    assert done.returncode == 0, done.stderr
    check(done.stdout)


def test_two_hundred_runs_lose_neither_event(binary, monkeypatch):
    monkeypatch.setenv("BUNTING_BIN", binary)
    code = compile(PROGRAM.read_text(), str(PROGRAM), "exec")
    for _ in range(200):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(code, {"__name__": "__main__"})
        check(output.getvalue())


def test_two_hundred_runs_waiting_in_the_other_order_over_lsp(binary, monkeypatch):
    monkeypatch.setenv("BUNTING_BIN", binary)
    text = PROGRAM.read_text().replace('Bunting.spawn(storage=":memory:")',
                                       'Bunting.spawn(framing="lsp", storage=":memory:")')
    text = text.replace('print(flags.wait_for(type="DATA_UPDATED"), banners.wait_for(type="DATA_UPDATED"), sep="\\n")',
                        'b = banners.wait_for(type="DATA_UPDATED"); print(flags.wait_for(type="DATA_UPDATED"), b, sep="\\n")')
    assert "framing" in text and "b = banners" in text
    code = compile(text, "reversed", "exec")
    for _ in range(200):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(code, {"__name__": "__main__"})
        check(output.getvalue())
