#!/usr/bin/env python3
"""A real-time live HLS publisher for the soak benchmark.

Serves the bundled ladder (Fixtures/hls: 144p, 360p, 720p, six 2 s segments each) as an
endless live stream on 127.0.0.1: segment N of every variant is published N × 2 s after
start (plus an initial window) and serves the bytes of source segment N % 6. Each return to
source segment 0 is marked EXT-X-DISCONTINUITY (its timestamps start again), and
EXT-X-DISCONTINUITY-SEQUENCE counts the ones that left the window, as RFC 8216 asks. The
playlist is a sliding window of WINDOW segments.

Usage: live_publisher.py FIXTURES_HLS_DIR PORT_FILE [--window N]
Writes the chosen port to PORT_FILE once listening; prints one line per 1000 requests.
"""

import argparse
import http.server
import os
import re
import socketserver
import sys
import threading
import time

SEGMENT_SECONDS = 2.0


class Stream:
    def __init__(self, root, window):
        self.window = window
        self.variants = {}
        master = open(os.path.join(root, "master.m3u8"), encoding="utf-8").read()
        self.master = master
        for line in master.splitlines():
            if line and not line.startswith("#"):
                name = line.split("/")[0]
                folder = os.path.join(root, name)
                names = sorted(f for f in os.listdir(folder) if f.endswith(".ts"))
                self.variants[name] = [open(os.path.join(folder, f), "rb").read() for f in names]
        self.source_count = min(len(v) for v in self.variants.values())
        self.started = time.monotonic()
        self.requests = 0
        self.lock = threading.Lock()

    def published(self):
        """Segments published so far: a full window at start, then one per 2 s."""
        return self.window + int((time.monotonic() - self.started) / SEGMENT_SECONDS)

    def playlist(self):
        count = self.published()
        first = max(0, count - self.window)
        lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2",
                 f"#EXT-X-MEDIA-SEQUENCE:{first}"]
        # Discontinuities before `first` (one at every return to source segment 0).
        gone = (first - 1) // self.source_count if first > 0 else 0
        if gone > 0:
            lines.append(f"#EXT-X-DISCONTINUITY-SEQUENCE:{gone}")
        for index in range(first, count):
            if index > 0 and index % self.source_count == 0:
                lines.append("#EXT-X-DISCONTINUITY")
            lines.append(f"#EXTINF:{SEGMENT_SECONDS:.3f},")
            lines.append(f"live{index}.ts")
        return ("\n".join(lines) + "\n").encode()


def make_handler(stream):
    segment_path = re.compile(r"^/([^/]+)/live(\d+)\.ts$")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send_body(self, body, kind):
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            with stream.lock:
                stream.requests += 1
                if stream.requests % 1000 == 0:
                    print(f"publisher: {stream.requests} requests", file=sys.stderr, flush=True)
            path = self.path.split("?")[0]
            if path == "/master.m3u8":
                return self.send_body(stream.master.encode(), "application/vnd.apple.mpegurl")
            parts = path.strip("/").split("/")
            if len(parts) == 2 and parts[0] in stream.variants and parts[1] == "index.m3u8":
                return self.send_body(stream.playlist(), "application/vnd.apple.mpegurl")
            match = segment_path.match(path)
            if match and match.group(1) in stream.variants:
                index = int(match.group(2))
                if index < stream.published():
                    data = stream.variants[match.group(1)][index % stream.source_count]
                    return self.send_body(data, "video/mp2t")
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # A player that stops (ffmpeg on its INT) drops its connections: not an error.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("port_file")
    parser.add_argument("--window", type=int, default=6)
    args = parser.parse_args()
    stream = Stream(args.root, args.window)
    server = Server(("127.0.0.1", 0), make_handler(stream))
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
