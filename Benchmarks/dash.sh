#!/usr/bin/env bash
# DASH benchmarks of Playhead against references, in one run (issue 33).
#
# Row measured now — MPD parse time: generates (once, not committed) build/bench/dash/
# timeline-200k.mpd, a static MPD whose video Representation has a SegmentTimeline of
# 200,000 segments written as 200,000 <S> elements (durations vary, so no `r` folds them),
# with an audio set beside it. Installs `mpegdash` from PyPI into build/bench/dash-venv,
# builds the release benchmark Benchmarks/MPDBench, then RUNS times (median, one warm-up
# first) parses it with both: Playhead's MPDParser (XML tree and resolved model) against
# mpegdash's MPEGDASHParser.parse (its object model), and prints the times and the ratio.
# Playhead's time to parse and list all 200,000 segment URLs is printed too.
#
# Not measured yet (the DASH engine is not built): first frame and first frame at 15 s
# against ffmpeg and GStreamer, ABR on the shaped link.
#
# Usage: Benchmarks/dash.sh
# Environment: RUNS (default 10), BENCH_SCRATCH (Swift build directory, default
#              build/bench/mpd-scratch), MPEGDASH_VERSION (default 0.4.0).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

runs="${RUNS:-10}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "dash: RUNS must be a positive integer, got '$runs'" >&2
  exit 2
fi
bench_dir="$repo_root/build/bench/dash"
scratch="${BENCH_SCRATCH:-$repo_root/build/bench/mpd-scratch}"
mpegdash_version="${MPEGDASH_VERSION:-0.4.0}"
mkdir -p "$bench_dir"
mpd="$bench_dir/timeline-200k.mpd"

python3 - "$mpd" <<'PY'
import os, sys
path = sys.argv[1]
if not os.path.exists(path):
    parts = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" '
             'mediaPresentationDuration="PT112H" minBufferTime="PT2S" '
             'profiles="urn:mpeg:dash:profile:isoff-live:2011">',
             '<Period id="0"><BaseURL>https://cdn.example.com/vod/</BaseURL>',
             '<AdaptationSet mimeType="video/mp4" segmentAlignment="true">',
             '<SegmentTemplate timescale="90000" initialization="$RepresentationID$/init.mp4" '
             'media="$RepresentationID$/$Time$.m4s"><SegmentTimeline>']
    t = 0
    for i in range(200_000):
        d = 180180 if i % 3 else 180000
        parts.append(f'<S t="{t}" d="{d}"/>' if i == 0 else f'<S d="{d}"/>')
        t += d
    parts.append('</SegmentTimeline></SegmentTemplate>')
    parts.append('<Representation id="v1" bandwidth="3000000" width="1280" height="720" codecs="avc1.64001f"/>')
    parts.append('</AdaptationSet><AdaptationSet mimeType="audio/mp4" lang="en">'
                 '<SegmentTemplate timescale="48000" duration="96000" media="a/$Number$.m4s"/>'
                 '<Representation id="a1" bandwidth="128000" codecs="mp4a.40.2"/></AdaptationSet>')
    parts.append('</Period></MPD>')
    with open(path + ".partial", "w") as f:
        f.write("\n".join(parts) + "\n")
    os.replace(path + ".partial", path)
PY

venv="$repo_root/build/bench/dash-venv"
if [[ ! -x "$venv/bin/python" ]]; then
  echo "Creating $venv and installing mpegdash==$mpegdash_version from PyPI..." >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "mpegdash==$mpegdash_version"
fi

echo "Building Benchmarks/MPDBench (release)..." >&2
(cd Benchmarks/MPDBench && swift build -c release --scratch-path "$scratch" 2>&1 | tail -n 1) >&2
url="https://cdn.example.com/vod/manifest.mpd"
playhead="$("$scratch/release/MPDBench" "$mpd" "$url" "$runs")"

python="$("$venv/bin/python" - "$mpd" "$runs" <<'PY'
import sys, time
from mpegdash.parser import MPEGDASHParser
path, runs = sys.argv[1], int(sys.argv[2])
with open(path, encoding="utf-8") as f:
    text = f.read()
def entries(mpd):
    template = mpd.periods[0].adaptation_sets[0].segment_templates[0]
    return len(template.segment_timelines[0].Ss)
count = entries(MPEGDASHParser.parse(text))
times = []
for _ in range(runs):
    start = time.perf_counter()
    mpd = MPEGDASHParser.parse(text)
    times.append(time.perf_counter() - start)
    assert entries(mpd) == count
times.sort()
print(f"entries={count} median_seconds={times[len(times) // 2]}")
PY
)"

field() { echo "$1" | tr ' ' '\n' | grep "^$2=" | cut -d= -f2; }
if [[ "$(field "$playhead" entries)" != 200000 || "$(field "$python" entries)" != 200000 ]]; then
  echo "dash: expected 200000 timeline entries, got Playhead '$playhead', mpegdash '$python'" >&2
  exit 1
fi
p="$(field "$playhead" parse_median_seconds)"
l="$(field "$playhead" list_median_seconds)"
m="$(field "$python" median_seconds)"
echo "MPD with a 200,000-segment SegmentTimeline ($(du -k "$mpd" | cut -f1) KiB), median of $runs:"
awk -v p="$p" -v l="$l" -v m="$m" -v s="$(field "$playhead" segments)" 'BEGIN {
  printf "  parse:  Playhead %.1f ms, mpegdash %.1f ms, ratio mpegdash / Playhead = %.1fx\n", p * 1000, m * 1000, m / p
  printf "  Playhead parse and list all %d segment URLs: %.1f ms\n", s, l * 1000
}'
