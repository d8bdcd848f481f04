#!/usr/bin/env bash
# Fuzzes the M3U8 parser and writer with libFuzzer (from the Swift toolchain).
#
# Builds the nested package Fuzz/ in release mode with -sanitize=fuzzer,address, then runs
# it for the given number of seconds on the seed corpus Fuzz/corpus (read only) plus a
# working corpus in build/fuzz/corpus (grown by the run, kept between runs), with the
# dictionary Fuzz/m3u8.dict. Every input is parsed; each one that parses is written and
# parsed again, and must give the same model. A crash, a failed round trip, a timeout or
# running out of memory is a finding: libFuzzer stops and saves the input under
# build/fuzz/artifacts/.
#
# Prints the executions and the findings, and exits non-zero when there is a finding.
#
# Usage: scripts/fuzz-playlist.sh [seconds]   (default 60)
# Environment: FUZZ_SCRATCH  the build directory (default build/fuzz/scratch)
#              FUZZ_ARGS     extra libFuzzer options (e.g. "-jobs=2 -workers=2")
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [seconds]  (a whole number of seconds, got '$seconds')" >&2
  exit 2
fi

work="$repo_root/build/fuzz"
scratch="${FUZZ_SCRATCH:-$work/scratch}"
mkdir -p "$work/corpus" "$work/artifacts"

echo "Building the fuzzer (release, -sanitize=fuzzer,address)..."
(cd Fuzz && swift build --scratch-path "$scratch" -c release --product PlaylistFuzzer \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
binary="$scratch/release/PlaylistFuzzer"

log="$work/fuzz.log"
echo "Fuzzing for $seconds s (log: $log)..."
status=0
started="$(date +%s)"
# The Swift backtracer is off (ASan reports the crash). Leak detection is off: Swift runtime and Foundation caches live for the whole process
# and would be reported at exit; memory growth is still caught by -rss_limit_mb.
# shellcheck disable=SC2086
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$binary" \
  "$work/corpus" Fuzz/corpus \
  -dict=Fuzz/m3u8.dict -max_total_time="$seconds" -max_len=8192 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
elapsed=$(($(date +%s) - started))

runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -n 1 | tr -dc '0-9')"
findings="$(find "$work/artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)"
corpus_size="$(find "$work/corpus" -type f | wc -l)"
echo "fuzz-playlist: ${runs:-0} executions in $elapsed s, $findings findings (crashes, timeouts, OOMs) so far, working corpus $corpus_size inputs"
if [[ "$status" -ne 0 || "$findings" -ne 0 ]]; then
  echo "fuzz-playlist: libFuzzer exit status $status; see $log and $work/artifacts/" >&2
  tail -n 30 "$log" >&2
  exit 1
fi
