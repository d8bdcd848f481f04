#!/usr/bin/env bash
# Thumbnail generation time of `playhead thumbnails` against the equivalent ffmpeg command
# (`-vf fps=1/EVERY,scale=W:-2`, and `tile=COLSxROWS` for sprite sheets) on the same file.
#
# Usage: Benchmarks/thumbnails.sh [--large] [INPUT]
#   INPUT     the video (default Fixtures/sample-h264-aac.mp4, 10 s 320x240)
#   --large   use build/bench/testsrc2-1080p30-30s.mp4 (made once, as decode-throughput.sh
#             makes it) instead
# Environment: RUNS (default 5), EVERY (seconds, default 1), WIDTH (default 160),
#   SPRITE (default 5x5), PLAYHEAD (a playhead binary; default: build release and use it).
# Prints the median wall time of each command, single images and sprite sheets.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

input="Fixtures/sample-h264-aac.mp4"
case "${1:-}" in
  "") ;;
  --large) input="build/bench/testsrc2-1080p30-30s.mp4" ;;
  -*)
    echo "usage: $0 [--large] [INPUT]" >&2
    exit 2
    ;;
  *) input="$1" ;;
esac

runs="${RUNS:-5}"
every="${EVERY:-1}"
width="${WIDTH:-160}"
sprite="${SPRITE:-5x5}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "thumbnails bench: RUNS must be a positive integer, got '$runs'" >&2
  exit 2
fi

bench_dir="build/bench/thumbnails"
mkdir -p "$bench_dir"
if [[ "$input" == build/bench/testsrc2-1080p30-30s.mp4 && ! -s "$input" ]]; then
  echo "Generating $input (1080p, 30 s, 30 fps)..."
  ffmpeg -nostdin -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=30" \
    -c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p "$input.partial.mp4"
  mv "$input.partial.mp4" "$input"
fi
if [[ ! -s "$input" ]]; then
  echo "thumbnails bench: no input at $input" >&2
  exit 2
fi

playhead="${PLAYHEAD:-}"
if [[ -z "$playhead" ]]; then
  echo "Building playhead (release)..."
  swift build -c release --product playhead
  playhead=".build/release/playhead"
fi

now() { date +%s.%N; }

# Prints the seconds one run of the command "$@" takes (its output folder is emptied first).
time_once() {
  local out="$1" start end
  shift
  rm -rf "$out" && mkdir -p "$out"
  start="$(now)"
  "$@" >/dev/null
  end="$(now)"
  echo "$start $end" | awk '{ printf "%.4f\n", $2 - $1 }'
}

# Runs "$@" RUNS times into $1 and prints the median seconds.
median() {
  local out="$1" times=() i
  shift
  for ((i = 1; i <= runs; i++)); do
    times+=("$(time_once "$out" "$@")")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2) { print }'
}

ffmpeg_images() {
  ffmpeg -nostdin -hide_banner -loglevel error -y -i "$input" -an \
    -vf "fps=1/$every,scale=$width:-2" -q:v 4 "$bench_dir/ffmpeg-images/%04d.jpg"
}
ffmpeg_sprites() {
  ffmpeg -nostdin -hide_banner -loglevel error -y -i "$input" -an \
    -vf "fps=1/$every,scale=$width:-2,tile=$sprite" -q:v 4 "$bench_dir/ffmpeg-sprites/%03d.jpg"
}

echo "Input: $input ($(du -h "$input" | cut -f1)); every $every s, width $width, sprite $sprite, $runs runs"
p_images="$(median "$bench_dir/playhead-images" \
  "$playhead" thumbnails "$input" --every "$every" --width "$width" \
  --out "$bench_dir/playhead-images" --quiet)"
f_images="$(median "$bench_dir/ffmpeg-images" ffmpeg_images)"
p_sprites="$(median "$bench_dir/playhead-sprites" \
  "$playhead" thumbnails "$input" --every "$every" --width "$width" --sprite "$sprite" \
  --out "$bench_dir/playhead-sprites" --quiet)"
f_sprites="$(median "$bench_dir/ffmpeg-sprites" ffmpeg_sprites)"
echo "images:  playhead ${p_images} s ($(ls "$bench_dir/playhead-images" | wc -l) files incl. VTT)," \
  "ffmpeg ${f_images} s ($(ls "$bench_dir/ffmpeg-images" | wc -l) files)"
echo "sprites: playhead ${p_sprites} s ($(ls "$bench_dir/playhead-sprites" | wc -l) files incl. VTT)," \
  "ffmpeg ${f_sprites} s ($(ls "$bench_dir/ffmpeg-sprites" | wc -l) files)"
awk -v a="$p_images" -v b="$f_images" -v c="$p_sprites" -v d="$f_sprites" \
  'BEGIN { printf "ratio playhead/ffmpeg: images %.2f, sprites %.2f\n", a / b, c / d }'
