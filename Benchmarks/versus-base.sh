#!/usr/bin/env bash
# This tree's `playhead` against a base revision's, side by side in one run, interleaved
# (base, this, base, this, ...), RUNS times each (default 5), medians and the ratio
# this/base:
#   - first frame, local file: `timeToFirstFrameMs` of `play FILE --no-window --no-audio
#     --json --start 0 --duration 1` (open, probe, decode, present), real time;
#   - first frame over HTTP: the same from a loopback server (Benchmarks/ABRNetwork/server.py,
#     range requests, no added delay);
#   - seek, local and over HTTP: the same with `--start 17` (open, a seek 17 s in, the
#     first frame there);
#   - decode: frames per second of `play --fast --no-audio --quiet --json` on a 30 s 1080p30
#     H.264 file;
#   - real time, headless: CPU seconds (user + sys) and peak RSS of `play --no-window` of a
#     20 s 1080p30 H.264 + AAC clip under GNU time; `mpv --vo=null --ao=null` on the same
#     clip in the same run gives the RSS aim (Benchmarks/window.sh's headless row).
# A benchmark, not a test: nothing is asserted. The issue's aims: first frame, seek, decode
# and real-time CPU within 3 % of the base; peak RSS not higher (≤ 1.0× mpv).
#
# Usage: Benchmarks/versus-base.sh
# Environment:
#   BASE           the git revision to compare with (default 0c385cd, main before issue 31)
#   RUNS           runs per measure and binary (default 5)
#   PLAYHEAD       this tree's binary (default: build release here)
#   BASE_PLAYHEAD  the base's binary (default: build release in a worktree of BASE under
#                  build/versus-base)
# Installs what it needs from Debian (ffmpeg, mpv, GNU time).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
scripts/install-deps.sh >/dev/null
runs="${RUNS:-5}"
base="${BASE:-0c385cd}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "versus-base: RUNS must be a positive integer, got '$runs'" >&2
  exit 2
fi

need=()
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
command -v mpv >/dev/null 2>&1 || need+=(mpv)
[[ -x /usr/bin/time ]] || need+=(time)
if (( ${#need[@]} > 0 )); then
  as_root=()
  [[ "$(id -u)" -eq 0 ]] || as_root=(sudo)
  "${as_root[@]}" apt-get update >/dev/null
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >/dev/null
fi

this="${PLAYHEAD:-}"
if [[ -z "$this" ]]; then
  echo "Building this tree's playhead (release)..."
  swift build -c release --product playhead >/dev/null
  this="$repo_root/.build/release/playhead"
fi
other="${BASE_PLAYHEAD:-}"
if [[ -z "$other" ]]; then
  tree="$repo_root/build/versus-base"
  if [[ ! -d "$tree" ]]; then git worktree add --detach "$tree" "$base" >/dev/null; fi
  git -C "$tree" checkout --quiet --detach "$base"
  echo "Building $base's playhead (release)..."
  (cd "$tree" && swift build -c release --product playhead >/dev/null)
  other="$tree/.build/release/playhead"
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

media="$repo_root/build/bench"
mkdir -p "$media"
long="$media/testsrc2-1080p30-30s.mp4"
clip="$media/testsrc2-1080p30-20s-aac.mp4"
if [[ ! -s "$long" ]]; then
  echo "Making $long..."
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=30" \
    -c:v libx264 -preset veryfast -b:v 6M -g 60 -pix_fmt yuv420p "$long"
fi
if [[ ! -s "$clip" ]]; then
  echo "Making $clip..."
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=20" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=20" \
    -c:v libx264 -preset veryfast -b:v 6M -g 60 -pix_fmt yuv420p -c:a aac -b:a 128k \
    -shortest "$clip"
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
exec 4< <(python3 Benchmarks/ABRNetwork/server.py --root "$media" --host 127.0.0.1 \
  --port "$port" --log "$work/server.jsonl" --delay-ms 0)
server_pid=$!
read -r -u 4 _ready
remote="http://127.0.0.1:$port/$(basename "$long")"

# The value of `key` in the summary line of a `play --json` run.
summary_value() {
  python3 -c '
import json, sys
key = sys.argv[1]
for line in sys.stdin:
    line = line.strip()
    if line.startswith("{"):
        obj = json.loads(line)
        if obj.get("event") == "summary":
            print(obj[key])
' "$1"
}

# Time to first frame, in ms, of `play INPUT --start S`.
ttff() {
  local binary="$1" input="$2" start="$3"
  "$binary" play "$input" --no-window --no-audio --json --start "$start" --duration 1 \
    | summary_value timeToFirstFrameMs
}

# Frames per second of `play --fast` on the long file.
decode_fps() {
  local binary="$1"
  local begin end frames
  begin="$(date +%s.%N)"
  frames="$("$binary" play "$long" --fast --no-audio --quiet --json | summary_value framesDecoded)"
  end="$(date +%s.%N)"
  awk -v f="$frames" -v a="$begin" -v b="$end" 'BEGIN { printf "%.1f\n", f / (b - a) }'
}

# "CPU_SECONDS PEAK_KB" of a real-time headless play of the clip (or of mpv with "mpv").
realtime() {
  local out="$work/time.txt"
  if [[ "$1" == mpv ]]; then
    /usr/bin/time -f "%U %S %M" -o "$out" mpv --really-quiet --vo=null --ao=null "$clip" \
      >/dev/null 2>&1
  else
    /usr/bin/time -f "%U %S %M" -o "$out" "$1" play "$clip" --no-window --quiet >/dev/null 2>&1
  fi
  awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$out"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A samples
add() { samples[$1]+="$2"$'\n'; }

echo "Measuring ($runs runs each, interleaved)..."
for ((run = 1; run <= runs; run++)); do
  for side in base this; do
    binary="$other"
    [[ "$side" == this ]] && binary="$this"
    add "$side.ttff.file" "$(ttff "$binary" "$long" 0)"
    add "$side.ttff.http" "$(ttff "$binary" "$remote" 0)"
    add "$side.seek.file" "$(ttff "$binary" "$long" 17)"
    add "$side.seek.http" "$(ttff "$binary" "$remote" 17)"
    add "$side.decode" "$(decode_fps "$binary")"
    read -r cpu rss < <(realtime "$binary")
    add "$side.cpu" "$cpu"
    add "$side.rss" "$rss"
  done
  read -r _ mpv_rss < <(realtime mpv)
  add "mpv.rss" "$mpv_rss"
done

value() { printf "%s" "${samples[$1]}" | median; }
printf "\n%-32s %12s %12s %8s\n" "measure (median)" "$base" "this" "ratio"
row() {
  local name="$1" key="$2"
  local a b
  a="$(value "base.$key")"
  b="$(value "this.$key")"
  awk -v n="$name" -v a="$a" -v b="$b" \
    'BEGIN { printf "%-32s %12.2f %12.2f %7.3fx\n", n, a, b, (a > 0 ? b / a : 0) }'
}
row "first frame, file (ms)" ttff.file
row "first frame, HTTP (ms)" ttff.http
row "seek to 17 s, file (ms)" seek.file
row "seek to 17 s, HTTP (ms)" seek.http
row "decode (frames/s, higher wins)" decode
row "real-time CPU (s)" cpu
row "headless peak RSS (KB)" rss
mpv="$(value mpv.rss)"
awk -v a="$(value base.rss)" -v b="$(value this.rss)" -v m="$mpv" \
  'BEGIN { printf "\nheadless peak RSS against mpv (%d KB): base %.2fx, this %.2fx (aim ≤ 1.0x)\n", m, a / m, b / m }'
