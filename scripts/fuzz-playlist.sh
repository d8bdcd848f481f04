#!/usr/bin/env bash
# Fuzzes the M3U8 parser and writer with libFuzzer: `scripts/fuzz.sh playlist [seconds]`
# (see there for what is checked, where the corpus and findings go, and the environment).
#
# Usage: scripts/fuzz-playlist.sh [seconds]   (default 60)
exec "$(dirname "${BASH_SOURCE[0]}")/fuzz.sh" playlist "$@"
