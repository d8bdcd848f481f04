#!/usr/bin/env bash
# Decode throughput of Playhead against the ffmpeg command line on the same 1080p H.264 file.
#
# Makes build/bench/testsrc2-1080p30-30s.mp4 once (not committed), builds playhead in release
# mode, then times `ffmpeg -f null` and `playhead play --fast --no-audio --quiet --json`,
# RUNS times each (default 3), and prints the median frames per second of both and their ratio.
#
# Usage: Benchmarks/decode-throughput.sh [--ffmpeg-only]
#   --ffmpeg-only   measure only the ffmpeg baseline (no release build of playhead)
# Environment: RUNS (default 3).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

ffmpeg_only=false
case "${1:-}" in
  "") ;;
  --ffmpeg-only) ffmpeg_only=true ;;
  *)
    echo "usage: $0 [--ffmpeg-only]" >&2
    exit 2
    ;;
esac

runs="${RUNS:-3}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "decode-throughput: RUNS must be a positive integer, got '$runs'" >&2
  exit 2
fi

bench_dir="build/bench"
input="$bench_dir/testsrc2-1080p30-30s.mp4"
mkdir -p "$bench_dir"

if [[ ! -s "$input" ]]; then
  echo "Generating $input (1080p, 30 s, 30 fps, libx264 medium, crf 23)..."
  ffmpeg -nostdin -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=30" \
    -c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p \
    -fflags +bitexact -flags:v +bitexact "$input.partial.mp4"
  mv "$input.partial.mp4" "$input"
fi

now() { date +%s.%N; }

# Prints "<seconds> <frames>" for one ffmpeg decode of the whole file.
run_ffmpeg() {
  local log="$bench_dir/ffmpeg.log" start end frames
  start="$(now)"
  ffmpeg -nostdin -hide_banner -benchmark -threads 0 -i "$input" -an -f null - 2>"$log"
  end="$(now)"
  frames="$(tr '\r' '\n' <"$log" | grep -o 'frame= *[0-9]*' | tail -n 1 | tr -dc '0-9')"
  if [[ -z "$frames" ]]; then
    echo "decode-throughput: no frame count in ffmpeg output ($log)" >&2
    exit 1
  fi
  echo "$start $end $frames" | awk '{ printf "%.6f %d\n", $2 - $1, $3 }'
}

# Prints "<seconds> <frames>" for one playhead decode of the whole file.
run_playhead() {
  local log="$bench_dir/playhead.jsonl" start end frames
  start="$(now)"
  .build/release/playhead play "$input" --fast --no-audio --quiet --json >"$log"
  end="$(now)"
  frames="$(tail -n 1 "$log" | python3 -c '
import json, sys
summary = json.loads(sys.stdin.read())
if summary.get("event") != "summary":
    sys.exit("last JSON line is not the summary event")
print(int(summary["framesDecoded"]))
')"
  echo "$start $end $frames" | awk '{ printf "%.6f %d\n", $2 - $1, $3 }'
}

# Runs "$1" RUNS times and prints "<median seconds> <frames of the median run>".
measure() {
  local label="$1" results=() i line
  for ((i = 1; i <= runs; i++)); do
    line="$("$2")"
    echo "  $label run $i: ${line% *} s, ${line#* } frames" >&2
    results+=("$line")
  done
  printf '%s\n' "${results[@]}" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2) { print }'
}

if [[ "$ffmpeg_only" == false ]]; then
  echo "Building playhead (release)..."
  swift build -c release --product playhead
fi

echo "Input: $input ($(du -h "$input" | cut -f1))"
ffmpeg_result="$(measure ffmpeg run_ffmpeg)"
read -r ffmpeg_seconds ffmpeg_frames <<<"$ffmpeg_result"
ffmpeg_fps="$(awk -v f="$ffmpeg_frames" -v s="$ffmpeg_seconds" 'BEGIN { printf "%.1f", f / s }')"
echo "ffmpeg:   median ${ffmpeg_seconds} s, ${ffmpeg_frames} frames, ${ffmpeg_fps} frames/s"

if [[ "$ffmpeg_only" == true ]]; then
  exit 0
fi

playhead_result="$(measure playhead run_playhead)"
read -r playhead_seconds playhead_frames <<<"$playhead_result"
playhead_fps="$(awk -v f="$playhead_frames" -v s="$playhead_seconds" 'BEGIN { printf "%.1f", f / s }')"
echo "playhead: median ${playhead_seconds} s, ${playhead_frames} frames, ${playhead_fps} frames/s"
awk -v p="$playhead_fps" -v f="$ffmpeg_fps" \
  'BEGIN { printf "ratio playhead/ffmpeg: %.2f\n", p / f }'
