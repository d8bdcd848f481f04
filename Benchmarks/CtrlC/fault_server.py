#!/usr/bin/env python3
"""A loopback HTTP server for Benchmarks/ctrl-c.sh: files from a folder, plus misbehaving paths.

  /hang/<file>     reads the request and never answers
  /trickle/<file>  sends the headers, then the file at 1000 bytes per second
  /503/<anything>  answers 503 Service Unavailable
  /<file>          serves the file (no ranges; enough for the benchmark)

Prints the port it listens on, then serves until killed.
"""
import http.server
import os
import sys
import threading
import time


def main():
    root = sys.argv[1]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            path = self.path.split("?")[0]
            if path.startswith("/hang/"):
                threading.Event().wait()
                return
            if path.startswith("/503/"):
                self.send_response(503)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            trickle = path.startswith("/trickle/")
            name = path[len("/trickle/"):] if trickle else path.lstrip("/")
            file = os.path.join(root, name)
            if ".." in name or not os.path.isfile(file):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            with open(file, "rb") as handle:
                data = handle.read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:
                if not trickle:
                    self.wfile.write(data)
                    return
                for start in range(0, len(data), 100):
                    self.wfile.write(data[start:start + 100])
                    self.wfile.flush()
                    time.sleep(0.1)
            except (BrokenPipeError, ConnectionResetError):
                pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
