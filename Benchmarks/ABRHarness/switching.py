#!/usr/bin/env python3
"""Where a rule's switching penalty goes: replays every trace of a set with
`ABRHarness --log TRACE/RULE` and sums |ln(b_i / b_{i-1})| over the rule's switches by kind:
down or up, and the buffer after the segment at the new level arrived (under 6 s, under
12 s, 12 s or more); a step down to an abandonment's refetch counts as "abandoned", and the
first climb after it as "after abandoned".

Usage: Benchmarks/ABRHarness/switching.py [SET [RULE]]   (default 4Glogs Playhead)
Needs the harness built (Benchmarks/abr.sh builds it); ABR_DATA as for abr.sh.
"""

import collections
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, ".build", "release", "ABRHarness")
LADDERS = {"3Glogs": "bbb.json", "4Glogs": "bbb4k.json", "sd_fs": "bbb.json"}
SEGMENT = re.compile(r"t=[\d.]+ seg=\d+ level=(\d+) dl=[\d.]+ tput=\d+k buf=([\d.]+)")


def data_dir():
    candidates = (os.environ.get("ABR_DATA"),
                  os.path.join(HERE, "..", "..", "..", "shared", "abr"), "/work/shared/abr")
    for candidate in candidates:
        if candidate and os.path.isdir(os.path.join(candidate, "traces")):
            return candidate
    sys.exit("switching.py: no ABR data (set ABR_DATA)")


def kind(direction, buffer, abandoned, after_abandoned):
    if direction == "down" and abandoned:
        return "abandoned"
    if direction == "up" and after_abandoned:
        return "after abandoned"
    return "buffer < 6 s" if buffer < 6 else "buffer < 12 s" if buffer < 12 else "buffer >= 12 s"


def main():
    trace_set = sys.argv[1] if len(sys.argv) > 1 else "4Glogs"
    rule = sys.argv[2] if len(sys.argv) > 2 else "Playhead"
    data = data_dir()
    with open(os.path.join(data, LADDERS[trace_set])) as source:
        bitrates = json.load(source)["bitrates_kbps"]
    traces = sorted(name[:-5] for name in os.listdir(os.path.join(data, "traces", trace_set)))
    cost = collections.Counter()
    count = collections.Counter()
    for trace in traces:
        command = [HARNESS, "--data", data, "--sets", trace_set, "--no-model",
                   "--log", f"{trace}/{rule}"] + (["--oracle"] if rule == "Oracle" else [])
        log = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        previous, abandoned, after_abandoned = None, False, False
        for line in log.splitlines():
            if "ABANDON" in line:
                abandoned = True
                continue
            match = SEGMENT.match(line)
            if not match:
                continue
            level, buffer = int(match.group(1)), float(match.group(2))
            if previous is not None and level != previous:
                direction = "up" if level > previous else "down"
                key = (direction, kind(direction, buffer, abandoned, after_abandoned))
                cost[key] += abs(math.log(bitrates[level] / bitrates[previous]))
                count[key] += 1
            if previous is not None:
                after_abandoned = abandoned and level != previous and level < previous
            abandoned, previous = False, level
    total = sum(cost.values())
    print(f"{trace_set} / {rule}: |ln| switched by kind over {len(traces)} traces")
    for key in sorted(cost):
        print(f"  {key[0]:<5} {key[1]:<16} {count[key]:5d} switches  {cost[key]:7.1f}"
              f"  {100 * cost[key] / total:3.0f} %")
    print(f"  all {total:.1f} ({total / len(traces):.2f} a trace)")


if __name__ == "__main__":
    main()
