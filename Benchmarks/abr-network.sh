#!/usr/bin/env bash
# Real-network ABR comparison: Playhead (`playhead play --no-window --json`) against
# GStreamer 1.22 (`gst-launch-1.0 playbin3`, whose HLS demuxer is hlsdemux2), each playing
# the same 120 s HLS ladder in real time, one after the other, over the same shaped link.
#
# The link: two network namespaces joined by a veth pair; the server side's egress is
# shaped with `tc tbf` (this kernel has no netem), its rate changed on a timer counted from
# each player's launch; the server (Benchmarks/ABRNetwork/server.py, HTTP/1.1 keep-alive,
# range requests) waits 40 ms before answering each request and logs each request's start,
# end, bytes delivered and whether it completed. The ladder (ABRNetwork/ladder.py, made
# once with ffmpeg and cached): H.264 + AAC in MPEG-TS, 3.4 / 1.2 / 0.55 Mbit/s
# (1280x720 / 854x480 / 640x360, constant bitrate), keyframes on the segment boundaries.
#
# Scenarios (rates from the player's launch):
#   const2   2 Mbit/s throughout
#   const6   6 Mbit/s throughout
#   dip08    6 Mbit/s, 0.8 Mbit/s from 30 s to 80 s, then 6
#   stall03  6 Mbit/s, 0.3 Mbit/s from 30 s to 60 s, then 6 (provokes a stall)
# A player still running 240 s after its launch is stopped (reported as killed).
#
# Prints per scenario and player (ABRNetwork/report.py has the exact definitions): the
# time-weighted bitrate of the segments played (from the server's log: the last complete
# fetch of each segment), level switches, stalls and their seconds, start-up (launch to the
# first frame), MB fetched (all bytes, playlists and abandoned downloads included),
# abandoned downloads, for dip08 the segment requests above 0.55 Mbit/s started 12 s or
# more into the dip, and a line with Playhead's ratios to GStreamer. A benchmark, not a
# test: nothing is asserted. Takes about 2 minutes per run (8 runs by default).
# ABRNetwork/bound.py then says how high any player could go without a stall in a
# scenario (clairvoyant, on an ideal link), from launch or from a kept run's state.
#
# Usage: Benchmarks/abr-network.sh [options]   (as root: namespaces and tc need it)
# Options:
#   --scenarios LIST   comma-separated, of const2, const6, dip08, stall03 (default: all)
#   --players LIST     comma-separated, of playhead, gstreamer (default: both)
#   --segment 4|2      segment duration in seconds (default 4; 2 with --format dash)
#   --format hls|dash  hls (default): the HLS ladder above, GStreamer through hlsdemux2;
#                      dash: Benchmarks/DASHPlayback/package.py's 120 s DASH package
#                      (fMP4, SegmentTemplate + SegmentTimeline, 2 s segments, video
#                      0.4 / 1.0 / 3.0 Mbit/s, separate 96k audio) at manifest.mpd,
#                      GStreamer through dashdemux2 (Benchmarks/dash.sh uses this)
#   --repeat N         play every scenario N times per player (default 1)
#   --keep DIR         keep each run's logs (server.jsonl, player.jsonl, run.json) and
#                      summary.json in DIR (runs already in DIR, from an earlier call,
#                      are reported with the new ones)
# Environment:
#   PLAYHEAD   a playhead binary to measure (default: build release in this repository)
#   CACHE      where the ladder is made and kept (default ${TMPDIR:-/tmp}/playhead-abr-network;
#              the ladder is in CACHE/ladder-<segment seconds>); without --keep the JSON
#              summary is written to CACHE/summary.json
#   TIMEOUT    seconds before a player is stopped (default 240)
#   DELAY_MS   the server's delay before each answer (default 40)
# Installs what it needs from Debian when missing: iproute2, ffmpeg, gstreamer1.0-tools,
# gstreamer1.0-plugins-good (hlsdemux2), -plugins-bad, -libav (the decoders).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
helpers="$repo_root/Benchmarks/ABRNetwork"
all_scenarios="const2,const6,dip08,stall03"

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
die() { echo "abr-network: $*" >&2; exit 2; }

scenarios="$all_scenarios"
players="playhead,gstreamer"
segment=""
format=hls
repeat=1
keep=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --scenarios) scenarios="${2:?--scenarios needs a list}"; shift 2 ;;
    --players) players="${2:?--players needs a list}"; shift 2 ;;
    --segment) segment="${2:?--segment needs 4 or 2}"; shift 2 ;;
    --format) format="${2:?--format needs hls or dash}"; shift 2 ;;
    --repeat) repeat="${2:?--repeat needs a number}"; shift 2 ;;
    --keep) keep="${2:?--keep needs a directory}"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
IFS=, read -r -a scenario_list <<< "$scenarios"
IFS=, read -r -a player_list <<< "$players"
for name in "${scenario_list[@]}"; do
  [[ ",$all_scenarios," == *",$name,"* ]] || die "unknown scenario '$name' (of $all_scenarios)"
done
for name in "${player_list[@]}"; do
  [[ "$name" == playhead || "$name" == gstreamer ]] || die "unknown player '$name'"
done
[[ "$format" == hls || "$format" == dash ]] || die "--format must be hls or dash"
if [[ "$format" == dash ]]; then
  segment="${segment:-2}"
  [[ "$segment" == 2 ]] || die "the DASH package has 2 s segments (--segment 2)"
else
  segment="${segment:-4}"
fi
[[ "$segment" == 4 || "$segment" == 2 ]] || die "--segment must be 4 or 2"
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || die "--repeat must be a positive integer"
timeout_seconds="${TIMEOUT:-240}"
delay_ms="${DELAY_MS:-40}"
[[ "$(id -u)" -eq 0 ]] || die "must run as root (network namespaces and tc)"
command -v python3 > /dev/null || die "python3 is needed for the server and the metrics"

# Debian packages, installed only when missing.
wanted=(iproute2 ffmpeg gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-libav)
missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "Installing ${missing[*]}..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [[ ",$players," == *",gstreamer,"* ]]; then
  # Also fills GStreamer's plugin registry before the first timed run.
  demuxer=hlsdemux2
  [[ "$format" == dash ]] && demuxer=dashdemux2
  gst-inspect-1.0 "$demuxer" > /dev/null 2>&1 || die "GStreamer has no $demuxer (gstreamer1.0-plugins-good 1.22 ships it)"
fi

playhead="${PLAYHEAD:-}"
if [[ ",$players," == *",playhead,"* && -z "$playhead" ]]; then
  echo "Building playhead (release)..."
  (cd "$repo_root" && swift build -c release --product playhead)
  playhead="$repo_root/.build/release/playhead"
fi
if [[ -n "$playhead" ]]; then
  [[ -x "$playhead" ]] || die "PLAYHEAD '$playhead' is not an executable"
  playhead="$(cd "$(dirname "$playhead")" && pwd)/$(basename "$playhead")"
fi

cache="${CACHE:-${TMPDIR:-/tmp}/playhead-abr-network}"
mkdir -p "$cache"
if [[ "$format" == dash ]]; then
  ladder="$cache/dash-package-120"
  manifest=manifest.mpd
  python3 "$repo_root/Benchmarks/DASHPlayback/package.py" "$ladder" --duration 120
else
  ladder="$cache/ladder-$segment"
  manifest=master.m3u8
  python3 "$helpers/ladder.py" "$ladder" --segment "$segment"
fi

# The results: the --keep directory, else a temporary one removed at the end.
if [[ -n "$keep" ]]; then
  mkdir -p "$keep"
  results="$(cd "$keep" && pwd)"
  summary="$results/summary.json"
else
  results="$(mktemp -d)"
  summary="$cache/summary.json"
fi

# Two namespaces with names of their own (this shell's process id), joined by a veth pair;
# the addresses are private to these namespaces.
server_ns="phabr-srv-$$"
client_ns="phabr-cli-$$"
server_dev="phs$$"
client_dev="phc$$"
server_ip=10.231.0.1
client_ip=10.231.0.2
port=8080
run_pid=""
cleanup() {
  local ns pid
  if [[ -n "$run_pid" ]]; then
    # An interrupted run: run.py stops its player and server on SIGTERM.
    kill -TERM "$run_pid" 2> /dev/null || true
    wait "$run_pid" 2> /dev/null || true
  fi
  for ns in "$client_ns" "$server_ns"; do
    if ip netns list 2> /dev/null | grep -qw "$ns"; then
      # Anything of ours still running in the namespace (a player or server left by an
      # interrupted run) goes with it.
      for pid in $(ip netns pids "$ns" 2> /dev/null); do
        kill "$pid" 2> /dev/null || true
      done
      ip netns del "$ns" 2> /dev/null || true
    fi
  done
  [[ -z "$keep" ]] && rm -rf "$results"
  return 0
}
trap cleanup EXIT
trap 'echo "abr-network: interrupted" >&2; exit 130' INT TERM

ip netns add "$server_ns"
ip netns add "$client_ns"
ip link add "$server_dev" type veth peer name "$client_dev"
ip link set "$server_dev" netns "$server_ns"
ip link set "$client_dev" netns "$client_ns"
ip -n "$server_ns" addr add "$server_ip/30" dev "$server_dev"
ip -n "$client_ns" addr add "$client_ip/30" dev "$client_dev"
for ns in "$server_ns" "$client_ns"; do ip -n "$ns" link set lo up; done
ip -n "$server_ns" link set "$server_dev" up
ip -n "$client_ns" link set "$client_dev" up
tc -n "$server_ns" qdisc replace dev "$server_dev" root tbf rate 6mbit burst 15000 latency 300ms \
  || die "tc tbf does not work here"
echo "Link: $server_ns ($server_ip, $server_dev, tbf) <-> $client_ns ($client_ip), ${delay_ms} ms server delay"

total=$((repeat * ${#scenario_list[@]} * ${#player_list[@]}))
count=0
for ((round = 1; round <= repeat; round++)); do
  for scenario in "${scenario_list[@]}"; do
    for player in "${player_list[@]}"; do
      count=$((count + 1))
      echo "[$count/$total] $scenario: $player (round $round)"
      # In the background so that a signal reaches this script's trap at once.
      python3 "$helpers/run.py" --player "$player" --scenario "$scenario" \
        --out "$results/$scenario-$player-$(printf %02d "$round")" \
        --server-ns "$server_ns" --client-ns "$client_ns" --dev "$server_dev" \
        --server-ip "$server_ip" --port "$port" --ladder "$ladder" --manifest "$manifest" \
        ${playhead:+--playhead "$playhead"} --timeout "$timeout_seconds" --delay-ms "$delay_ms" &
      run_pid=$!
      wait "$run_pid"
      run_pid=""
      sleep 2
    done
  done
done

python3 "$helpers/report.py" --ladder "$ladder" --results "$results" --json "$summary"
echo
echo "JSON summary: $summary"
[[ -n "$keep" ]] && echo "Logs: $results (one folder per run)"
exit 0
