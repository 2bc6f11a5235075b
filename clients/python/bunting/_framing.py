"""The two framings of `bunting serve`, without any I/O.

Encoders turn one JSON body into the bytes to write; decoders are fed whatever
chunk a read returned and give back the complete bodies in it, keeping the
rest for the next chunk.
"""

from typing import List

from .errors import ProtocolError

FRAMINGS = ("ndjson", "lsp")


class NdjsonDecoder:
    """One JSON value a line; blank lines are skipped, a trailing CR dropped.

    The chunks of an unfinished line are kept in a list and joined once its newline
    arrives, and only each new chunk is searched: a message far larger than a read
    costs time in proportion to its size, not to its size squared.
    """

    __slots__ = ("_parts", "_size")

    def __init__(self) -> None:
        self._parts: List[bytes] = []
        self._size = 0

    def feed(self, data: bytes) -> List[bytes]:
        newline = data.find(b"\n")
        if newline < 0:
            if data:
                self._parts.append(data)
                self._size += len(data)
            return []
        if not self._parts and newline == len(data) - 1:  # exactly one whole line, the usual case
            line = data[:-2] if data.endswith(b"\r\n") else data[:-1]
            return [line] if line.strip() else []
        if self._parts:
            self._parts.append(data)
            data = b"".join(self._parts)
        *lines, rest = data.split(b"\n")
        self._parts = [rest] if rest else []
        self._size = len(rest)
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
        return self._size


def encode_ndjson(body: bytes) -> bytes:
    # json.dumps escapes control characters, so a body never holds a raw newline.
    return body + b"\n"


class LspDecoder:
    """`Content-Length: N` headers, a blank line, then N bytes of body.

    While a body is incomplete its chunks are kept in a list and joined once all of
    it is in, so a large body costs time in proportion to its size.
    """

    __slots__ = ("_parts", "_size", "_length")

    def __init__(self) -> None:
        self._parts: List[bytes] = []
        self._size = 0
        self._length = -1  # the body length once a header block was read (the parts start with the body)

    def feed(self, data: bytes) -> List[bytes]:
        if self._length >= 0 and self._size + len(data) < self._length:  # more of an unfinished body
            self._parts.append(data)
            self._size += len(data)
            return []
        if self._parts:
            self._parts.append(data)
            buffer = b"".join(self._parts)
        else:
            buffer = data
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
        rest = buffer[start:]
        self._parts = [rest] if rest else []
        self._size = len(rest)
        return bodies

    @property
    def pending(self) -> int:
        return self._size


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
