#!/usr/bin/env python3
"""A misbehaving HTTP server for the demos' tests and CI. Python 3 standard library only.

Listens on 127.0.0.1 only, prints its port on the first line of standard output, and exits by itself
after --lifetime seconds. The first path component picks the misbehaviour; the rest of the path is
ignored, so `--source http://127.0.0.1:PORT/drip` (facts) and `--server http://127.0.0.1:PORT/drip`
(stories, which appends /users/007.json) both work:

  /drip              200 with a Content-Length of 1000, then one byte every 0.25 s
  /endless           200 without a Content-Length, an endless body, until the client leaves
  /chunked           200 with an endless chunked body
  /huge              200 with an honest Content-Length of 1 GiB, generated, not stored
  /length-too-small  Content-Length: 16, then an endless body
  /length-too-big    Content-Length: 1000000 and a short body, then silence with the connection open
  /length-huge-lie   Content-Length: 10 GiB and a short, valid body, then the connection closes
  /redirect          302 to itself, forever
  /padded/N          a valid fact (or user) padded with N bytes of white space, honest length
  /escape            a fact (or user) whose text carries terminal escape sequences
  /silent            accepts, reads the request, never answers

Every response ends when the client disconnects, and no handler runs longer than --handler-limit.
"""

import argparse
import json
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = b" " * 65536
GIB = 1 << 30


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    handler_limit = 60.0

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def deadline(self):
        return time.monotonic() + self.handler_limit

    def head(self, status=200, length=None, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        if length is not None:
            self.send_header("Content-Length", str(length))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.flush()

    def document(self, text):
        """A fact for facts, a user document for stories (whose path ends in /users/ID.json)."""
        parts = self.path.split("?")[0].strip("/").split("/")
        if "users" in parts:
            return json.dumps({"id": "007", "name": text, "handle": "@x", "bio": text})
        return json.dumps({"text": text})

    def stream(self, data, total=None):
        """Writes `data` repeatedly, `total` bytes in all or forever, until the client leaves."""
        sent = 0
        end = self.deadline()
        while (total is None or sent < total) and time.monotonic() < end:
            piece = data if total is None else data[: total - sent]
            self.wfile.write(piece)
            sent += len(piece)

    def do_GET(self):  # noqa: N802 - the base class's name
        parts = self.path.split("?")[0].strip("/").split("/")
        kind = parts[0] if parts else ""
        try:
            if kind == "drip":
                self.head(length=1000)
                end = self.deadline()
                for _ in range(1000):
                    if time.monotonic() > end:
                        break
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.25)
            elif kind == "endless":
                self.head(extra=[("Connection", "close")])
                self.close_connection = True
                self.stream(CHUNK)
            elif kind == "chunked":
                self.head(extra=[("Transfer-Encoding", "chunked")])
                self.stream(b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK))
            elif kind == "huge":
                self.head(length=GIB)
                self.stream(CHUNK, total=GIB)
            elif kind == "length-too-small":
                self.head(length=16, extra=[("Connection", "close")])
                self.close_connection = True
                self.stream(CHUNK)
            elif kind == "length-too-big":
                self.head(length=1000000)
                self.wfile.write(self.document("short").encode())
                self.wfile.flush()
                end = self.deadline()
                while time.monotonic() < end:
                    time.sleep(0.5)
            elif kind == "length-huge-lie":
                self.head(length=10 * GIB, extra=[("Connection", "close")])
                self.close_connection = True
                self.wfile.write(self.document("short").encode())
            elif kind == "redirect":
                self.send_response(302)
                self.send_header("Location", self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif kind == "padded":
                size = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
                body = self.document("A padded fact.").encode() + b" " * size
                self.head(length=len(body))
                self.wfile.write(body)
            elif kind == "escape":
                body = self.document("\u001b[2J\u001b[31mred\u0007\u009b").encode()
                self.head(length=len(body))
                self.wfile.write(body)
            elif kind == "silent":
                end = self.deadline()
                while time.monotonic() < end:
                    time.sleep(0.5)
                self.close_connection = True
            else:
                self.head(status=404, length=0)
        except (BrokenPipeError, ConnectionResetError, socket.timeout, OSError):
            self.close_connection = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=300.0, help="exit after this many seconds")
    parser.add_argument("--handler-limit", type=float, default=60.0)
    arguments = parser.parse_args()
    # A parent may have started us with signals blocked (Foundation's Process on Linux passes its
    # thread's mask on): unblock them, so that SIGTERM stops us.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    Handler.handler_limit = arguments.handler_limit
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Timer(arguments.lifetime, server.shutdown).start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
