#!/usr/bin/env python3
"""A fault-injecting HTTP server for Bunting's HTTP tests (standard library only).

It listens on 127.0.0.1 on a free port and prints {"port": N} as its first
line. The test then drives it over stdin/stdout, one JSON command a line and
one JSON answer a line:

  {"op": "document", "path": P, "body": TEXT, "etag": E?, "lastModified": D?,
   "contentType": T?, "gzip": BOOL?, "headers": {name: value}?}
      what GET P answers once no scripted answer is left: 200 with the body,
      or 304 when If-None-Match / If-Modified-Since match; both with the
      headers given.
  {"op": "script", "path": P, "responses": [R, ...]}
      answers for the next requests to P, in order. R has any of: status,
      headers {name: value}, body, delay (seconds before answering),
      truncate (send only this many bytes of a body whose full length is
      announced), drop (close the connection without answering), hold
      (answer only after a "release"), gzip (compress the body), stream
      (send the body without a length, then keep the connection open and
      silent until an "endStreams" or 60 s: an event stream that stops
      mid-way). With "replace": true they replace the answers still waiting.
  {"op": "fallback", "path": P, "response": R}
      the answer to P when nothing is scripted and no document is set
      (default: 404 for GET, 200 {} for POST).
  {"op": "keepAlive", "value": BOOL}   false: every answer closes its connection.
  {"op": "release"}                    lets held answers go.
  {"op": "endStreams"}                 closes the connections of stream answers.
  {"op": "requests", "path": P?}       what arrived (to P), oldest first.
  {"op": "wait", "path": P, "count": N, "timeout": S}
      answers once N requests to P arrived (or the timeout passed), with them.

Each recorded request has method, target (as sent: absolute through a
proxy), path, headers (lower-case names), body, client ("host:port" of the
connection), time (Unix seconds, on arrival) and answer (the status sent,
"dropped", or null while pending). With --cert/--key it speaks HTTPS.
"""

import argparse
import gzip
import http.server
import json
import ssl
import sys
import threading
import time
import urllib.parse


class State:
    def __init__(self):
        self.lock = threading.Condition()
        self.documents = {}
        self.scripts = {}
        self.fallbacks = {}
        self.requests = []
        self.keep_alive = True
        self.release = threading.Event()
        self.end_streams = threading.Event()


STATE = State()


def route(target):
    """The path a request is for, also when it came through a proxy."""
    if target.startswith("http://") or target.startswith("https://"):
        target = urllib.parse.urlsplit(target).path or "/"
    return target.split("?", 1)[0]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass  # stdout carries the control protocol; keep stderr quiet too

    def do_GET(self):
        self.handle_request()

    def do_POST(self):
        self.handle_request()

    def handle_request(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        path = route(self.path)
        record = {
            "method": self.command,
            "target": self.path,
            "path": path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": body.decode("utf-8", "replace"),
            "client": "%s:%d" % self.client_address[:2],
            "time": time.time(),
            "answer": None,
        }
        with STATE.lock:
            STATE.requests.append(record)
            STATE.lock.notify_all()
            script = STATE.scripts.get(path)
            response = script.pop(0) if script else None
            document = STATE.documents.get(path)
            fallback = STATE.fallbacks.get(path)
            keep_alive = STATE.keep_alive
        if response is None:
            if self.command == "GET" and document is not None:
                response = self.document_response(document)
            elif fallback is not None:
                response = fallback
            elif self.command == "POST":
                response = {"status": 200, "body": "{}", "headers": {"Content-Type": "application/json"}}
            else:
                response = {"status": 404, "body": "not found"}
        self.answer(record, response, keep_alive)

    def document_response(self, document):
        etag = document.get("etag")
        last_modified = document.get("lastModified")
        headers = {"Content-Type": document.get("contentType", "application/json")}
        headers.update(document.get("headers", {}))
        if etag:
            headers["ETag"] = etag
        if last_modified:
            headers["Last-Modified"] = last_modified
        none_match = self.headers.get("If-None-Match")
        modified_since = self.headers.get("If-Modified-Since")
        # RFC 9110: If-None-Match decides when present; If-Modified-Since only without it.
        if (etag and none_match and etag in [tag.strip() for tag in none_match.split(",")]) or (
            not none_match and last_modified and modified_since == last_modified
        ):
            return {"status": 304, "headers": headers}
        return {"status": 200, "headers": headers, "body": document["body"], "gzip": document.get("gzip", False)}

    def answer(self, record, response, keep_alive):
        if response.get("hold"):
            STATE.release.wait(60)
        if response.get("delay"):
            time.sleep(response["delay"])
        if response.get("drop"):
            self.close_connection = True
            record["answer"] = "dropped"
            return
        status = response.get("status", 200)
        body = response.get("body", "").encode("utf-8")
        headers = dict(response.get("headers", {}))
        accepts_gzip = "gzip" in (self.headers.get("Accept-Encoding") or "")
        if response.get("gzip") and accepts_gzip and status != 304:
            body = gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        record["answer"] = status  # before the client can see it
        if response.get("stream"):
            self.answer_stream(status, headers, body)
            return
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            if status != 304:
                self.send_header("Content-Length", str(len(body)))
            if not keep_alive or "truncate" in response:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            if status != 304:
                self.wfile.write(body[: response["truncate"]] if "truncate" in response else body)
            self.wfile.flush()
        except OSError:
            pass  # the client gave up (a timeout test): nothing to answer


    def answer_stream(self, status, headers, body):
        """The body without a length, then silence on an open connection."""
        self.close_connection = True
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            STATE.end_streams.wait(60)
        except OSError:
            pass  # the client dropped the connection: what the test wanted


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def command(message):
    op = message["op"]
    with STATE.lock:
        if op == "document":
            STATE.documents[message["path"]] = message
            return {"ok": True}
        if op == "script":
            if message.get("replace"):
                STATE.scripts[message["path"]] = []
            STATE.scripts.setdefault(message["path"], []).extend(message["responses"])
            return {"ok": True}
        if op == "fallback":
            STATE.fallbacks[message["path"]] = message["response"]
            return {"ok": True}
        if op == "keepAlive":
            STATE.keep_alive = bool(message["value"])
            return {"ok": True}
        if op == "release":
            STATE.release.set()
            return {"ok": True}
        if op == "endStreams":
            STATE.end_streams.set()
            return {"ok": True}
        if op == "requests":
            path = message.get("path")
            return {"requests": [r for r in STATE.requests if path is None or r["path"] == path]}
        if op == "wait":
            path = message.get("path")
            deadline = time.time() + message.get("timeout", 60)

            def arrived():
                return [r for r in STATE.requests if path is None or r["path"] == path]

            while len(arrived()) < message["count"] and time.time() < deadline:
                STATE.lock.wait(max(0.0, deadline - time.time()))
            return {"requests": arrived()}
    return {"error": "unknown op %r" % op}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert")
    parser.add_argument("--key")
    options = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    if options.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.cert, options.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(command(json.loads(line))), flush=True)
    server.shutdown()


if __name__ == "__main__":
    main()
