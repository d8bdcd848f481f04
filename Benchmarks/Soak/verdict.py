#!/usr/bin/env python3
"""Reads the soak's RSS samples (OUT/NAME.csv: seconds,rss_kb) and prints, per player, the
RSS at the end of the warm-up, at the end and at its peak, and the growth after the
warm-up; then the verdict for Playhead against the 5 % bound.

Usage: verdict.py OUT WARMUP_S DURATION_S ELAPSED_S "NAME..." "STATUS..."
Exit 0 when Playhead ran to the end (exit 0) and grew less than 5 %, 1 otherwise.
"""

import csv
import sys

BOUND_PERCENT = 5.0


def main():
    out, warmup, duration, elapsed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    names = sys.argv[5].split()
    statuses = [int(s) for s in sys.argv[6].split()]
    growth = {}
    for name, status in zip(names, statuses):
        with open(f"{out}/{name}.csv") as f:
            rows = [(int(r["seconds"]), int(r["rss_kb"])) for r in csv.DictReader(f)]
        after = [r for r in rows if r[0] >= warmup]
        if len(after) < 2:
            print(f"{name}: exit {status}; too few samples after the warm-up ({len(after)})")
            continue
        base, last = after[0][1], after[-1][1]
        peak = max(r[1] for r in after)
        growth[name] = (last - base) / base * 100
        print(f"{name}: exit {status} after {elapsed} s of {duration} s; "
              f"RSS at {after[0][0]} s {base / 1024:.1f} MB, at {after[-1][0]} s {last / 1024:.1f} MB, "
              f"peak after warm-up {peak / 1024:.1f} MB; "
              f"growth {growth[name]:+.2f} % ({(last - base) / 1024:+.1f} MB)")
    if "playhead" in growth and "ffmpeg" in growth:
        print(f"growth after warm-up, Playhead minus ffmpeg: "
              f"{growth['playhead'] - growth['ffmpeg']:+.2f} percentage points")
    ok = "playhead" in growth and growth["playhead"] < BOUND_PERCENT and statuses[0] == 0
    measured = f"{growth['playhead']:+.2f} %" if "playhead" in growth else "unmeasured"
    print(f"soak: {'PASS' if ok else 'FAIL'} (Playhead grew {measured} after the warm-up; "
          f"bound {BOUND_PERCENT:.0f} %; exit {statuses[0]})")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
