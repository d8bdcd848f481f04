#!/usr/bin/env bash
# Installs what Playhead needs to build and test on Debian: the FFmpeg, SDL2 and libass
# development libraries (found through pkg-config), fonts, the ffmpeg command line tool
# (benchmarks, fixture regeneration), Xvfb and xdotool, which the PlayheadDesktop tests
# drive a window with, Weston, the Wayland compositor the Wayland window tests run on, and
# libdbus with dbus-daemon and dbus-send for the MPRIS service and its tests.
# Does nothing when everything is already present, so it is safe to rerun.
set -euo pipefail

libraries=(libavformat libavcodec libavutil libswscale libswresample libavfilter libass sdl2 dbus-1)
# libass draws subtitles; fontconfig finds DejaVu Sans (the default) and, for CJK text,
# Droid Sans Fallback.
fonts=(/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
  /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf)
packages=(
  pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
  libavfilter-dev ffmpeg libass-dev fontconfig fonts-dejavu-core fonts-droid-fallback
  libsdl2-dev xvfb xdotool weston libdbus-1-dev dbus-daemon dbus-bin
)

if command -v pkg-config >/dev/null 2>&1 \
  && pkg-config --exists "${libraries[@]}" \
  && command -v ffmpeg >/dev/null 2>&1 \
  && command -v fc-match >/dev/null 2>&1 \
  && ls "${fonts[@]}" >/dev/null 2>&1 \
  && command -v Xvfb >/dev/null 2>&1 \
  && command -v xdotool >/dev/null 2>&1 \
  && command -v weston >/dev/null 2>&1 \
  && command -v dbus-daemon >/dev/null 2>&1 \
  && command -v dbus-send >/dev/null 2>&1; then
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
