#!/usr/bin/env bash
# Time to first frame after moveToNext with preload on versus off: `playhead feed` plays a
# feed of distinct copies of the HLS fixture ladder from a throttled loopback server
# (Benchmarks/FeedBench/throttled_server.py, which this script starts and stops), once
# with the next item preloaded and once with --no-preload, each run with a fresh cache.
#
# Usage: Benchmarks/list-player.sh
# Environment: ITEMS (feed length, default 8), RATE (server bytes per second per
#   connection, default 150000, about 1.2 Mbit/s), PRELOAD_MS (default 2000), WATCH
#   (seconds each item plays after its first frame, default 2), RUNS (feeds per mode,
#   default 2), PLAYHEAD (a playhead binary; default: build release and use it).
# Prints the median time to first frame of the items after the first (each reached with
# moveToNext) for both modes, and their ratio (off / on).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

items="${ITEMS:-8}"
rate="${RATE:-150000}"
preload_ms="${PRELOAD_MS:-2000}"
watch="${WATCH:-2}"
runs="${RUNS:-2}"
for pair in "ITEMS:$items" "RATE:$rate" "PRELOAD_MS:$preload_ms" "RUNS:$runs"; do
  if ! [[ "${pair#*:}" =~ ^[1-9][0-9]*$ ]]; then
    echo "list-player bench: ${pair%%:*} must be a positive integer, got '${pair#*:}'" >&2
    exit 2
  fi
done
if (( items < 2 )); then
  echo "list-player bench: ITEMS must be at least 2" >&2
  exit 2
fi

playhead="${PLAYHEAD:-}"
if [[ -z "$playhead" ]]; then
  echo "Building playhead (release)..."
  swift build -c release --product playhead
  playhead=".build/release/playhead"
fi

bench_dir="build/bench/list-player"
rm -rf "$bench_dir"
mkdir -p "$bench_dir"

python3 Benchmarks/FeedBench/throttled_server.py Fixtures/hls \
  --copies $(( items * runs * 2 )) --rate "$rate" > "$bench_dir/server.port" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  [[ -s "$bench_dir/server.port" ]] && break
  sleep 0.1
done
port="$(head -n 1 "$bench_dir/server.port")"
if ! [[ "$port" =~ ^[0-9]+$ ]]; then
  echo "list-player bench: the throttled server did not start" >&2
  exit 1
fi

# Runs one feed of ITEMS copies starting at copy $2 in mode $1 (on|off); JSON lines to a file.
next_copy=1
run_feed() {
  local mode="$1" run="$2" urls=() k
  for k in $(seq 1 "$items"); do
    urls+=("http://127.0.0.1:$port/v$next_copy/master.m3u8")
    next_copy=$(( next_copy + 1 ))
  done
  local extra=(--preload-next 1 --preload-ms "$preload_ms")
  [[ "$mode" == off ]] && extra=(--no-preload)
  "$playhead" feed "${urls[@]}" "${extra[@]}" --watch-seconds "$watch" \
    --cache-dir "$bench_dir/cache-$mode-$run" --json > "$bench_dir/$mode-$run.jsonl"
}

echo "Feed of $items items, server at $rate B/s per connection, preload ${preload_ms} ms, $runs run(s) per mode"
for run in $(seq 1 "$runs"); do
  run_feed on "$run"
  run_feed off "$run"
done

python3 - "$bench_dir" "$runs" <<'PY'
import json, statistics, sys
folder, runs = sys.argv[1], int(sys.argv[2])
def ttffs(mode):
    values = []
    for run in range(1, runs + 1):
        with open(f"{folder}/{mode}-{run}.jsonl") as handle:
            for line in handle:
                item = json.loads(line)
                if item["index"] > 1 and item["ttffMs"] is not None:
                    values.append(item["ttffMs"])
    return values
on, off = ttffs("on"), ttffs("off")
if not on or not off:
    sys.exit("list-player bench: no time to first frame recorded")
median_on, median_off = statistics.median(on), statistics.median(off)
print(f"preload on : median TTFF after moveToNext {median_on:8.1f} ms  ({len(on)} items)")
print(f"preload off: median TTFF after moveToNext {median_off:8.1f} ms  ({len(off)} items)")
print(f"ratio off/on: {median_off / median_on:.1f}x")
PY
