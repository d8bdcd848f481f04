#!/usr/bin/env python3
"""The first-frame rows of Benchmarks/dash.sh: time to the first video frame and bytes
fetched until then, from the start and from 15 s, for Playhead, ffmpeg and GStreamer,
playing the same MPD from a loopback HTTP server, RUNS interleaved rounds, medians.

The server is Benchmarks/ABRNetwork/server.py (HTTP/1.1 keep-alive, ranges; one JSON line
per request with the body bytes the client acknowledged) on 127.0.0.1, DELAY_MS before
each answer. One measurement: the player is launched, its first frame noted, the player
stopped (SIGTERM, then SIGKILL; its connections break), and after a short settle the
server's log lines since the launch are summed: every body byte delivered (MPD, init
segments, media segments, abandoned parts) up to the moment the player was stopped.

The first frame, per player:
  playhead   `playhead play URL --no-window --json [--start S]` in real time: launch to
             the `firstFrame` line on standard output (the summary's timeToFirstFrameMs
             is not used: the process is stopped at the first frame). Its phases are
             printed too: launch to its first event line (the process's start-up) and
             to `readyToPlay`.
  ffmpeg     `ffmpeg -nostdin [-ss S] -i URL -an -frames:v 1 -f framemd5 -flush_packets 1 -`
             (its dash demuxer; default stream selection, i.e. the 1280x720
             Representation; -ss before -i is its exact seek): launch to the first frame
             line, which ffmpeg writes once the frame is decoded.
  gstreamer  gst_first_frame.py (playbin3 -> dashdemux2, fakesinks, seek after preroll):
             from just before Gst.init to the first decoded video buffer at the sink, as
             the script measures it (the Python interpreter's start is left out).

Usage: first_frame.py --package DIR --playhead BIN [--runs 5] [--delay-ms 0]
                      [--players playhead,ffmpeg,gstreamer] [--json FILE]
"""

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "ABRNetwork", "server.py")
STARTS = [0, 15]
TIMEOUT = 60


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(process):
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        except ProcessLookupError:
            process.wait()


def launch(command):
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def measure_playhead(binary, url, start):
    command = [binary, "play", url, "--no-window", "--json"]
    if start:
        command += ["--start", str(start)]
    launched = time.monotonic()
    process = launch(command)
    ms = None
    # Where the time went: launch to the first event (the process's start-up: dynamic
    # linking, runtime and player set-up) and to readyToPlay (the item opened: manifest,
    # first segments, demuxers of video and audio).
    phases = {"startMs": None, "readyMs": None}
    try:
        for line in process.stdout:
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            elapsed = (time.monotonic() - launched) * 1000
            if phases["startMs"] is None:
                phases["startMs"] = elapsed
            if event.get("event") == "readyToPlay" and phases["readyMs"] is None:
                phases["readyMs"] = elapsed
            if event.get("event") == "firstFrame":
                ms = elapsed
                break
            if time.monotonic() - launched > TIMEOUT:
                break
    finally:
        stop(process)
    return {"ms": ms, **phases}


def measure_ffmpeg(url, start):
    command = ["ffmpeg", "-nostdin", "-v", "error"]
    if start:
        command += ["-ss", str(start)]
    command += ["-i", url, "-an", "-frames:v", "1", "-f", "framemd5", "-flush_packets", "1", "-"]
    launched = time.monotonic()
    process = launch(command)
    ms = None
    try:
        for line in process.stdout:
            if line.strip() and not line.startswith(b"#"):
                ms = (time.monotonic() - launched) * 1000
                break
    finally:
        stop(process)
    return {"ms": ms}


def measure_gstreamer(url, start):
    process = launch(["/usr/bin/python3", os.path.join(HERE, "gst_first_frame.py"), url,
                      str(start)])
    result = {"ms": None}
    try:
        line = process.stdout.readline()
        if line:
            reported = json.loads(line)
            result = {"ms": reported.get("ms"), "pts": reported.get("pts"),
                      "seek": reported.get("seek"), "demuxers": reported.get("demuxers"),
                      "error": reported.get("error")}
    finally:
        stop(process)
    return result


def read_log(path, offset):
    with open(path) as source:
        source.seek(offset)
        text = source.read()
    entries = []
    for line in text.splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return entries


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", required=True)
    parser.add_argument("--playhead", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--delay-ms", type=float, default=0)
    parser.add_argument("--players", default="playhead,ffmpeg,gstreamer")
    parser.add_argument("--json")
    args = parser.parse_args()
    players = args.players.split(",")

    log_path = os.path.join(args.package, "..", "first-frame-server.jsonl")
    open(log_path, "w").close()
    port = free_port()
    server = subprocess.Popen([sys.executable, SERVER, "--root", args.package, "--host",
                               "127.0.0.1", "--port", str(port), "--log", log_path,
                               "--delay-ms", str(args.delay_ms)],
                              stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    if server.stdout.readline().strip() != b"listening":
        sys.exit("first_frame: the server did not start")
    url = f"http://127.0.0.1:{port}/manifest.mpd"
    measurements = []
    try:
        for round_number in range(args.runs):
            for start in STARTS:
                # Interleaved, and the order rotates each round.
                shift = round_number % len(players)
                for player in players[shift:] + players[:shift]:
                    offset = os.path.getsize(log_path)
                    if player == "playhead":
                        result = measure_playhead(args.playhead, url, start)
                    elif player == "ffmpeg":
                        result = measure_ffmpeg(url, start)
                    else:
                        result = measure_gstreamer(url, start)
                    time.sleep(0.5)  # the server logs the broken connections
                    requests = read_log(log_path, offset)
                    result.update({"player": player, "start": start, "round": round_number + 1,
                                   "bytes": sum(r["bytes"] for r in requests),
                                   "requests": len(requests),
                                   "paths": [r["path"] for r in requests]})
                    measurements.append(result)
                    print(f"  round {round_number + 1}, start {start:>2} s, {player:<9} "
                          + (f"{result['ms']:7.1f} ms" if result["ms"] is not None
                             else "   no frame")
                          + f" {result['bytes'] / 1e6:6.2f} MB in {len(requests)} requests",
                          file=sys.stderr, flush=True)
                    time.sleep(0.3)
    finally:
        server.terminate()
        server.wait()

    print(f"First frame of {url.rsplit('/', 1)[1]} over loopback HTTP "
          f"({args.delay_ms:g} ms server delay), median of {args.runs}:")
    summary = {}
    for start in STARTS:
        label = "from the start" if start == 0 else f"from {start} s (--start / -ss / seek)"
        print(f"  {label}:")
        row = {}
        for player in players:
            runs = [m for m in measurements if m["player"] == player and m["start"] == start]
            ms = median([m["ms"] for m in runs])
            megabytes = median([m["bytes"] / 1e6 for m in runs])
            failed = sum(1 for m in runs if m["ms"] is None)
            row[player] = {"ms": ms, "mb": megabytes, "failed": failed}
            print(f"    {player:<10}" + (f"{ms:8.1f} ms" if ms is not None else "       - ms")
                  + f"{megabytes:8.2f} MB fetched"
                  + (f"  ({failed} runs without a frame)" if failed else ""))
        playhead_runs = [m for m in measurements
                         if m["player"] == "playhead" and m["start"] == start]
        if playhead_runs:
            launch_to_start = median([m.get("startMs") for m in playhead_runs])
            launch_to_ready = median([m.get("readyMs") for m in playhead_runs])
            if launch_to_start is not None and launch_to_ready is not None:
                print(f"    playhead phases (medians): launch to its first event "
                      f"{launch_to_start:.1f} ms (process start-up), to readyToPlay "
                      f"{launch_to_ready:.1f} ms")
        ours = row.get("playhead", {})
        peers = {p: r for p, r in row.items() if p != "playhead" and r["ms"] is not None}
        if ours.get("ms") and peers:
            best = min(peers, key=lambda p: peers[p]["ms"])
            parts = [f"time Playhead / best peer ({best}) = {ours['ms'] / peers[best]['ms']:.2f}x"]
            for peer in peers:
                parts.append(f"bytes Playhead / {peer} = {ours['mb'] / peers[peer]['mb']:.2f}x"
                             if peers[peer]["mb"] else f"bytes Playhead / {peer} = -")
            print("    ratios: " + ", ".join(parts))
        summary[str(start)] = row
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"url": url, "runs": args.runs, "delay_ms": args.delay_ms,
                       "summary": summary, "measurements": measurements}, out, indent=1)


if __name__ == "__main__":
    main()
