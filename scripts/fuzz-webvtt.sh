#!/usr/bin/env bash
# Fuzzes the WebVTT parser, cue text renderer and writer with libFuzzer:
# `scripts/fuzz.sh webvtt [seconds]` (see there for what is checked, where the corpus and
# findings go, and the environment).
#
# Usage: scripts/fuzz-webvtt.sh [seconds]   (default 60)
exec "$(dirname "${BASH_SOURCE[0]}")/fuzz.sh" webvtt "$@"
