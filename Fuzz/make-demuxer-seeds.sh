#!/usr/bin/env bash
# Writes the demuxer fuzzer's seed corpus, Fuzz/corpus-demuxer/ (committed: run this only to
# change it). Each seed is a tiny file in one of the containers Playhead plays (0.2 s,
# 32x18 video, 8 kHz mono audio) followed by the fuzzer's 16-byte control trailer (see
# Fuzz/Sources/DemuxerFuzzer/DemuxerFuzzInput.swift): a seekable source, audio decoded,
# frames converted, 64 packets, 16 frames, and mixed read sizes.
#
# Usage: Fuzz/make-demuxer-seeds.sh   (needs the ffmpeg command)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
out=corpus-demuxer
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

video=(-f lavfi -i "testsrc2=size=32x18:rate=10:duration=0.2")
audio=(-f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.2")
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }

ff "${video[@]}" "${audio[@]}" -c:v libx264 -preset ultrafast -g 2 -c:a aac -b:a 8k -ac 1 -f mpegts "$tmp/av.ts"
ff "${video[@]}" "${audio[@]}" -c:v libx264 -preset ultrafast -g 2 -c:a aac -b:a 8k -ac 1 -movflags +faststart "$tmp/av-faststart.mp4"
ff "${video[@]}" "${audio[@]}" -c:v libx264 -preset ultrafast -g 2 -c:a aac -b:a 8k -ac 1 "$tmp/av-moov-at-end.mp4"
ff "${video[@]}" -c:v libx264 -preset ultrafast -g 2 -f mp4 -movflags frag_keyframe+empty_moov "$tmp/v-fragmented.mp4"
ff "${video[@]}" "${audio[@]}" -c:v libvpx -b:v 20k -c:a libopus -b:a 6k -ac 1 "$tmp/av.webm"
ff "${video[@]}" "${audio[@]}" -c:v libx264 -preset ultrafast -c:a flac -ac 1 "$tmp/av.mkv"
ff "${audio[@]}" -c:a libmp3lame -b:a 8k "$tmp/a.mp3"
ff "${audio[@]}" -c:a aac -b:a 8k -f adts "$tmp/a.aac"
ff "${audio[@]}" -c:a flac "$tmp/a.flac"
ff "${audio[@]}" -c:a pcm_s16le "$tmp/a.wav"
ff "${audio[@]}" -c:a libvorbis -b:a 16k "$tmp/a.ogg"

# flags 0x14 (seekable, decode audio, convert), no hint, 64 packets, 16 frames, read sizes.
trailer='\x14\x00\x38\x0f\xff\x31\x8f\x01\xa1\xc3\x2f\x05\xff\x9a\x47\x10'
for file in "$tmp"/*; do
  name="$(basename "$file")"
  { cat "$file"; printf "$trailer"; } >"$out/$name"
done
# The same MPEG-TS from a forward-only source, with a seek, and with the mpegts hint.
{ cat "$tmp/av.ts"; printf '\x1e\x08\x38\x0f\x01\x02\x03\xff\x10\x20\x40\x80\x55\x66\x77\x88'; } >"$out/av-forward-only-seek.ts"
# MP4 with the moov at the end from a source of unknown length.
{ cat "$tmp/av-moov-at-end.mp4"; printf '\x15\x00\x38\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff'; } >"$out/av-unknown-length.mp4"
ls -l "$out"
