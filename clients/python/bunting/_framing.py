"""The two framings of `bunting serve`, without any I/O.

Encoders turn one JSON body into the bytes to write; decoders are fed whatever
chunk a read returned and give back the complete bodies in it, keeping the
rest for the next chunk.
"""

from typing import List

from .errors import ProtocolError

FRAMINGS = ("ndjson", "lsp")


class NdjsonDecoder:
    """One JSON value a line; blank lines are skipped, a trailing CR dropped."""

    __slots__ = ("_rest",)

    def __init__(self) -> None:
        self._rest = b""

    def feed(self, data: bytes) -> List[bytes]:
        if not self._rest and data.find(b"\n") == len(data) - 1:  # exactly one whole line, the usual case
            line = data[:-2] if data.endswith(b"\r\n") else data[:-1]
            return [line] if line.strip() else []
        if self._rest:
            data = self._rest + data
        if b"\n" not in data:
            self._rest = data
            return []
        *lines, self._rest = data.split(b"\n")
        bodies = []
        for line in lines:
            if line.endswith(b"\r"):
                line = line[:-1]
            if line.strip():
                bodies.append(line)
        return bodies

    @property
    def pending(self) -> int:
        """Bytes received that do not yet make a whole message."""
        return len(self._rest)


def encode_ndjson(body: bytes) -> bytes:
    # json.dumps escapes control characters, so a body never holds a raw newline.
    return body + b"\n"


class LspDecoder:
    """`Content-Length: N` headers, a blank line, then N bytes of body."""

    __slots__ = ("_buffer", "_length")

    def __init__(self) -> None:
        self._buffer = b""
        self._length = -1  # the body length once a header block was read

    def feed(self, data: bytes) -> List[bytes]:
        buffer = self._buffer + data if self._buffer else data
        bodies = []
        start = 0
        while True:
            if self._length < 0:
                end = buffer.find(b"\r\n\r\n", start)
                if end < 0:
                    break
                self._length = _content_length(buffer[start:end])
                start = end + 4
            if len(buffer) - start < self._length:
                break
            bodies.append(buffer[start:start + self._length])
            start += self._length
            self._length = -1
        self._buffer = buffer[start:]
        return bodies

    @property
    def pending(self) -> int:
        return len(self._buffer)


def _content_length(block: bytes) -> int:
    length = None
    for line in block.split(b"\r\n"):
        name, colon, value = line.partition(b":")
        if not colon:
            raise ProtocolError("the server sent a malformed LSP header line: %r" % line[:200])
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise ProtocolError("the server sent a bad Content-Length: %r" % value[:200]) from None
    if length is None or length < 0:
        raise ProtocolError("the server sent an LSP header without Content-Length: %r" % block[:200])
    return length


def encode_lsp(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def encoder_for(framing: str):
    if framing == "ndjson":
        return encode_ndjson
    if framing == "lsp":
        return encode_lsp
    raise ValueError("framing must be one of %s, not %r" % (", ".join(FRAMINGS), framing))


def decoder_for(framing: str):
    if framing == "ndjson":
        return NdjsonDecoder()
    if framing == "lsp":
        return LspDecoder()
    raise ValueError("framing must be one of %s, not %r" % (", ".join(FRAMINGS), framing))
