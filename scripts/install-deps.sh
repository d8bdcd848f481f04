#!/usr/bin/env bash
# Installs what Playhead needs to build and test on Debian: the FFmpeg and SDL2 development
# libraries (found through pkg-config), the ffmpeg command line tool (benchmarks, fixture
# regeneration), and Xvfb and xdotool, which the PlayheadDesktop tests drive a window with.
# Does nothing when everything is already present, so it is safe to rerun.
set -euo pipefail

libraries=(libavformat libavcodec libavutil libswscale libswresample libavfilter sdl2)
packages=(
  pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
  libavfilter-dev ffmpeg libsdl2-dev xvfb xdotool
)

if command -v pkg-config >/dev/null 2>&1 \
  && pkg-config --exists "${libraries[@]}" \
  && command -v ffmpeg >/dev/null 2>&1 \
  && command -v Xvfb >/dev/null 2>&1 \
  && command -v xdotool >/dev/null 2>&1; then
  exit 0
fi

if [[ "$(id -u)" -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: need root or sudo to install: ${packages[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${packages[*]}"
"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${packages[@]}"
