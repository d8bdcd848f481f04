#!/usr/bin/env python3
"""A throttled HTTP server for the list-player benchmark.

Serves the files of ROOT under /vK/<path> for K = 1..COPIES (every copy is the same
media under its own URLs, so each is a distinct video to a cache), with Range support,
sending every response body at about RATE bytes per second per connection. Prints the
port it listens on (loopback only) as its first line, then serves until killed.
"""
import argparse
import os
import re
import socketserver
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 4096


def make_handler(root, copies, rate):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def resolve(self):
            match = re.match(r"^/v(\d+)/(.+)$", self.path.split("?", 1)[0])
            if not match or not (1 <= int(match.group(1)) <= copies):
                return None
            relative = os.path.normpath(match.group(2))
            if relative.startswith(".."):
                return None
            path = os.path.join(root, relative)
            return path if os.path.isfile(path) else None

        def do_GET(self):
            path = self.resolve()
            if path is None:
                body = b"not found\n"
                self.send_response(404)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            with open(path, "rb") as handle:
                data = handle.read()
            start, end, status = 0, len(data) - 1, 200
            header = self.headers.get("Range")
            match = re.match(r"^bytes=(\d*)-(\d*)$", header or "")
            if match and (match.group(1) or match.group(2)):
                if match.group(1):
                    start = int(match.group(1))
                    if match.group(2):
                        end = min(end, int(match.group(2)))
                else:
                    start = max(0, len(data) - int(match.group(2)))
                if start >= len(data):
                    self.send_response(416)
                    self.send_header("Content-Range", "bytes */%d" % len(data))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                status = 206
            body = data[start : end + 1]
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            if status == 206:
                self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, len(data)))
            self.end_headers()
            began = time.monotonic()
            for offset in range(0, len(body), CHUNK):
                self.wfile.write(body[offset : offset + CHUNK])
                due = began + (offset + CHUNK) / rate
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--copies", type=int, default=8)
    parser.add_argument("--rate", type=int, default=125_000, help="bytes per second")
    args = parser.parse_args()
    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            # A client that hangs up mid-body (a cancelled preload) is not an error here.
            pass

    server = Server(("127.0.0.1", 0), make_handler(args.root, args.copies, args.rate))
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
