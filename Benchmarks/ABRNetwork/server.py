#!/usr/bin/env python3
"""The benchmark's HTTP/1.1 server: serves a directory (the HLS ladder) with keep-alive,
waits DELAY ms before answering each request (the link's latency: the kernel here has no
netem), answers GET and HEAD with single-range support, and logs one JSON line per
request:

    {"path": "/1200k/seg_007.ts", "start": 1733456789.123, "end": 1733456790.456,
     "bytes": 600144, "status": 200, "complete": true, "length": 600144,
     "range": null, "conn": "10.231.0.2:40112", "method": "GET"}

start: when the request's line arrived (seconds since the epoch); end: when the client's
kernel had acknowledged the last byte of the answer (the send queue, SIOCOUTQ, is polled
until empty, so a deep socket buffer does not make a body look delivered before it was),
or when the connection broke (a write fails or, once everything is written, the
connection leaves the established state); bytes: body bytes the client acknowledged (for a broken
connection, as last seen before it broke); complete: the whole body was delivered. A
client that drops the connection mid-body (an abandoned download) is logged with
complete=false and the server carries on.

Usage: server.py --root DIR --host IP --port N --log FILE [--delay-ms 40]
Prints "listening" on standard output once it accepts connections.
"""

import argparse
import fcntl
import http.server
import json
import os
import socket
import struct
import sys
import termios
import threading
import time

CHUNK = 16 * 1024
TYPES = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t",
         ".json": "application/json"}


def unacknowledged(sock):
    """Bytes written to the socket that the peer has not acknowledged yet (Linux
    SIOCOUTQ, the same number as TIOCOUTQ for TCP)."""
    value = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, struct.pack("i", 0))
    return struct.unpack("i", value)[0]


TCP_ESTABLISHED = 1


def is_established(sock):
    """Whether the TCP connection is still established (Linux TCP_INFO's first byte is
    the state): a client that abandons a download after the whole body went into the
    socket buffer resets the connection, and the send queue of a reset socket may never
    drain."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
    return info[0] == TCP_ESTABLISHED


def parse_range(header, length):
    """(first, last) inclusive for a single 'bytes=' range, None for no range header,
    or 'invalid' when it cannot be satisfied."""
    if not header:
        return None
    if not header.startswith("bytes=") or "," in header:
        return "invalid"
    first_text, _, last_text = header[len("bytes="):].strip().partition("-")
    try:
        if first_text == "":
            suffix = int(last_text)
            if suffix <= 0:
                return "invalid"
            return (max(0, length - suffix), length - 1)
        first = int(first_text)
        last = int(last_text) if last_text else length - 1
    except ValueError:
        return "invalid"
    if first >= length or last < first:
        return "invalid"
    return (first, min(last, length - 1))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "PlayheadBench/1"
    timeout = 120  # an idle keep-alive connection is closed after this

    def setup(self):
        super().setup()
        # The headers and the body go out in separate writes; with Nagle's algorithm the
        # body's last partial segment would wait for the ACK of the headers, which a
        # client on a reused keep-alive connection delays (Linux: 40 ms). Web servers and
        # CDNs answer with TCP_NODELAY (nginx's tcp_nodelay is on by default); without it
        # every small answer (an init segment, a playlist) on a reused connection took
        # 40-50 ms over loopback.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):  # the JSON log replaces the default one
        pass

    def parse_request(self):
        self.arrived = time.time()
        return super().parse_request()

    def do_GET(self):
        self.answer(send_body=True)

    def do_HEAD(self):
        self.answer(send_body=False)

    def record(self, **fields):
        entry = {"method": self.command, "path": self.path, "start": round(self.arrived, 4),
                 "conn": "%s:%d" % self.client_address[:2]}
        entry.update(fields)
        line = json.dumps(entry)
        with self.server.log_lock:
            self.server.log.write(line + "\n")
            self.server.log.flush()

    def resolve(self):
        relative = self.path.split("?", 1)[0].lstrip("/")
        parts = [p for p in relative.split("/") if p not in ("", ".")]
        if any(p == ".." for p in parts):
            return None
        path = os.path.join(self.server.root, *parts)
        return path if os.path.isfile(path) else None

    def answer(self, send_body):
        time.sleep(self.server.delay)
        path = self.resolve()
        if path is None:
            self.send_simple(404)
            return
        length = os.path.getsize(path)
        byte_range = parse_range(self.headers.get("Range"), length)
        if byte_range == "invalid":
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{length}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            self.record(end=round(time.time(), 4), bytes=0, status=416, complete=True,
                        length=0, range=self.headers.get("Range"))
            return
        first, last = byte_range if byte_range else (0, length - 1)
        body_length = last - first + 1 if length else 0
        status = 206 if byte_range else 200
        self.send_response(status)
        self.send_header("Content-Type", TYPES.get(os.path.splitext(path)[1], "application/octet-stream"))
        self.send_header("Content-Length", str(body_length))
        self.send_header("Accept-Ranges", "bytes")
        if byte_range:
            self.send_header("Content-Range", f"bytes {first}-{last}/{length}")
        self.end_headers()
        if not send_body:
            self.wfile.flush()
            self.record(end=round(time.time(), 4), bytes=0, status=status, complete=True,
                        length=body_length, range=self.headers.get("Range"))
            return
        written = 0
        acknowledged = 0
        complete = False
        try:
            self.wfile.flush()  # the headers go out before the body
            with open(path, "rb") as source:
                source.seek(first)
                while written < body_length:
                    chunk = source.read(min(CHUNK, body_length - written))
                    if not chunk:
                        break
                    self.connection.sendall(chunk)
                    written += len(chunk)
                    acknowledged = written - unacknowledged(self.connection)
            # Wait for the client to acknowledge the rest, so "end" is delivery, not the
            # last write into a socket buffer. The next request on this keep-alive
            # connection is read only after this wait, so it polls at 0.2 ms first (an
            # ACK over loopback takes microseconds), backing off to 5 ms.
            poll = 0.0002
            while True:
                pending = unacknowledged(self.connection)
                if pending == 0:
                    acknowledged = written
                    break
                if not is_established(self.connection):
                    raise ConnectionResetError("the client closed the connection")
                acknowledged = written - pending
                time.sleep(poll)
                poll = min(poll * 2, 0.005)
            complete = written == body_length
        except (BrokenPipeError, ConnectionResetError, TimeoutError, OSError):
            self.close_connection = True
        finally:
            self.record(end=round(time.time(), 4), bytes=max(0, acknowledged), status=status,
                        complete=complete, length=body_length, range=self.headers.get("Range"))

    def send_simple(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.record(end=round(time.time(), 4), bytes=0, status=status, complete=True, length=0,
                    range=self.headers.get("Range"))


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # A connection that breaks outside a body (while reading a request) is not news.
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError, OSError)):
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--delay-ms", type=float, default=40)
    args = parser.parse_args()

    server = Server((args.host, args.port), Handler)
    server.root = os.path.abspath(args.root)
    server.delay = args.delay_ms / 1000
    server.log = open(args.log, "a")
    server.log_lock = threading.Lock()
    print("listening", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
