"""The stdin/stdout loop of the Python peers: what a Python programmer would
write with the standard library alone. Reads stdin with os.read, cuts it into
newline-delimited messages (or LSP Content-Length frames with --lsp), parses
each with json.loads, hands it to `answer`, and writes every reply of one read
with one os.write just before blocking for more input (as baseline.c does).
"""
import json
import os
import sys


def encode(message):
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


def serve(answer):
    """Runs until end of input; `answer(request)` returns the result, or raises
    LookupError for an unknown method."""
    lsp = "--lsp" in sys.argv[1:]
    buffer = b""
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        buffer += chunk
        out = []
        while True:
            if lsp:
                end = buffer.find(b"\r\n\r\n")
                if end < 0:
                    break
                length = None
                for line in buffer[:end].split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if length is None or len(buffer) - end - 4 < length:
                    break
                body, buffer = buffer[end + 4:end + 4 + length], buffer[end + 4 + length:]
            else:
                end = buffer.find(b"\n")
                if end < 0:
                    break
                body, buffer = buffer[:end].rstrip(b"\r"), buffer[end + 1:]
                if not body:
                    continue
            reply = handle(body, answer)
            if reply is None:
                continue
            if lsp:
                out.append(b"Content-Length: %d\r\n\r\n" % len(reply))
                out.append(reply)
            else:
                out.append(reply + b"\n")
        if out:
            data = b"".join(out)
            while data:
                data = data[os.write(1, data):]


def handle(body, answer):
    try:
        request = json.loads(body)
    except ValueError:
        return encode({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
    if not isinstance(request, dict) or not isinstance(request.get("method"), str):
        return encode({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
    if "id" not in request:
        return None
    try:
        result = answer(request)
    except LookupError:
        return encode({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "Method not found"}})
    return encode({"jsonrpc": "2.0", "id": request["id"], "result": result})
