#!/usr/bin/env python3
"""Computes the metrics of Benchmarks/abr-network.sh's runs and prints the table.

Every figure about what was fetched comes from the server's request log, the same way for
both players:
  - a media segment is (level, index), read from the path /<level>/seg_<index>.ts (or
    .m4s: the DASH package of Benchmarks/dash.sh, whose levels are its video
    Representations; its audio segments count only in the bytes);
  - the segment "played" at an index is the last complete fetch of that index (by the
    time its last byte was acknowledged); incomplete (abandoned) fetches never count;
  - time-weighted bitrate: the mean of the played segments' nominal level bitrates (3400,
    1200, 550 kbit/s) weighted by their durations;
  - switches: level changes along the played segments in index order;
  - bytes fetched: every body byte the server delivered, playlists and abandoned parts
    included; abandoned: segment answers the client dropped before their end;
  - dip check (scenarios with a low phase): segment requests of a level above 0.55 Mbit/s
    started more than 12 s after the rate fell and before it rose again.
From the player's own output, stamped on arrival (run.py):
  - Playhead (--json): start-up = launch to the firstFrame event; a stall =
    playbackStalled to the next playbackRecovered;
  - GStreamer (gst-launch-1.0 -m -v): start-up = launch to the first video buffer the
    video fakesink renders ("last-message = chain"), which follows "Setting pipeline to
    PLAYING" once hlsdemux2's buffering reached 100 %; a stall = "Buffering, setting
    pipeline to PAUSED" (buffering fell below 100 % after the start) to "Done buffering,
    setting pipeline to PLAYING".
A stall still open when the player exits lasts until the exit.

Usage: report.py --ladder DIR --results DIR [--json FILE]
(--results holds one folder per run, each with run.json, server.jsonl and player.jsonl)
"""

import argparse
import json
import os
import re
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scenarios import DIP_CHECK_AFTER, DIP_CHECK_BPS, SCENARIOS, describe_rate  # noqa: E402

SEGMENT_PATH = re.compile(r"^/([^/]+)/seg_(\d+)\.(?:ts|m4s)$")
PLAYER_ORDER = ["playhead", "gstreamer"]


def read_jsonl(path):
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path) as source:
        for line in source:
            line = line.strip()
            if line:
                try:
                    entries.append(json.loads(line))
                except json.JSONDecodeError:
                    pass  # a line cut short by a killed process
    return entries


class Ladder:
    def __init__(self, directory):
        with open(os.path.join(directory, "ladder.json")) as source:
            manifest = json.load(source)
        self.segment_seconds = manifest["segment_seconds"]
        self.levels = {level["name"]: level for level in manifest["levels"]}
        self.sizes = {}
        self.durations = {}
        for level in manifest["levels"]:
            for segment in level["segments"]:
                self.sizes[(level["name"], segment["index"])] = segment["bytes"]
                self.durations[segment["index"]] = segment["duration"]

    def segment_of(self, path):
        match = SEGMENT_PATH.match(path.split("?", 1)[0])
        if not match or match.group(1) not in self.levels:
            return None
        return match.group(1), int(match.group(2))


def server_metrics(ladder, requests, launched, scenario, rate_changes):
    whole_fetches = {}
    abandoned = []
    segment_requests = []
    for request in requests:
        segment = ladder.segment_of(request["path"])
        if segment is None or request.get("method") != "GET":
            continue
        segment_requests.append((request, segment))
        if not request["complete"]:
            abandoned.append(request)
        elif request["bytes"] == ladder.sizes.get(segment):
            whole_fetches.setdefault(segment[1], []).append((request["end"], segment[0]))
    played = {index: max(fetches)[1] for index, fetches in whole_fetches.items()}
    indices = sorted(played)
    seconds = sum(ladder.durations[i] for i in indices)
    weighted_nominal = sum(ladder.levels[played[i]]["nominal_bps"] * ladder.durations[i]
                           for i in indices)
    weighted_measured = sum(ladder.levels[played[i]]["average_bps"] * ladder.durations[i]
                            for i in indices)
    switches = sum(1 for a, b in zip(indices, indices[1:]) if played[a] != played[b])
    per_level = {}
    for index in indices:
        per_level[played[index]] = per_level.get(played[index], 0) + ladder.durations[index]

    metrics = {
        "segments_played": len(indices),
        "segments_missing": len(ladder.durations) - len(indices),
        "played_media_seconds": round(seconds, 3),
        "time_weighted_kbps": round(weighted_nominal / seconds / 1000, 1) if seconds else None,
        "time_weighted_measured_kbps":
            round(weighted_measured / seconds / 1000, 1) if seconds else None,
        "switches": switches,
        "seconds_per_level": {name: round(s, 3) for name, s in per_level.items()},
        "levels_played": [played[i] for i in indices],
        "bytes_fetched": sum(r["bytes"] for r in requests),
        "requests": len(requests),
        "segment_requests": len(segment_requests),
        "abandoned": len(abandoned),
        "abandoned_bytes": sum(r["bytes"] for r in abandoned),
        "abandoned_detail": [{"path": r["path"], "start": round(r["start"] - launched, 3),
                              "end": round(r["end"] - launched, 3), "bytes": r["bytes"],
                              "length": r["length"]} for r in abandoned],
        "redundant_whole_fetches": sum(len(f) for f in whole_fetches.values()) - len(indices),
        "fetches": [{"path": r["path"], "start": round(r["start"] - launched, 3),
                     "end": round(r["end"] - launched, 3), "bytes": r["bytes"],
                     "complete": r["complete"]} for r in requests],
    }

    low_phase = SCENARIOS[scenario][2]
    if low_phase:
        start, end, low_rate = low_phase
        # The rate change as applied (run.py logs when tc ran), else the schedule's times.
        applied = [c["at"] for c in rate_changes if c["rate_bps"] == low_rate]
        start = applied[0] if applied else start
        later = [c["at"] for c in rate_changes if c["at"] > start]
        end = later[0] if later else end
        window = (start + DIP_CHECK_AFTER, end)
        above = [(r, s) for r, s in segment_requests
                 if ladder.levels[s[0]]["nominal_bps"] > DIP_CHECK_BPS
                 and window[0] < r["start"] - launched < window[1]]
        lowest = min(ladder.levels.values(), key=lambda level: level["nominal_bps"])["name"]
        first_lowest = [r["start"] - launched for r, s in segment_requests
                        if s[0] == lowest and r["start"] - launched >= start]
        metrics["dip"] = {
            "from": round(start, 3), "to": round(end, 3), "rate_bps": low_rate,
            "requests_above_after_12s": len(above),
            "requests_above_after_12s_detail": [
                {"path": r["path"], "start": round(r["start"] - launched, 3),
                 "complete": r["complete"]} for r, s in above],
            "first_lowest_request_into_dip":
                round(first_lowest[0] - start, 3) if first_lowest else None,
        }
    return metrics


def stall_episodes(marks, end_time):
    """[(start, end, open)] from a time-ordered list of ("stall" | "resume", t)."""
    episodes = []
    open_at = None
    for kind, t in marks:
        if kind == "stall" and open_at is None:
            open_at = t
        elif kind == "resume" and open_at is not None:
            episodes.append((open_at, t, False))
            open_at = None
    if open_at is not None:
        episodes.append((open_at, max(open_at, end_time), True))
    return episodes


def playhead_metrics(lines, launched, exited):
    startup = None
    playing = None
    marks = []
    tracks = []
    summary = None
    ended = False
    for entry in lines:
        if entry["fd"] != "out":
            continue
        try:
            event = json.loads(entry["line"])
        except json.JSONDecodeError:
            continue
        name = event.get("event")
        t = entry["t"] - launched
        if name == "firstFrame" and startup is None:
            startup = t
        elif name == "playing" and playing is None:
            playing = t
        elif name == "playbackStalled":
            marks.append(("stall", t))
        elif name == "playbackRecovered":
            marks.append(("resume", t))
        elif name == "trackChanged":
            tracks.append({"t": round(t, 3), "bandwidth": event.get("bandwidth"),
                           "reason": event.get("reason")})
        elif name == "didPlayToEnd":
            ended = True
        elif name == "summary":
            summary = event
    return {"startup_s": startup, "playing_s": playing, "ended": ended,
            "stalls": stall_episodes(marks, exited - launched),
            "track_changes": tracks, "player_summary": summary}


def gstreamer_metrics(lines, launched, exited):
    startup = None
    playing = None
    marks = []
    ended = False
    demuxers = set()
    render_times = []
    for entry in lines:
        text = entry["line"]
        t = entry["t"] - launched
        for demuxer in re.findall(r"\b((?:hls|dash)demux2?)-?\d+\b", text):
            demuxers.add(demuxer)
        if "vbin/GstFakeSink" in text and "last-message = chain" in text:
            render_times.append(t)
            if startup is None:
                startup = t
        elif "Setting pipeline to PLAYING" in text and playing is None:
            playing = t
        elif "Buffering, setting pipeline to PAUSED" in text and playing is not None:
            marks.append(("stall", t))
        elif "Done buffering, setting pipeline to PLAYING" in text:
            marks.append(("resume", t))
        elif "Got EOS from element" in text:
            ended = True
    # A cross-check that needs no message: gaps of more than 0.5 s between rendered video
    # frames after the first (the pipeline paused, or frames came late).
    gaps = [(round(a, 3), round(b - a, 3)) for a, b in zip(render_times, render_times[1:])
            if b - a > 0.5]
    return {"startup_s": startup, "playing_s": playing, "ended": ended,
            "stalls": stall_episodes(marks, exited - launched),
            "demuxers": sorted(demuxers), "frames_rendered": len(render_times),
            "render_gaps": gaps}


def run_metrics(ladder, directory):
    with open(os.path.join(directory, "run.json")) as source:
        run = json.load(source)
    launched, exited = run["launched"], run["exited"]
    lines = read_jsonl(os.path.join(directory, "player.jsonl"))
    requests = read_jsonl(os.path.join(directory, "server.jsonl"))
    if run["player"] == "playhead":
        player = playhead_metrics(lines, launched, exited)
    else:
        player = gstreamer_metrics(lines, launched, exited)
    stalls = player.pop("stalls")
    result = {
        "player": run["player"], "scenario": run["scenario"], "dir": directory,
        "url": run.get("url", ""),
        "exit_code": run["exit_code"], "timed_out": run["timed_out"],
        "wall_seconds": round(exited - launched, 3), "rate_changes": run["rate_changes"],
        "stalls": len(stalls),
        "stall_seconds": round(sum(end - start for start, end, _ in stalls), 3),
        "stall_detail": [{"at": round(s, 3), "seconds": round(e - s, 3), "open": o}
                         for s, e, o in stalls],
    }
    result.update(player)
    result.update(server_metrics(ladder, requests, launched, run["scenario"],
                                 run["rate_changes"]))
    return result


def mean(values):
    values = [v for v in values if v is not None]
    return statistics.fmean(values) if values else None


def cell(value, width, digits):
    if value is None:
        return "-".rjust(width)
    return f"{value:{width}.{digits}f}"


def outcome(result):
    if result["timed_out"]:
        text = f"killed at {result['wall_seconds']:.0f} s"
    elif not result["ended"]:
        text = f"exit {result['exit_code']}, no end"
    else:
        text = "ended" if result["exit_code"] == 0 else f"ended, exit {result['exit_code']}"
    if result["segments_missing"]:
        text += f", {result['segments_missing']} segments never fetched whole"
    return text


def print_table(ladder, scenario, results):
    description = SCENARIOS[scenario][0]
    print()
    print(f"== {scenario}: {description} ({ladder.segment_seconds} s segments) ==")
    has_dip = SCENARIOS[scenario][2] is not None
    header = (f"{'player':<13}{'kbps':>8}{'switches':>10}{'stalls':>8}{'stall s':>9}"
              f"{'start-up s':>12}{'MB':>8}{'abandoned':>11}")
    if has_dip:
        header += f"{'>0.55 after 12 s':>18}"
    print(header + "  outcome")
    by_player = {}
    for result in results:
        by_player.setdefault(result["player"], []).append(result)
    for player in PLAYER_ORDER:
        runs = by_player.get(player, [])
        for number, result in enumerate(runs, 1):
            label = player if len(runs) == 1 else f"{player} #{number}"
            row = (f"{label:<13}{cell(result['time_weighted_kbps'], 8, 0)}"
                   f"{result['switches']:>10}{result['stalls']:>8}"
                   f"{cell(result['stall_seconds'], 9, 2)}{cell(result['startup_s'], 12, 2)}"
                   f"{cell(result['bytes_fetched'] / 1e6, 8, 1)}{result['abandoned']:>11}")
            if has_dip:
                row += f"{result['dip']['requests_above_after_12s']:>18}"
            print(row + "  " + outcome(result))
    if "playhead" in by_player and "gstreamer" in by_player:
        ours, theirs = by_player["playhead"], by_player["gstreamer"]
        parts = []
        for key, name, kind in (("time_weighted_kbps", "bitrate", "ratio"),
                                ("switches", "switches", "difference"),
                                ("stalls", "stalls", "difference"),
                                ("stall_seconds", "stall s", "difference"),
                                ("startup_s", "start-up", "ratio"),
                                ("bytes_fetched", "bytes", "ratio")):
            a = mean(r[key] for r in ours)
            b = mean(r[key] for r in theirs)
            if a is None or b is None:
                parts.append(f"{name} -")
            elif kind == "ratio":
                parts.append(f"{name} {a / b:.2f}x" if b else f"{name} -")
            else:
                parts.append(f"{name} {a - b:+.{0 if key != 'stall_seconds' else 2}f}")
        print("ratio to GStreamer (Playhead vs GStreamer" +
              (", means" if len(ours) > 1 or len(theirs) > 1 else "") + "): " + ", ".join(parts))
    if has_dip:
        for player in PLAYER_ORDER:
            for result in by_player.get(player, []):
                dip = result["dip"]
                into = dip["first_lowest_request_into_dip"]
                print(f"  {player}: rate {describe_rate(dip['rate_bps'])} from "
                      f"{dip['from']:.1f} s to {dip['to']:.1f} s; first 550k request "
                      + (f"{into:.1f} s into it" if into is not None else "never")
                      + f"; requests above 0.55 Mbit/s started {DIP_CHECK_AFTER:g} s or more "
                      f"into it: {dip['requests_above_after_12s']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ladder", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--json")
    args = parser.parse_args()

    ladder = Ladder(args.ladder)
    directories = sorted(os.path.join(args.results, name) for name in os.listdir(args.results)
                         if os.path.exists(os.path.join(args.results, name, "run.json")))
    results = [run_metrics(ladder, directory) for directory in directories]
    scenarios = [name for name in SCENARIOS if any(r["scenario"] == name for r in results)]
    for scenario in scenarios:
        print_table(ladder, scenario, [r for r in results if r["scenario"] == scenario])
    for result in results:
        expected = "dashdemux2" if ".mpd" in result.get("url", "") else "hlsdemux2"
        if result["player"] == "gstreamer" and result["demuxers"] != [expected]:
            print(f"warning: {result['dir']}: GStreamer's demuxer was "
                  f"{result['demuxers'] or 'not seen'}, not {expected}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"segment_seconds": ladder.segment_seconds,
                       "levels": {name: {k: level[k] for k in ("nominal_bps", "average_bps",
                                                               "peak_bps", "width", "height")}
                                  for name, level in ladder.levels.items()},
                       "runs": results}, out, indent=1)


if __name__ == "__main__":
    main()
