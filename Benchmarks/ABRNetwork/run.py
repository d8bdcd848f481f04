#!/usr/bin/env python3
"""One run of Benchmarks/abr-network.sh: one player, one scenario, in real time.

Sets the link's first rate, starts the server (server.py) in the server namespace with a
fresh request log, launches the player in the client namespace, changes the tbf rate at
the scenario's times (counted from the launch), and waits for the player to exit; a player
still running after --timeout seconds is stopped (SIGTERM, then SIGKILL) and the run is
marked timed out.

Writes into --out:
  server.jsonl   the server's request log (see server.py)
  player.jsonl   every line the player printed, stamped on arrival:
                 {"t": wall clock seconds, "fd": "out" | "err", "line": "..."}
                 (lines end at \\n or \\r: gst-launch redraws its buffering percentage
                 with \\r)
  run.json       the player, scenario, command, launch time, rate changes as applied,
                 exit status, whether it timed out, and the qdisc's statistics at the end

Usage: run.py --player playhead|gstreamer --scenario NAME --out DIR --server-ns NS
              --client-ns NS --dev IFACE --server-ip IP --port N --ladder DIR
              [--playhead BINARY] [--timeout 240] [--delay-ms 40]
              [--manifest master.m3u8]   (manifest.mpd for Benchmarks/dash.sh's package)
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scenarios import SCENARIOS, tbf_arguments  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def player_command(args, url):
    if args.player == "playhead":
        return [args.playhead, "play", url, "--no-window", "--json"]
    # The video sink reports each buffer it renders (-v prints fakesink's last-message),
    # which gives the first frame's time; -m prints the bus messages (buffering, state).
    return ["stdbuf", "-oL", "-eL", "gst-launch-1.0", "-m", "-v", "playbin3", f"uri={url}",
            "video-sink=fakesink sync=true silent=false",
            "audio-sink=fakesink sync=true"]


def stamp_lines(stream, name, sink, lock):
    """Copies a pipe into sink as stamped JSON lines, one per \\n- or \\r-ended line."""
    pending = b""
    while True:
        chunk = os.read(stream.fileno(), 65536)
        now = time.time()
        if not chunk:
            break
        pending += chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        *lines, pending = pending.split(b"\n")
        with lock:
            for line in lines:
                if line.strip():
                    sink.write(json.dumps({"t": round(now, 4), "fd": name,
                                           "line": line.decode("utf-8", "replace")}) + "\n")
            sink.flush()
    if pending.strip():
        with lock:
            sink.write(json.dumps({"t": round(time.time(), 4), "fd": name,
                                   "line": pending.decode("utf-8", "replace")}) + "\n")
            sink.flush()


def set_rate(args, rate_bps, verb):
    subprocess.run(["tc", "-n", args.server_ns, "qdisc", verb, "dev", args.dev, "root"]
                   + tbf_arguments(rate_bps), check=True)


def shape(args, schedule, launched, stop, applied):
    """Applies the schedule's later rates at their times after the launch."""
    for at, rate in schedule[1:]:
        if stop.wait(max(0.0, launched + at - time.time())):
            return
        set_rate(args, rate, "change")
        applied.append({"at": round(time.time() - launched, 3), "rate_bps": rate})


def stop_player(player):
    """SIGTERM to the player's process group (its own session), SIGKILL 5 s later."""
    try:
        os.killpg(player.pid, signal.SIGTERM)
        player.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(player.pid, signal.SIGKILL)
        player.wait()
    except ProcessLookupError:
        player.wait()


def on_terminate(signum, frame):
    raise SystemExit(128 + signum)


def main():
    signal.signal(signal.SIGTERM, on_terminate)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", choices=["playhead", "gstreamer"], required=True)
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--server-ns", required=True)
    parser.add_argument("--client-ns", required=True)
    parser.add_argument("--dev", required=True)
    parser.add_argument("--server-ip", required=True)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--ladder", required=True)
    parser.add_argument("--playhead")
    parser.add_argument("--timeout", type=float, default=240)
    parser.add_argument("--delay-ms", type=float, default=40)
    parser.add_argument("--manifest", default="master.m3u8",
                        help="the path under the ladder that the player opens")
    args = parser.parse_args()
    if args.player == "playhead" and not args.playhead:
        parser.error("--playhead BINARY is needed for the playhead player")

    os.makedirs(args.out, exist_ok=True)
    _, schedule, _ = SCENARIOS[args.scenario]
    url = f"http://{args.server_ip}:{args.port}/{args.manifest}"

    set_rate(args, schedule[0][1], "replace")
    server_log = os.path.join(args.out, "server.jsonl")
    open(server_log, "w").close()
    server = player = None
    stop = threading.Event()
    try:
        server = subprocess.Popen(
            ["ip", "netns", "exec", args.server_ns, sys.executable,
             os.path.join(HERE, "server.py"), "--root", args.ladder, "--host", args.server_ip,
             "--port", str(args.port), "--log", server_log, "--delay-ms", str(args.delay_ms)],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
        if server.stdout.readline().strip() != b"listening":
            sys.exit("run: the server did not start")
        # The link rests a moment so that nothing from setting up is still queued.
        time.sleep(1.0)

        command = player_command(args, url)
        environment = dict(os.environ)
        for name in ("DISPLAY", "WAYLAND_DISPLAY"):
            environment.pop(name, None)
        lock = threading.Lock()
        applied = [{"at": 0.0, "rate_bps": schedule[0][1]}]
        with open(os.path.join(args.out, "player.jsonl"), "w") as sink:
            launched = time.time()
            player = subprocess.Popen(["ip", "netns", "exec", args.client_ns] + command,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, env=environment,
                                      start_new_session=True)
            shaper = threading.Thread(target=shape,
                                      args=(args, schedule, launched, stop, applied), daemon=True)
            shaper.start()
            readers = [threading.Thread(target=stamp_lines,
                                        args=(player.stdout, "out", sink, lock), daemon=True),
                       threading.Thread(target=stamp_lines,
                                        args=(player.stderr, "err", sink, lock), daemon=True)]
            for reader in readers:
                reader.start()
            timed_out = False
            try:
                player.wait(timeout=args.timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                stop_player(player)
            exited = time.time()
            for reader in readers:
                reader.join(timeout=10)
            stop.set()
            shaper.join()
    finally:
        # Also on an interruption (SIGINT, or SIGTERM from abr-network.sh): nothing of this
        # run is left running.
        stop.set()
        if player is not None and player.poll() is None:
            stop_player(player)
        if server is not None and server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    qdisc = subprocess.run(["tc", "-n", args.server_ns, "-s", "qdisc", "show", "dev", args.dev],
                           capture_output=True, text=True).stdout.strip()

    with open(os.path.join(args.out, "run.json"), "w") as out:
        json.dump({"player": args.player, "scenario": args.scenario, "command": command,
                   "url": url, "launched": launched, "exited": exited,
                   "exit_code": player.returncode, "timed_out": timed_out,
                   "timeout": args.timeout, "rate_changes": applied, "qdisc": qdisc},
                  out, indent=1)
    print(f"  {args.player}: exit {player.returncode}"
          f"{' (killed after %g s)' % args.timeout if timed_out else ''}"
          f" after {exited - launched:.1f} s", flush=True)


if __name__ == "__main__":
    main()
