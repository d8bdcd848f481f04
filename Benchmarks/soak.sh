#!/usr/bin/env bash
# Memory soak: `playhead play` of an endless live HLS stream in real time (the bundled
# 144p/360p/720p ladder, republished by Benchmarks/Soak/live_publisher.py on 127.0.0.1 with
# a sliding window and a discontinuity every 12 s), with the resident set size (VmRSS) of
# the player sampled every SAMPLE seconds. The requirement (issue 11 §4): after the first
# WARMUP seconds, resident memory grows less than 5 % over the rest of the run.
#
# The reference, in the same run and at the same time, is ffmpeg decoding the same live
# stream from the same publisher (`ffmpeg -re -i URL -f null -`), sampled the same way, so
# the growth of Playhead can be read beside that of a player nobody suspects.
#
# Usage: Benchmarks/soak.sh
# Environment: MINUTES (default 60), SAMPLE (seconds between samples, default 60),
#   WARMUP (seconds, default 300), PLAYHEAD (a playhead binary; default: build release),
#   REFERENCE (1 to also run ffmpeg, default 1), OUT (folder for the CSV files, default
#   /tmp/playhead-soak).
# Prints one line per sample, then per player (Benchmarks/Soak/verdict.py): RSS at the end
# of the warm-up, at the end and at its peak, the growth in % and MB, Playhead's growth
# beside ffmpeg's, and the verdict against the 5 % bound. Exit 1 when Playhead
# grows 5 % or more (or exits early), 0 otherwise.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

minutes="${MINUTES:-60}"
sample="${SAMPLE:-60}"
warmup="${WARMUP:-300}"
reference="${REFERENCE:-1}"
out="${OUT:-/tmp/playhead-soak}"
for value in "$minutes" "$sample" "$warmup"; do
  [[ "$value" =~ ^[1-9][0-9]*$ ]] || { echo "soak: MINUTES, SAMPLE, WARMUP must be positive integers" >&2; exit 2; }
done
command -v python3 > /dev/null || { echo "soak: python3 is needed for the publisher" >&2; exit 2; }

playhead="${PLAYHEAD:-}"
if [[ -z "$playhead" ]]; then
  echo "Building playhead (release)..."
  swift build -c release --product playhead
  playhead=".build/release/playhead"
fi
mkdir -p "$out"
duration=$((minutes * 60))

publisher_pid=""
pids=()
cleanup() {
  for pid in "${pids[@]}" "$publisher_pid"; do
    [[ -n "$pid" ]] && kill "$pid" 2> /dev/null || true
  done
}
trap cleanup EXIT

port_file="$out/port"
rm -f "$port_file"
python3 Benchmarks/Soak/live_publisher.py Fixtures/hls "$port_file" &
publisher_pid=$!
for _ in $(seq 1 100); do
  [[ -s "$port_file" ]] && break
  sleep 0.1
done
[[ -s "$port_file" ]] || { echo "soak: the publisher did not start" >&2; exit 2; }
url="http://127.0.0.1:$(cat "$port_file")/master.m3u8"
echo "Publisher on $url; $minutes min, a sample every $sample s, warm-up $warmup s"

names=(playhead)
"$playhead" play "$url" --duration "$duration" > "$out/playhead.log" 2>&1 &
pids+=($!)
if [[ "$reference" == "1" ]]; then
  command -v ffmpeg > /dev/null || { echo "soak: ffmpeg is needed for the reference (REFERENCE=0 skips it)" >&2; exit 2; }
  names+=(ffmpeg)
  # ffmpeg's `-t` counts output timestamps, which restart at each discontinuity of this
  # stream, so the loop below stops the reference after DURATION with an INT, as a user
  # would (its exit status is then 255).
  ffmpeg -nostdin -hide_banner -loglevel error -re -i "$url" -f null - \
    > "$out/ffmpeg.log" 2>&1 &
  pids+=($!)
fi
for name in "${names[@]}"; do echo "seconds,rss_kb" > "$out/$name.csv"; done

# Sample every player each SAMPLE seconds until all have exited.
started=$(date +%s)
next=0
while :; do
  alive=0
  for pid in "${pids[@]}"; do kill -0 "$pid" 2> /dev/null && alive=1; done
  ((alive)) || break
  elapsed=$(($(date +%s) - started))
  if ((elapsed >= duration + 5)); then
    for pid in "${pids[@]:1}"; do kill -INT "$pid" 2> /dev/null || true; done
  fi
  if ((elapsed >= next)); then
    line="$(printf '%6d s' "$elapsed")"
    for i in "${!names[@]}"; do
      rss="$(awk '/^VmRSS:/ { print $2 }' "/proc/${pids[$i]}/status" 2> /dev/null || true)"
      if [[ -n "$rss" ]]; then
        echo "$elapsed,$rss" >> "$out/${names[$i]}.csv"
        line+="$(printf '  %s %8.1f MB' "${names[$i]}" "$(awk -v kb="$rss" 'BEGIN { print kb / 1024 }')")"
      fi
    done
    echo "$line"
    next=$((next + sample))
  fi
  sleep 1
done
statuses=()
for pid in "${pids[@]}"; do
  status=0
  wait "$pid" || status=$?
  statuses+=("$status")
done
pids=()
elapsed=$(($(date +%s) - started))
python3 Benchmarks/Soak/verdict.py "$out" "$warmup" "$duration" "$elapsed" "${names[*]}" "${statuses[*]}"
