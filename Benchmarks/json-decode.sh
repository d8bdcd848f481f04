#!/usr/bin/env bash
# JSON decoding time of Playhead's bounded reader against the old path, measured in one run.
#
# Builds the release benchmark Benchmarks/JSONBench, which generates the documents in memory
# and parses each one RUNS times (median; one warm-up first) three ways:
#   reader         JSONReader.read, the bounded linear reader every Playhead JSON input uses
#   old path       JSONDecoder().decode(JSONValue.self): the shape Playhead used before,
#                  where JSONValue's Decodable conformance tries each kind in turn
#   serialization  Foundation's JSONSerialization.jsonObject, for reference
# Documents: a 1,000-video Playback API playlist (about 1 MB), and the issue's hostile
# shape, 20 values nested 60, 125, 250 and 500 deep (the reader refuses anything deeper than
# 64 levels at the first value; the old path parses the whole text). The old path runs only
# SLOW_RUNS times on documents where one parse takes over a second.
#
# Prints, per document, the milliseconds per parse of each and the ratios old path / reader
# and serialization / reader (above 1: the reader is faster), plus the reader's work units
# per byte (a machine-independent count; flat across sizes means linear).
#
# Usage: Benchmarks/json-decode.sh
# Environment: RUNS (default 10), SLOW_RUNS (default 1), BENCH_SCRATCH (Swift build
#              directory, default build/bench/json-scratch).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

runs="${RUNS:-10}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "json-decode: RUNS must be a positive integer, got '$runs'" >&2
  exit 2
fi
scratch="${BENCH_SCRATCH:-$repo_root/build/bench/json-scratch}"

echo "Building Benchmarks/JSONBench (release)..."
mkdir -p "$(dirname "$scratch")"
build_log="$(dirname "$scratch")/json-build.log"
if ! (cd Benchmarks/JSONBench && swift build -c release --scratch-path "$scratch" >"$build_log" 2>&1); then
  echo "json-decode: the benchmark does not build; see $build_log" >&2
  grep -E "error:" "$build_log" | head -n 20 >&2 || tail -n 20 "$build_log" >&2
  exit 1
fi
bench="$scratch/release/JSONBench"

field() { echo "$1" | tr ' ' '\n' | grep "^$2=" | cut -d= -f2; }
ms() { awk -v s="$1" 'BEGIN { printf "%.3f", s * 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "inf" }'; }

printf '\n%-13s %9s %6s %9s %12s %12s %14s %10s %10s %11s\n' \
  document bytes depth reader "reader ms" "old ms" "serializ. ms" "old/reader" "ser/reader" "units/byte"
"$bench" "$runs" | while read -r line; do
  name="$(field "$line" name)"
  bytes="$(field "$line" bytes)"
  reader="$(field "$line" reader)"
  old="$(field "$line" foundation)"
  serialization="$(field "$line" serialization)"
  units="$(field "$line" reader_units)"
  printf '%-13s %9s %6s %9s %12s %12s %14s %9sx %9sx %11s\n' "$name" "$bytes" \
    "$(field "$line" depth)" "$(field "$line" reader_outcome)" "$(ms "$reader")" "$(ms "$old")" \
    "$(ms "$serialization")" "$(ratio "$old" "$reader")" "$(ratio "$serialization" "$reader")" \
    "$(awk -v u="$units" -v b="$bytes" 'BEGIN { printf "%.2f", u / b }')"
done
echo
echo "reader = JSONReader (refused = nested deeper than 64 levels, stopped at the first value);"
echo "old = JSONDecoder().decode(JSONValue.self); serializ. = JSONSerialization.jsonObject."
