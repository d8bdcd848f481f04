#!/usr/bin/env bash
# DASH benchmarks of Playhead against references, in one run (issue 33). Prints; never
# asserts.
#
# Row 1, MPD parse time: generates (once, not committed) build/bench/dash/
# timeline-200k.mpd, a static MPD whose video Representation has a SegmentTimeline of
# 200,000 segments written as 200,000 <S> elements (durations vary, so no `r` folds them),
# with an audio set beside it. Installs `mpegdash` from PyPI into build/bench/dash-venv,
# builds the release benchmark Benchmarks/MPDBench, then RUNS times (median, one warm-up
# first) parses it with both: Playhead's MPDParser (XML tree and resolved model) against
# mpegdash's MPEGDASHParser.parse (its object model), and prints the times and the ratio.
# Playhead's time to parse and list all 200,000 segment URLs is printed too.
#
#
# Rows 2 and 3, first frame and first frame at 15 s: Benchmarks/DASHPlayback/package.py
# makes (once, not committed) build/bench/dash/package-60, a 60 s DASH package by FFmpeg's
# dash muxer (SegmentTemplate + SegmentTimeline, 2 s segments, H.264 426x240 / 640x360 /
# 1280x720 at 0.4 / 1.0 / 3.0 Mbit/s constant bitrate, AAC in its own AdaptationSet).
# DASHPlayback/first_frame.py serves it from 127.0.0.1 with Benchmarks/ABRNetwork/server.py
# (which logs the body bytes each request delivered) and, RUNS interleaved rounds (the
# order of the players rotating), starts each player at 0 s and at 15 s, stops it at its
# first frame, and prints the medians of the time and of the bytes the server delivered
# (the server answers with TCP_NODELAY, as web servers do; without it each small answer on
# a reused keep-alive connection waited 40-50 ms for a delayed ACK):
#   Playhead   `playhead play URL --no-window --json [--start 15]`, real time (no --fast),
#              audio on: process launch to the `firstFrame` line (its phases too: launch
#              to the first event line, i.e. process start-up, and to `readyToPlay`);
#   ffmpeg     `ffmpeg [-ss 15] -i URL -an -frames:v 1 -f framemd5 -flush_packets 1 -`
#              (its dash demuxer, which picks the 1280x720 Representation): launch to the
#              first frame's line, written once the frame is decoded;
#   GStreamer  DASHPlayback/gst_first_frame.py: playbin3 -> dashdemux2 into fakesinks,
#              from just before Gst.init (the Python start-up is left out) to the first
#              decoded video buffer at the video sink; for 15 s the pipeline is seeked
#              (flush, accurate) after its preroll, as GStreamer applications do.
# Ratios: time Playhead / the faster peer (the issue aims at <= 0.8), bytes Playhead /
# each peer (the aim at 15 s: <= 0.3x ffmpeg's).
#
# Row 4, ABR on the shaped link: runs `Benchmarks/abr-network.sh --format dash` (its
# namespaces, tbf shaping and report; needs root), the dip08 scenario (6 -> 0.8 Mbit/s at
# 30 s -> 6 at 80 s) by default, with the 120 s version of the same package
# (build/bench/dash/dash-package-120): Playhead against GStreamer's dashdemux2 (playbin3),
# each in real time: time-weighted video bitrate, switches, stalls, start-up, MB fetched.
# About 5 minutes per scenario; skipped when not root or with ABR=0.
#
# Usage: Benchmarks/dash.sh
# Environment: RUNS (default 5), BENCH_SCRATCH (Swift build directory of MPDBench and,
#              without PLAYHEAD, of playhead; default build/bench/mpd-scratch),
#              PLAYHEAD (a playhead binary; default: built release into BENCH_SCRATCH),
#              MPEGDASH_VERSION (default 0.4.0), DELAY_MS (the loopback server's delay
#              before each answer, default 0), ABR (0 skips row 4), ABR_SCENARIOS
#              (default dip08), ABR_REPEAT (default 1).
# Needs ffmpeg, gst-launch-1.0 with gstreamer1.0-plugins-good/-bad/-libav 1.22, and for
# GStreamer's first frame Debian's python3-gi with gir1.2-gstreamer-1.0 and
# gir1.2-gst-plugins-base-1.0 (all installed from Debian when missing; apt needs root).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

runs="${RUNS:-5}"
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

# Rows 2 and 3: first frame, from the start and from 15 s. The Debian packages the players
# need (the same GStreamer decoders as abr-network.sh: gst-libav's avdec_h264), installed
# only when missing.
missing=()
for package in ffmpeg gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-plugins-bad \
  gstreamer1.0-libav python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0; do
  dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "Installing ${missing[*]} from Debian..." >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" > /dev/null
fi
playhead="${PLAYHEAD:-}"
if [[ -z "$playhead" ]]; then
  echo "Building playhead (release)..." >&2
  swift build -c release --product playhead --scratch-path "$scratch" 2>&1 | tail -n 1 >&2
  playhead="$scratch/release/playhead"
fi
[[ -x "$playhead" ]] || { echo "dash: PLAYHEAD '$playhead' is not an executable" >&2; exit 2; }
playhead="$(cd "$(dirname "$playhead")" && pwd)/$(basename "$playhead")"
python3 Benchmarks/DASHPlayback/package.py "$bench_dir/package-60" --duration 60
echo
python3 Benchmarks/DASHPlayback/first_frame.py --package "$bench_dir/package-60" \
  --playhead "$playhead" --runs "$runs" --delay-ms "${DELAY_MS:-0}" \
  --json "$bench_dir/first-frame.json"
echo "  (each measurement: $bench_dir/first-frame.json)"

# Row 4: ABR on abr-network.sh's shaped link, Playhead against dashdemux2.
if [[ "${ABR:-1}" == 0 ]]; then
  echo; echo "ABR on the shaped link: skipped (ABR=0)"
elif [[ "$(id -u)" -ne 0 ]]; then
  echo; echo "ABR on the shaped link: skipped (abr-network.sh needs root for its namespaces)"
else
  echo
  echo "ABR on the shaped link (Benchmarks/abr-network.sh --format dash):"
  rm -rf "$bench_dir/abr-runs"
  PLAYHEAD="$playhead" CACHE="$bench_dir" Benchmarks/abr-network.sh --format dash \
    --scenarios "${ABR_SCENARIOS:-dip08}" --repeat "${ABR_REPEAT:-1}" \
    --keep "$bench_dir/abr-runs"
fi
