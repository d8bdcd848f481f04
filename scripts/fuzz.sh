#!/usr/bin/env bash
# Runs one of the libFuzzer targets of the nested package Fuzz/ that reach FFmpeg or the
# SDK (the M3U8 and WebVTT parsers have their own scripts, fuzz-playlist.sh and
# fuzz-webvtt.sh):
#
#   demuxer        bytes through Playhead's public Demuxer over a memory byte source (the
#                  custom AVIO path), the last 16 bytes choosing read sizes, seekability, a
#                  container hint and what to decode (Fuzz/Sources/DemuxerFuzzer)
#   catalog-json   a Playback API response body through the bounded JSON reader, the
#                  catalog mapping and the error-body reader (Fuzz/Sources/CatalogJSONFuzzer)
#   playlist-json  a playlist file (`play --playlist`) through Playlist(jsonData:), and the
#                  other JSON inputs: videos, strategy parameters, network traces, offline
#                  manifests (Fuzz/Sources/PlaylistJSONFuzzer)
#
# Builds the target in release mode with -sanitize=fuzzer,address, then runs it for the given
# number of seconds on its seed corpus (read only) plus a working corpus in
# build/fuzz-<target>/corpus (grown by the run, kept between runs). A crash, a failed check, a
# timeout or running out of memory is a finding: libFuzzer stops and saves the input under
# build/fuzz-<target>/artifacts/.
#
# Prints the executions, executions per second and findings, and exits non-zero when there
# is a finding. Run one target at a time on a shared machine.
#
# Usage: scripts/fuzz.sh demuxer|catalog-json|playlist-json [seconds]   (default 60)
# Environment: FUZZ_SCRATCH  the build directory (default build/fuzz-scratch, shared by the
#                            three targets)
#              FUZZ_ARGS     extra libFuzzer options (e.g. "-jobs=2 -workers=2")
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

usage() { echo "usage: $0 demuxer|catalog-json|playlist-json [seconds]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
target="$1"
seconds="${2:-60}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "$0: seconds must be a whole number, got '$seconds'" >&2
  exit 2
fi
case "$target" in
  demuxer)
    product=DemuxerFuzzer; seeds=Fuzz/corpus-demuxer; dict=Fuzz/demuxer.dict
    max_len=65536; timeout=30 ;;
  catalog-json)
    product=CatalogJSONFuzzer; seeds=Fuzz/corpus-catalog-json; dict=Fuzz/json.dict
    max_len=16384; timeout=10 ;;
  playlist-json)
    product=PlaylistJSONFuzzer; seeds=Fuzz/corpus-playlist-json; dict=Fuzz/json.dict
    max_len=16384; timeout=10 ;;
  *) usage ;;
esac

work="$repo_root/build/fuzz-$target"
scratch="${FUZZ_SCRATCH:-$repo_root/build/fuzz-scratch}"
mkdir -p "$work/corpus" "$work/artifacts"

echo "Building $product (release, -sanitize=fuzzer,address)..."
(cd Fuzz && swift build --scratch-path "$scratch" -c release --product "$product" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
binary="$scratch/release/$product"

log="$work/fuzz.log"
echo "Fuzzing $target for $seconds s (log: $log)..."
status=0
started="$(date +%s)"
# The Swift backtracer is off (ASan reports the crash). Leak detection is off: Swift runtime
# and Foundation caches live for the whole process and would be reported at exit; memory
# growth is still caught by -rss_limit_mb.
# shellcheck disable=SC2086
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$binary" \
  "$work/corpus" "$seeds" \
  -dict="$dict" -max_total_time="$seconds" -max_len="$max_len" -timeout="$timeout" \
  -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
elapsed=$(($(date +%s) - started))

runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -n 1 | tr -dc '0-9')"
rate="$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -n 1 | tr -dc '0-9')"
findings="$(find "$work/artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)"
corpus_size="$(find "$work/corpus" -type f | wc -l)"
echo "fuzz-$target: ${runs:-0} executions in $elapsed s (${rate:-0} exec/s), $findings findings (crashes, timeouts, OOMs) so far, working corpus $corpus_size inputs"
if [[ "$status" -ne 0 || "$findings" -ne 0 ]]; then
  echo "fuzz-$target: libFuzzer exit status $status; see $log and $work/artifacts/" >&2
  tail -n 30 "$log" >&2
  exit 1
fi
