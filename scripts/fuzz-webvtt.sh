#!/usr/bin/env bash
# Fuzzes the WebVTT parser, cue text renderer and writer with libFuzzer (from the Swift
# toolchain).
#
# Builds the WebVTTFuzzer product of the nested package Fuzz/ in release mode with
# -sanitize=fuzzer,address, then runs it for the given number of seconds on the seed corpus
# Fuzz/corpus-webvtt (read only) plus a working corpus in build/fuzz-webvtt/corpus (grown by
# the run, kept between runs), with the dictionary Fuzz/webvtt.dict. Every input is parsed
# (inputs whose length is a multiple of 3 under small limits); for each one that parses,
# every cue is rendered as plain text, the cues are moved to the media timeline, and the
# document is written and parsed again, which must give the same document. A crash, a
# failed round trip, a timeout or running out of memory is a finding: libFuzzer stops and
# saves the input under build/fuzz-webvtt/artifacts/.
#
# Prints the executions and the findings, and exits non-zero when there is a finding.
#
# Usage: scripts/fuzz-webvtt.sh [seconds]   (default 60)
# Environment: FUZZ_SCRATCH  the build directory (default build/fuzz-webvtt/scratch)
#              FUZZ_ARGS     extra libFuzzer options (e.g. "-jobs=2 -workers=2")
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [seconds]  (a whole number of seconds, got '$seconds')" >&2
  exit 2
fi

work="$repo_root/build/fuzz-webvtt"
scratch="${FUZZ_SCRATCH:-$work/scratch}"
mkdir -p "$work/corpus" "$work/artifacts"

echo "Building the fuzzer (release, -sanitize=fuzzer,address)..."
(cd Fuzz && swift build --scratch-path "$scratch" -c release --product WebVTTFuzzer \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
binary="$scratch/release/WebVTTFuzzer"

log="$work/fuzz.log"
echo "Fuzzing for $seconds s (log: $log)..."
status=0
started="$(date +%s)"
# The Swift backtracer is off (ASan reports the crash). Leak detection is off: Swift runtime
# and Foundation caches live for the whole process and would be reported at exit; memory
# growth is still caught by -rss_limit_mb.
# shellcheck disable=SC2086
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$binary" \
  "$work/corpus" Fuzz/corpus-webvtt \
  -dict=Fuzz/webvtt.dict -max_total_time="$seconds" -max_len=8192 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
elapsed=$(($(date +%s) - started))

runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -n 1 | tr -dc '0-9')"
findings="$(find "$work/artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)"
corpus_size="$(find "$work/corpus" -type f | wc -l)"
echo "fuzz-webvtt: ${runs:-0} executions in $elapsed s, $findings findings (crashes, timeouts, OOMs) so far, working corpus $corpus_size inputs"
if [[ "$status" -ne 0 || "$findings" -ne 0 ]]; then
  echo "fuzz-webvtt: libFuzzer exit status $status; see $log and $work/artifacts/" >&2
  tail -n 30 "$log" >&2
  exit 1
fi
