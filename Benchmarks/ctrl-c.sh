#!/usr/bin/env bash
# Ctrl-C latency of `playhead play`: the wall time from SIGINT to the process's exit (it must
# be 130 within 0.5 s, issue 11 §4), in four situations: playing a local file in real time,
# a server that never answers, a server that answers then trickles 1 kB/s, and the wait
# between two retries of a 503. The reference is the start-to-exit time of `playhead
# --help` in the same run (process start and teardown alone).
#
# Usage: Benchmarks/ctrl-c.sh
# Environment: RUNS (per situation, default 5), SETTLE (seconds each run plays before the
#   signal, default 1.5), PLAYHEAD (a playhead binary; default: build release and use it).
# Prints, per situation, the median and worst latency in ms, the ratio of the worst to the
# 500 ms budget, and the exit statuses seen (all must be 130).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

runs="${RUNS:-5}"
settle="${SETTLE:-1.5}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "ctrl-c bench: RUNS must be a positive integer, got '$runs'" >&2
  exit 2
fi
command -v python3 > /dev/null || { echo "ctrl-c bench: python3 is needed for the server" >&2; exit 2; }

playhead="${PLAYHEAD:-}"
if [[ -z "$playhead" ]]; then
  echo "Building playhead (release)..."
  swift build -c release --product playhead
  playhead=".build/release/playhead"
fi

bench_dir="build/bench/ctrl-c"
rm -rf "$bench_dir"
mkdir -p "$bench_dir"

python3 Benchmarks/CtrlC/fault_server.py Fixtures > "$bench_dir/server.port" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  [[ -s "$bench_dir/server.port" ]] && break
  sleep 0.1
done
port="$(head -n 1 "$bench_dir/server.port")"
if ! [[ "$port" =~ ^[0-9]+$ ]]; then
  echo "ctrl-c bench: the server did not start" >&2
  exit 1
fi
base="http://127.0.0.1:$port"

now_ns() { date +%s%N; }

# Prints "<latency ms> <status>" for one run of `playhead play "$@"` interrupted after SETTLE s.
one_run() {
  "$playhead" play --quiet "$@" > /dev/null 2>&1 &
  local pid=$!
  sleep "$settle"
  local sent
  sent="$(now_ns)"
  kill -INT "$pid"
  local status=0
  wait "$pid" || status=$?
  local ended
  ended="$(now_ns)"
  echo "$(( (ended - sent) / 1000000 )) $status"
}

# Prints the median of the numbers on stdin.
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

reference_ms=()
for _ in $(seq 1 "$runs"); do
  start="$(now_ns)"
  "$playhead" --help > /dev/null
  reference_ms+=("$(( ($(now_ns) - start) / 1000000 ))")
done
reference="$(printf '%s\n' "${reference_ms[@]}" | median)"
echo "reference: playhead --help starts and exits in ${reference} ms (median of $runs)"
printf '%-34s %8s %8s %10s %12s %s\n' situation median_ms worst_ms worst/500 worst/ref statuses

situation() {
  local name="$1"
  shift
  local latencies=() statuses=()
  for _ in $(seq 1 "$runs"); do
    read -r latency status < <(one_run "$@")
    latencies+=("$latency")
    statuses+=("$status")
  done
  local med worst
  med="$(printf '%s\n' "${latencies[@]}" | median)"
  worst="$(printf '%s\n' "${latencies[@]}" | sort -n | tail -n 1)"
  printf '%-34s %8s %8s %10s %12s %s\n' "$name" "$med" "$worst" \
    "$(awk -v w="$worst" 'BEGIN { printf "%.2f", w / 500 }')" \
    "$(awk -v w="$worst" -v r="$reference" 'BEGIN { printf "%.1f", (r > 0 ? w / r : 0) }')" \
    "$(printf '%s\n' "${statuses[@]}" | sort -u | tr '\n' ' ')"
}

situation "local file, real time" Fixtures/sample-h264-aac.mp4
situation "server never answers" "$base/hang/sample-h264-aac.mp4" --timeout 600000
situation "1 kB/s trickle" "$base/trickle/sample-h264-aac.ts" --timeout 600000
situation "waiting to retry a 503" "$base/503/sample-h264-aac.mp4" --timeout 600000 --retries 50
