#!/usr/bin/env bash
# M3U8 parsing speed of Playhead against the Python `m3u8` package, measured in one run.
#
# Generates (once, not committed) build/bench/vod-40000.m3u8, a 40,000-segment VOD playlist,
# and build/bench/live-4500.m3u8, a 4,500-segment live playlist where every segment has an
# EXT-X-PROGRAM-DATE-TIME and an EXT-X-BYTERANGE (offsets explicit at the start of each
# resource, inherited after). Installs `m3u8` from PyPI into a venv under build/bench/venv,
# builds the release benchmark Benchmarks/M3U8Bench, then parses each playlist RUNS times
# with both (one warm-up parse first) and prints the median MB/s and segments/s of each and
# the ratio Playhead / m3u8.
#
# Usage: Benchmarks/m3u8-parse.sh
# Environment: RUNS (default 20), BENCH_SCRATCH (Swift build directory, default
#              build/bench/m3u8-scratch), M3U8_VERSION (default 6.0.0).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

runs="${RUNS:-20}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "m3u8-parse: RUNS must be a positive integer, got '$runs'" >&2
  exit 2
fi
bench_dir="$repo_root/build/bench"
scratch="${BENCH_SCRATCH:-$bench_dir/m3u8-scratch}"
m3u8_version="${M3U8_VERSION:-6.0.0}"
mkdir -p "$bench_dir"

vod="$bench_dir/vod-40000.m3u8"
live="$bench_dir/live-4500.m3u8"
python3 - "$vod" "$live" <<'PY'
import datetime, os, sys

vod_path, live_path = sys.argv[1], sys.argv[2]

if not os.path.exists(vod_path):
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:7",
             "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-MEDIA-SEQUENCE:0"]
    for i in range(40000):
        duration = "6.006" if i % 5 else "5.972"
        lines.append(f"#EXTINF:{duration},")
        lines.append(f"video/1080p/segment_{i:05d}.ts")
    lines.append("#EXT-X-ENDLIST")
    with open(vod_path + ".partial", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(vod_path + ".partial", vod_path)

if not os.path.exists(live_path):
    start = datetime.datetime(2024, 3, 1, 10, 0, 0, tzinfo=datetime.timezone.utc)
    lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:4",
             "#EXT-X-MEDIA-SEQUENCE:1204500", "#EXT-X-INDEPENDENT-SEGMENTS"]
    offset = 0
    for i in range(4500):
        when = start + datetime.timedelta(milliseconds=4000 * i)
        lines.append("#EXT-X-PROGRAM-DATE-TIME:" + when.strftime("%Y-%m-%dT%H:%M:%S.") +
                     f"{when.microsecond // 1000:03d}Z")
        lines.append("#EXTINF:4.000,")
        length = 751_000 + (i * 7919) % 90_000
        resource = i // 30
        if i % 30 == 0:
            offset = 0
            lines.append(f"#EXT-X-BYTERANGE:{length}@0")
        else:
            lines.append(f"#EXT-X-BYTERANGE:{length}")
        offset += length
        lines.append(f"https://cdn.example.com/live/channel1/chunk_{resource:04d}.ts")
    with open(live_path + ".partial", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(live_path + ".partial", live_path)
PY

venv="$bench_dir/venv"
if [[ ! -x "$venv/bin/python" ]]; then
  echo "Creating $venv and installing m3u8==$m3u8_version from PyPI..."
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "m3u8==$m3u8_version"
fi

echo "Building Benchmarks/M3U8Bench (release)..."
(cd Benchmarks/M3U8Bench && swift build -c release --scratch-path "$scratch" 2>&1 | tail -n 1)
bench="$scratch/release/M3U8Bench"

# Prints `bytes=… segments=… median_seconds=… min_seconds=…` for the Python package.
python_parse() {
  "$venv/bin/python" - "$1" "$2" "$runs" <<'PY'
import sys, time
import m3u8

path, url, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(path, encoding="utf-8") as f:
    text = f.read()
base = url.rsplit("/", 1)[0] + "/"
count = len(m3u8.loads(text, uri=url).segments)
times = []
for _ in range(runs):
    start = time.perf_counter()
    playlist = m3u8.loads(text, uri=url)
    times.append(time.perf_counter() - start)
    assert len(playlist.segments) == count
times.sort()
print(f"bytes={len(text.encode('utf-8'))} segments={count} "
      f"median_seconds={times[len(times) // 2]} min_seconds={times[0]}")
PY
}

field() { echo "$1" | tr ' ' '\n' | grep "^$2=" | cut -d= -f2; }

printf '\n%-16s %-10s %10s %10s %14s %10s\n' "playlist" "parser" "segments" "MB/s" "segments/s" "ms/parse"
for name in vod live; do
  file="$vod"
  [[ "$name" == live ]] && file="$live"
  url="https://cdn.example.com/$name/index.m3u8"
  playhead="$("$bench" "$file" "$url" "$runs")"
  python="$(python_parse "$file" "$url")"
  declare -A rate=()
  for parser in playhead m3u8; do
    line="$playhead"
    [[ "$parser" == m3u8 ]] && line="$python"
    bytes="$(field "$line" bytes)"
    segments="$(field "$line" segments)"
    seconds="$(field "$line" median_seconds)"
    mbps="$(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / s / 1e6 }')"
    sps="$(awk -v n="$segments" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')"
    ms="$(awk -v s="$seconds" 'BEGIN { printf "%.2f", s * 1000 }')"
    rate[$parser]="$seconds"
    printf '%-16s %-10s %10s %10s %14s %10s\n' "$(basename "$file")" "$parser" "$segments" "$mbps" "$sps" "$ms"
  done
  ratio="$(awk -v p="${rate[playhead]}" -v m="${rate[m3u8]}" 'BEGIN { printf "%.1f", m / p }')"
  printf '%-16s ratio Playhead / m3u8: %sx (aim: at least 40x, and at least 100 MB/s)\n\n' "$(basename "$file")" "$ratio"
done
