#!/usr/bin/env bash
# CPU seconds (user + sys) and peak resident memory to play a 20 s 1080p30 H.264 + AAC clip
# in real time, side by side in one run:
#   - in a window with sound: `playhead play` against `ffplay` (also SDL2), both on a
#     private Xvfb with SDL's disk audio driver standing in for the sound card. Xvfb's
#     OpenGL is Mesa's llvmpipe, which ffplay draws with; playhead sees that it rasterises
#     in software and draws with SDL's software renderer (WindowRendering.automatic), so
#     ffplay is also run on that renderer (SDL_RENDER_DRIVER=software, X shared memory) for
#     a comparison on equal terms. Each player's presented frames are counted
#     (Benchmarks/PresentCounter, loaded with LD_PRELOAD): a player that drops more late
#     frames spends less CPU;
#   - headless: `playhead play --no-window` against `mpv --vo=null --ao=null`.
# Installs what it needs from Debian (ffmpeg with ffplay, mpv, xvfb, GNU time, gcc).
#
# Usage: Benchmarks/window.sh
# Environment: SECONDS_OF_MEDIA (default 20), PLAYHEAD (a playhead binary; default: build
#   release and use it).
# Prints each player's CPU seconds and peak RSS and Playhead's ratios (aim: ≤ 1.0×).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
scripts/install-deps.sh
seconds="${SECONDS_OF_MEDIA:-20}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "window bench: SECONDS_OF_MEDIA must be a positive integer, got '$seconds'" >&2
  exit 2
fi

need=()
command -v ffplay >/dev/null 2>&1 || need+=(ffmpeg)
command -v mpv >/dev/null 2>&1 || need+=(mpv)
[[ -x /usr/bin/time ]] || need+=(time)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
if (( ${#need[@]} > 0 )); then
  as_root=()
  [[ "$(id -u)" -eq 0 ]] || as_root=(sudo)
  "${as_root[@]}" apt-get update
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
fi

playhead="${PLAYHEAD:-}"
if [[ -z "$playhead" ]]; then
  echo "Building playhead (release)..."
  swift build -c release --product playhead
  playhead=".build/release/playhead"
fi

work="$(mktemp -d)"
xvfb_pid=""
cleanup() {
  [[ -n "$xvfb_pid" ]] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

clip="$work/clip-1080p30.mp4"
echo "Making a ${seconds} s 1080p30 H.264 + AAC clip..."
ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=$seconds" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=$seconds" \
  -c:v libx264 -preset veryfast -b:v 6M -g 60 -pix_fmt yuv420p -c:a aac -b:a 128k \
  -shortest "$clip"

# A private X server; it reports its display number on the pipe when ready.
exec 3< <(Xvfb -displayfd 1 -screen 0 1920x1080x24 -nolisten tcp -noreset 2>/dev/null)
xvfb_pid=$!
read -r -u 3 display_number
export DISPLAY=":$display_number" SDL_VIDEODRIVER=x11 SDL_AUDIODRIVER=disk
echo "Xvfb on $DISPLAY"

counter="$work/present-counter.so"
gcc -shared -fPIC -O2 -o "$counter" Benchmarks/PresentCounter/present-counter.c -ldl

# Runs a command under GNU time with the present counter; prints
# "CPU_SECONDS PEAK_KB FRAMES_PRESENTED" (0 frames without a window).
measure() {
  local out="$work/time.txt"
  rm -f "$work/presents.txt"
  # The counter is preloaded into the player only (through env), not into GNU time,
  # whose own exit would otherwise overwrite the count with 0.
  SDL_DISKAUDIOFILE="$work/audio.raw" PRESENT_COUNT_FILE="$work/presents.txt" \
    /usr/bin/time -f "%U %S %M" -o "$out" env LD_PRELOAD="$counter" "$@" \
    >/dev/null 2>"$work/stderr.txt" || {
    echo "window bench: '$*' failed:" >&2
    cat "$work/stderr.txt" >&2
    exit 1
  }
  local presents=0
  [[ -s "$work/presents.txt" ]] && presents="$(cat "$work/presents.txt")"
  awk -v p="$presents" '{ printf "%.2f %d %d\n", $1 + $2, $3, p }' "$out"
}

echo "Playing in a window with sound (real time, ${seconds} s each)..."
read -r ph_cpu ph_rss ph_frames < <(measure "$playhead" play "$clip" --window --quiet)
read -r ff_cpu ff_rss ff_frames < <(measure ffplay -autoexit -loglevel error "$clip")
read -r ffs_cpu ffs_rss ffs_frames < <(SDL_RENDER_DRIVER=software SDL_FRAMEBUFFER_ACCELERATION=0 \
  measure ffplay -autoexit -loglevel error "$clip")
echo "Playing headless (real time)..."
read -r phh_cpu phh_rss _ < <(measure "$playhead" play "$clip" --no-window --quiet)
read -r mpv_cpu mpv_rss _ < <(measure mpv --really-quiet --vo=null --ao=null "$clip")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }
frames=$((seconds * 30))
printf "\n%-40s %8s %12s %16s\n" "player" "CPU s" "peak RSS MB" "frames shown"
row() {
  awk -v n="$1" -v c="$2" -v r="$3" -v f="$4" -v t="$frames" \
    'BEGIN { printf "%-40s %8.2f %12.1f %16s\n", n, c, r / 1024, (f == "" ? "-" : f "/" t) }'
}
row "playhead (window + device)" "$ph_cpu" "$ph_rss" "$ph_frames"
row "ffplay (SDL2, OpenGL: llvmpipe)" "$ff_cpu" "$ff_rss" "$ff_frames"
row "ffplay (SDL2, software renderer)" "$ffs_cpu" "$ffs_rss" "$ffs_frames"
row "playhead --no-window" "$phh_cpu" "$phh_rss" ""
row "mpv --vo=null --ao=null" "$mpv_cpu" "$mpv_rss" ""
echo
echo "window:   CPU $(ratio "$ph_cpu" "$ff_cpu") of ffplay, RSS $(ratio "$ph_rss" "$ff_rss") (aims ≤ 1.0x)"
echo "          on the same software renderer: CPU $(ratio "$ph_cpu" "$ffs_cpu"), RSS $(ratio "$ph_rss" "$ffs_rss")"
echo "headless: CPU $(ratio "$phh_cpu" "$mpv_cpu") of mpv, RSS $(ratio "$phh_rss" "$mpv_rss") (aims ≤ 1.0x)"
