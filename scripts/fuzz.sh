#!/usr/bin/env bash
# Runs one of the libFuzzer targets of the nested package Fuzz/ (see Fuzz/README.md):
#
#   playlist       an M3U8 playlist through the parser; each one that parses is written and
#                  parsed again, and must give the same model (Fuzz/Sources/PlaylistFuzzer);
#                  inputs of odd length are parsed with imported master variables
#   webvtt         a WebVTT file through the parser (inputs whose length is a multiple of 3
#                  under small limits); for each one that parses, every cue is rendered as
#                  plain text, the cues are moved to the media timeline, and the document is
#                  written and parsed again, which must give the same document
#                  (Fuzz/Sources/WebVTTFuzzer)
#   demuxer        bytes through Playhead's public Demuxer over a memory byte source (the
#                  custom AVIO path), the last 16 bytes choosing read sizes, seekability, a
#                  container hint and what to decode (Fuzz/Sources/DemuxerFuzzer)
#   catalog-json   a Playback API response body through the bounded JSON reader, the
#                  catalog mapping and the error-body reader (Fuzz/Sources/CatalogJSONFuzzer)
#   playlist-json  a playlist file (`play --playlist`) through Playlist(jsonData:), and the
#                  other JSON inputs: videos, strategy parameters, network traces, offline
#                  manifests (Fuzz/Sources/PlaylistJSONFuzzer)
#   xml            an XML document through the one XML reader (XMLTreeReader); each tree is
#                  written back and must read back the same; then through the VAST/VMAP
#                  parsers (Fuzz/Sources/XMLFuzzer)
#   mpd            an MPD through MPDParser; each Representation's segment count must agree
#                  with walking its segments (Fuzz/Sources/MPDFuzzer)
#
# Builds the target in release mode with -sanitize=fuzzer,address, then runs it for the given
# number of seconds on its seed corpus (read only) plus a working corpus in
# build/fuzz-<target>/corpus (grown by the run, kept between runs). A crash, a failed check, a
# timeout or running out of memory is a finding: libFuzzer stops and saves the input under
# build/fuzz-<target>/artifacts/.
#
# Prints the executions, executions per second and findings, and exits non-zero when there
# is a finding. Run one target at a time on a shared machine. scripts/fuzz-playlist.sh and
# scripts/fuzz-webvtt.sh are this script with the target named.
#
# Usage: scripts/fuzz.sh playlist|webvtt|demuxer|catalog-json|playlist-json|xml|mpd [seconds]
#        (default 60 seconds)
# Environment: FUZZ_SCRATCH  the build directory (default build/fuzz-scratch, shared by the
#                            targets)
#              FUZZ_ARGS     extra libFuzzer options (e.g. "-jobs=2 -workers=2")
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

usage() {
  echo "usage: $0 playlist|webvtt|demuxer|catalog-json|playlist-json|xml|mpd [seconds]" >&2
  exit 2
}
[[ $# -ge 1 ]] || usage
target="$1"
seconds="${2:-60}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "$0: seconds must be a whole number, got '$seconds'" >&2
  exit 2
fi
case "$target" in
  playlist)
    product=PlaylistFuzzer; seeds=Fuzz/corpus; dict=Fuzz/m3u8.dict
    max_len=8192; timeout=10 ;;
  webvtt)
    product=WebVTTFuzzer; seeds=Fuzz/corpus-webvtt; dict=Fuzz/webvtt.dict
    max_len=8192; timeout=10 ;;
  demuxer)
    product=DemuxerFuzzer; seeds=Fuzz/corpus-demuxer; dict=Fuzz/demuxer.dict
    max_len=65536; timeout=30 ;;
  catalog-json)
    product=CatalogJSONFuzzer; seeds=Fuzz/corpus-catalog-json; dict=Fuzz/json.dict
    max_len=16384; timeout=10 ;;
  playlist-json)
    product=PlaylistJSONFuzzer; seeds=Fuzz/corpus-playlist-json; dict=Fuzz/json.dict
    max_len=16384; timeout=10 ;;
  xml)
    product=XMLFuzzer; seeds=Fuzz/corpus-xml; dict=Fuzz/xml.dict
    max_len=16384; timeout=10 ;;
  mpd)
    product=MPDFuzzer; seeds=Fuzz/corpus-mpd; dict=Fuzz/xml.dict
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
