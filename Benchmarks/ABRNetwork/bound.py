#!/usr/bin/env python3
"""How high a player could score in a scenario of Benchmarks/abr-network.sh without a stall:
the best time-weighted bitrate (the report's own metric) over every choice of levels, with
the whole rate schedule known in advance, on an ideal link (the shaper's nominal rate, no
TCP loss recovery, one 40 ms server delay per request), downloads back to back and no
limit on the buffer. A bound for the aims, not a player.

Two starts:
  - from launch: every level free; playback starts when the first segment is in;
  - from a run's state at the first rate change (--run DIR, a folder kept by
    `abr-network.sh --keep`): the levels that run requested before the change stay, its
    first frame sets the play deadlines, and the download in flight at the change (begun
    when that run began it, with what the ideal link had delivered of it by then) is
    finished, or abandoned --detect seconds after the change and refetched at any level.

With --dip-rule, no request above DIP_CHECK_BPS may start DIP_CHECK_AFTER seconds or
more into the scenario's low phase (the aim of the dip scenario).

Usage: bound.py LADDER_DIR SCENARIO [--run DIR] [--detect S,...] [--dip-rule]
  LADDER_DIR is the ladder folder the benchmark made (ladder.json inside), e.g.
  /tmp/playhead-abr-network/ladder-4.
"""

import argparse
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import Ladder, playhead_metrics, read_jsonl  # noqa: E402
from scenarios import DIP_CHECK_AFTER, DIP_CHECK_BPS, SCENARIOS  # noqa: E402

SERVER_DELAY_S = 0.04


class Link:
    """The scenario's rate schedule as an ideal link."""

    def __init__(self, schedule):
        self.schedule = sorted(schedule)

    def rate_at(self, t):
        rate = self.schedule[0][1]
        for start, value in self.schedule:
            if start <= t:
                rate = value
        return rate

    def next_change(self, t):
        return min((start for start, _ in self.schedule if start > t), default=float("inf"))

    def finish(self, start, bits, delay=SERVER_DELAY_S):
        """When `bits` requested at `start` have all arrived."""
        t = start + delay
        while bits > 1e-9:
            rate = self.rate_at(t)
            edge = self.next_change(t)
            if rate > 0 and (edge - t) * rate >= bits:
                return t + bits / rate
            bits -= (edge - t) * rate
            t = edge
        return t


def best_plan(ladder, link, names, first, start, deadline_of, fixed_sum, allowed):
    """The best bitrate sum from segment `first` on, the previous download ending at
    `start`; None when every plan stalls. Keeps, per segment, the plans no other plan
    beats on both finish time and sum (a Pareto front)."""
    front = [(start, fixed_sum)]
    count = len(ladder.durations)
    for index in range(first, count):
        grown = []
        for finished, total in front:
            for name in names:
                if not allowed(finished, name):
                    continue
                bits = ladder.sizes[(name, index)] * 8
                done = link.finish(finished, bits)
                if done <= deadline_of(index) + 1e-9:
                    grown.append((done, total + ladder.levels[name]["nominal_bps"]
                                  * ladder.durations[index]))
        grown.sort(key=lambda item: (item[0], -item[1]))
        front = []
        for done, total in grown:
            if not front or total > front[-1][1]:
                front.append((done, total))
        if not front:
            return None
    return max(total for _, total in front)


def from_launch(ladder, link, names, allowed):
    media = sum(ladder.durations.values())
    print("from launch (every level free):")
    for name in names:
        first_done = link.finish(0.0, ladder.sizes[(name, 0)] * 8)
        first_sum = ladder.levels[name]["nominal_bps"] * ladder.durations[0]

        def deadline(index, begun=first_done):
            return begun + sum(ladder.durations[i] for i in range(index))

        total = best_plan(ladder, link, names, 1, first_done, deadline, first_sum, allowed)
        result = "a stall is unavoidable" if total is None else f"{total / media / 1000:.0f} kbps"
        print(f"  first segment at {name}: start-up {first_done:.2f} s, best {result}")


def from_run(ladder, link, names, run_dir, detects, allowed):
    with open(os.path.join(run_dir, "run.json")) as source:
        run = json.load(source)
    launched = run["launched"]
    change = run["rate_changes"][1]["at"]
    player = playhead_metrics(read_jsonl(os.path.join(run_dir, "player.jsonl")),
                              launched, run["exited"])
    first_frame = player["startup_s"]
    if first_frame is None:
        sys.exit("bound.py: the run has no first frame (only Playhead runs are read)")
    before = {}
    in_flight = None
    for request in read_jsonl(os.path.join(run_dir, "server.jsonl")):
        segment = ladder.segment_of(request.get("path", ""))
        if segment is None or request.get("method") != "GET":
            continue
        start, end = request["start"] - launched, request["end"] - launched
        if start >= change:
            continue
        if end <= change and request["complete"]:
            before[segment[1]] = segment[0]
        elif end > change and in_flight is None:
            in_flight = (segment, start)
    if in_flight is None:
        sys.exit("bound.py: no download was in flight at the rate change")
    (level, index), start = in_flight
    media = sum(ladder.durations.values())
    fixed = sum(ladder.levels[before[i]]["nominal_bps"] * ladder.durations[i] for i in before)

    def deadline(segment_index):
        return first_frame + sum(ladder.durations[i] for i in range(segment_index))

    print(f"from {run_dir} at the change ({change:.1f} s): {len(before)} segments in, "
          f"segment {index} at {level} in flight since {start:.2f} s, "
          f"first frame {first_frame:.2f} s")
    # What the ideal link had delivered of it by the change.
    total_bits = ladder.sizes[(level, index)] * 8
    loaded = min(total_bits, max(0.0, change - start - SERVER_DELAY_S) * link.rate_at(start))
    rest = total_bits - loaded
    finished_at = link.finish(change, rest, delay=0)
    finished = None
    if finished_at <= deadline(index):
        head = fixed + ladder.levels[level]["nominal_bps"] * ladder.durations[index]
        finished = best_plan(
            ladder, link, names, index + 1, finished_at, deadline, head, allowed)
    print("  finishing it: " + describe(finished, media))
    for detect in detects:
        best = None
        for name in names:
            if not allowed(change + detect, name):
                continue
            refetched = link.finish(change + detect, ladder.sizes[(name, index)] * 8)
            if refetched > deadline(index):
                continue
            head = fixed + ladder.levels[name]["nominal_bps"] * ladder.durations[index]
            total = best_plan(
                ladder, link, names, index + 1, refetched, deadline, head, allowed)
            if total is not None and (best is None or total > best):
                best = total
        print(f"  abandoning it {detect:g} s after the change: " + describe(best, media))


def describe(total, media):
    return "a stall is unavoidable" if total is None else f"best {total / media / 1000:.0f} kbps"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ladder_dir")
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--run")
    parser.add_argument("--detect", default="0,1,2,3,4.7")
    parser.add_argument("--dip-rule", action="store_true")
    arguments = parser.parse_args()
    ladder = Ladder(arguments.ladder_dir)
    _, schedule, low_phase = SCENARIOS[arguments.scenario]
    link = Link(schedule)
    names = sorted(ladder.levels, key=lambda name: ladder.levels[name]["nominal_bps"])

    def allowed(request_start, name):
        if not arguments.dip_rule or low_phase is None:
            return True
        low_start, low_end, _ = low_phase
        late = low_start + DIP_CHECK_AFTER <= request_start < low_end
        return not late or ladder.levels[name]["nominal_bps"] <= DIP_CHECK_BPS

    if arguments.run:
        detects = [float(value) for value in arguments.detect.split(",")]
        from_run(ladder, link, names, arguments.run, detects, allowed)
    else:
        from_launch(ladder, link, names, allowed)


if __name__ == "__main__":
    main()
