"""Finding the `bunting` binary, building its command line, keeping its stderr."""

import logging
import os
import shutil
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Deque, Dict, Iterable, List, Mapping, Optional, Union

from .errors import BinaryNotFound, BuntingTimeout

StderrLogger = Union[logging.Logger, str, bool, None]


def find_binary(binary: Union[str, "os.PathLike[str]", None] = None) -> str:
    """The binary to run: `binary`, else $BUNTING_BIN, else `bunting` on the PATH, else
    `.build/release/bunting` in the current directory or one of its parents (a checkout).

    A binary named explicitly (the argument or $BUNTING_BIN) that does not exist is an
    error rather than a reason to look further: running another build than the one
    asked for would be a surprise.
    """
    if binary is not None:
        return _named(os.fspath(binary), "the binary argument")
    from_env = os.environ.get("BUNTING_BIN")
    if from_env:
        return _named(from_env, "$BUNTING_BIN")
    on_path = shutil.which("bunting")
    if on_path:
        return on_path
    here = Path.cwd()
    for directory in (here, *here.parents):
        candidate = directory / ".build" / "release" / "bunting"
        if candidate.is_file() and os.access(str(candidate), os.X_OK):
            return str(candidate)
    raise BinaryNotFound(
        "no bunting binary: pass binary=..., set BUNTING_BIN, put bunting on the PATH, or build "
        "one (`swift build -c release --product bunting`) so that .build/release/bunting exists "
        "in %s or a parent directory" % here)


def _named(name: str, where: str) -> str:
    if os.sep in name or (os.altsep and os.altsep in name):
        if os.path.isfile(name) and os.access(name, os.X_OK):
            return name
        raise BinaryNotFound("%s names %r, which is not an executable file" % (where, name))
    found = shutil.which(name)
    if found is None:
        raise BinaryNotFound("%s names %r, which is not on the PATH" % (where, name))
    return found


def serve_arguments(options: Mapping[str, Any]) -> List[str]:
    """`bunting serve` flags for keyword options.

    `poll_interval=1` → `--poll-interval 1`; a list or tuple repeats the flag
    (`header=["A: 1", "B: 2"]`); True is a bare flag; False and None are left out.
    """
    arguments: List[str] = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            arguments.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                arguments += [flag, _text(item)]
        else:
            arguments += [flag, _text(value)]
    return arguments


def _text(value: Any) -> str:
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, bool):
        raise TypeError("a boolean option is a bare flag; it cannot be repeated or given a value")
    return str(value)


def command_line(binary: str, framing: str, options: Mapping[str, Any], args: Iterable[str] = ()) -> List[str]:
    if "framing" in options:
        raise TypeError("give the framing as spawn(framing=...), which the client also needs")
    return [binary, "serve", "--framing", framing, *serve_arguments(options), *args]


_LEVELS: Dict[str, int] = {"error": logging.ERROR, "warn": logging.WARNING, "warning": logging.WARNING,
                           "info": logging.INFO, "debug": logging.DEBUG}


def _logger(stderr_logger: StderrLogger) -> Optional[logging.Logger]:
    if stderr_logger is None or stderr_logger is False:
        return None
    if stderr_logger is True:
        return logging.getLogger("bunting.server")
    if isinstance(stderr_logger, str):
        return logging.getLogger(stderr_logger)
    return stderr_logger


class StderrTail:
    """The server's last stderr lines, optionally forwarded to a logger.

    The transports feed it from a thread or task that always reads, so the server
    never blocks on a full stderr pipe however much it logs.
    """

    def __init__(self, lines: int = 200, logger: StderrLogger = None):
        self._lines: Deque[str] = deque(maxlen=max(1, lines))
        self._partial = b""
        self._logger = _logger(logger)
        self._lock = threading.Lock()  # feed runs on the reader, lines() anywhere
        self._changed = threading.Condition(self._lock)
        #: every line seen, not only the kept ones
        self.count = 0
        self.finished = threading.Event()

    def feed(self, data: bytes) -> None:
        data = self._partial + data if self._partial else data
        *complete, self._partial = data.split(b"\n")
        for raw in complete:
            self._add(raw)

    def finish(self) -> None:
        """The stream ended: keep a last line that had no newline."""
        if self._partial:
            self._add(self._partial)
            self._partial = b""
        with self._lock:
            self.finished.set()
            self._changed.notify_all()

    def _add(self, raw: bytes) -> None:
        line = raw.rstrip(b"\r").decode("utf-8", "replace")
        with self._lock:
            self._lines.append(line)
            self.count += 1
            self._changed.notify_all()
        if self._logger is not None:
            self._logger.log(_level(line), "%s", line)

    def lines(self) -> List[str]:
        with self._lock:
            return list(self._lines)

    def find(self, predicate: Callable[[str], bool]) -> Optional[str]:
        """The oldest kept line that matches, if any."""
        with self._lock:
            return next((line for line in self._lines if predicate(line)), None)

    def wait_for(self, predicate: Callable[[str], bool], timeout: float = 30.0) -> str:
        """Blocks until a kept or new line matches; returns it. Raises BuntingTimeout
        after `timeout` seconds or once stderr ended without one."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = next((line for line in self._lines if predicate(line)), None)
                if found is not None:
                    return found
                remaining = deadline - time.monotonic()
                if self.finished.is_set() or remaining <= 0:
                    raise BuntingTimeout("no matching stderr line within %g s%s" % (
                        timeout, " (stderr ended)" if self.finished.is_set() else ""))
                self._changed.wait(remaining)


def _level(line: str) -> int:
    # Bunting writes `bunting[level] message`; anything else (a refused command line,
    # a crash) is worth a warning.
    if line.startswith("bunting["):
        end = line.find("]")
        return _LEVELS.get(line[8:end], logging.WARNING)
    return logging.WARNING
