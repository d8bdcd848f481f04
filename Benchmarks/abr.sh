#!/usr/bin/env bash
# Trace-driven ABR benchmark: Playhead as the engine plays HLS against baseline rules
# (throughput, BOLA, dynamic, BBA-0) on the ladders and network traces in ../shared/abr
# (see its README), with a 25 s maximum buffer.
#
# Playhead's row comes from HLSPlaybackSimulator: the engine's HLS driver, load control,
# ABR controller and bandwidth meter, over SimulatedDataSource with the trace on a fast
# ManualClock, playing synthetic playlists whose segment bodies have the ladder's sizes
# (a pass-through consumer plays each segment for its EXTINF duration). The harness's own
# model of the same rules runs alongside as "playhead-model", a cross-check.
#
# Builds the nested package Benchmarks/ABRHarness in release mode (it depends on this
# repository through a path dependency, so the main package carries no benchmark code) and
# runs it. Prints, per trace set and rule, the mean time-average bitrate, rebuffer ratio,
# switches per minute, startup time, abandoned downloads and score, and the ratio of
# Playhead's score to the best baseline's. The full sets take under a minute on 2 cores.
#
# Usage: Benchmarks/abr.sh [harness options...]
#   e.g. Benchmarks/abr.sh --sets 3Glogs --limit 20
#        Benchmarks/abr.sh --variant tuned:safetyFactor=0.85 --variant Playhead
#        Benchmarks/abr.sh --log trace0001/Playhead --sets 3Glogs
# Options: --sets, --limit N, --buffer SECONDS, --variant NAME:key=value,...,
#   --no-model, --timeout-ms N (engine request timeout, default 1 h: past every outage),
#   --jobs N (traces at once, default: the processor count), --per-trace, --diagnostics,
#   --oracle (a perfect-foresight planner's row: the whole trace known in advance, a
#   feasible plan under the baselines' session model; about 2 minutes more on sd_fs),
#   --lookahead N,... (a row per horizon: control that knows the next N segments'
#   downloads exactly; the levels to the power N per decision, so 5 on 4Glogs takes
#   seconds, 4 on 3Glogs and sd_fs tens of seconds), --lookahead-terminal W (its cost
#   per segment duration of buffer spent, default 1), --log TRACE/RULE.
# Environment:
#   ABR_DATA     the data directory (default: ../shared/abr next to the repository, or
#                /work/shared/abr)
#   SCRATCH      the build directory (default: Benchmarks/ABRHarness/.build)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
harness="$repo_root/Benchmarks/ABRHarness"

data="${ABR_DATA:-}"
if [[ -z "$data" ]]; then
  for candidate in "$repo_root/../shared/abr" "/work/shared/abr"; do
    if [[ -d "$candidate/traces" ]]; then
      data="$candidate"
      break
    fi
  done
fi
if [[ -z "$data" || ! -d "$data/traces" ]]; then
  echo "abr.sh: no ABR data found; set ABR_DATA to the directory holding bbb.json and traces/" >&2
  exit 2
fi

scratch="${SCRATCH:-$harness/.build}"
echo "Building the ABR harness (release) in $scratch..."
build_log="$(mktemp)"
trap 'rm -f "$build_log"' EXIT
build() {
  swift build -c release --package-path "$harness" --scratch-path "$scratch" >"$build_log" 2>&1
}
# SwiftPM can keep a stale source list for a path dependency whose files were added or
# removed since the last build; the retry drops the cached build plan first.
if ! build && ! { rm -f "$scratch/release.yaml" "$scratch/release/description.json"; build; }; then
  cat "$build_log" >&2
  echo "abr.sh: the harness did not build" >&2
  exit 1
fi
grep -Ev '^\[[0-9]+/[0-9]+\]' "$build_log" || true
binary="$scratch/release/ABRHarness"

"$binary" --data "$data" "$@"
