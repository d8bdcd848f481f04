#!/usr/bin/env bash
# Makes the Common Encryption fixtures under Fixtures/cenc/ (make-fixtures.sh runs it too),
# then lists them in Fixtures/manifest.json (replacing any earlier cenc/ entries).
#
#   clear.mp4        3 s of 160x120 testsrc (H.264, GOP 25, B-frames) and a stereo 440/660 Hz
#                    AAC tone, fragmented (empty moov, a moof per keyframe, base-is-moof).
#   cenc-ffmpeg.mp4  clear.mp4's samples encrypted by ffmpeg's own muxer (cenc-aes-ctr, 16-byte
#                    IVs, one subsample per NAL unit). Not fragmented: ffmpeg 5.1's muxer
#                    writes senc/saiz/saio only into moov, never into a moof, so its
#                    fragmented output cannot be decrypted by anyone (decision 0055).
#   cenc.mp4         clear.mp4 encrypted by scripts/cenc_encrypt.py: cenc, 8-byte IVs,
#                    fragmented, one key ID for both tracks.
#   cbcs.mp4         clear.mp4 encrypted by scripts/cenc_encrypt.py: cbcs 1:9, constant IV,
#                    fragmented, one key ID for video and another for audio.
#
# The keys are those of cenc_encrypt.py (ffmpeg's key and key ID are cenc_encrypt.py's CENC_
# pair). cenc_encrypt.py needs the Python `cryptography` package; when python3 cannot import
# it, it is installed from PyPI into a venv under the work directory.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo_root/Fixtures/cenc"
cenc_key=00112233445566778899aabbccddeeff
cenc_kid=0123456789abcdef0123456789abcdef

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python=python3
if ! python3 -c 'import cryptography' 2>/dev/null; then
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install --quiet 'cryptography>=41'
  python="$work/venv/bin/python"
fi

ff=(ffmpeg -nostdin -hide_banner -loglevel error -y)
exact=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)
fragmented=(-movflags +frag_keyframe+empty_moov+default_base_moof)
rm -rf "$out"
mkdir -p "$out"

echo "cenc/clear.mp4"
"${ff[@]}" \
  -f lavfi -i "testsrc=size=160x120:rate=25:duration=3" \
  -f lavfi -i "aevalsrc=exprs=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t):sample_rate=48000:duration=3" \
  -c:v libx264 -pix_fmt yuv420p -threads 1 -preset medium -crf 30 -g 25 -keyint_min 25 \
  -sc_threshold 0 -c:a aac -b:a 32k -ar 48000 -ac 2 "${exact[@]}" "${fragmented[@]}" \
  "$out/clear.mp4"

echo "cenc/cenc-ffmpeg.mp4"
"${ff[@]}" -i "$out/clear.mp4" -map 0 -c copy "${exact[@]}" \
  -encryption_scheme cenc-aes-ctr -encryption_key "$cenc_key" -encryption_kid "$cenc_kid" \
  "$out/cenc-ffmpeg.mp4"

echo "cenc/cenc.mp4, cenc/cbcs.mp4"
"$python" "$repo_root/scripts/cenc_encrypt.py" cenc "$out/clear.mp4" "$out/cenc.mp4"
"$python" "$repo_root/scripts/cenc_encrypt.py" cbcs "$out/clear.mp4" "$out/cbcs.mp4"

# A second, independent decryption: ffmpeg's own (cenc only, one key). The fragmented file is
# piped, so that ffmpeg reads its fragments in order (decision 0055).
ffmpeg -v error -i "$out/clear.mp4" -map 0 -f framemd5 - >"$work/clear.md5"
ffmpeg -v error -decryption_key "$cenc_key" -i "$out/cenc-ffmpeg.mp4" -map 0 -f framemd5 - \
  >"$work/ffmpeg.md5"
ffmpeg -v error -decryption_key "$cenc_key" -f mp4 -i pipe: -map 0 -f framemd5 - \
  <"$out/cenc.mp4" >"$work/script.md5"
for made in ffmpeg script; do
  if ! cmp -s <(grep -v '^#' "$work/clear.md5") <(grep -v '^#' "$work/$made.md5"); then
    echo "make-cenc-fixtures: ffmpeg's decryption of the $made cenc file differs from clear.mp4" >&2
    exit 1
  fi
done
# ffmpeg decrypts cbcs video too (with the video key alone, so video only). Not the audio:
# ffmpeg 5.1 decrypts a cbcs sample without subsamples as whole-block CBC, ignoring the 1:9
# pattern that tenc signals and this file applies (decision 0055).
video_key=3c4fcfd8a1b6e2a7d1e0f9c8b7a69584
ffmpeg -v error -f mp4 -i pipe: -map 0:v -f framemd5 - <"$out/clear.mp4" >"$work/clear-video.md5"
ffmpeg -v error -decryption_key "$video_key" -f mp4 -i pipe: -map 0:v -f framemd5 - \
  <"$out/cbcs.mp4" 2>/dev/null >"$work/cbcs-video.md5"
if ! cmp -s <(grep -v '^#' "$work/clear-video.md5") <(grep -v '^#' "$work/cbcs-video.md5"); then
  echo "make-cenc-fixtures: ffmpeg's decryption of the cbcs video differs from clear.mp4" >&2
  exit 1
fi

echo "manifest.json: cenc/ entries"
python3 - "$repo_root/Fixtures" <<'PY'
import hashlib
import json
import os
import subprocess
import sys

root = sys.argv[1]
descriptions = {
    "cenc/clear.mp4": "3 s 160x120 testsrc H.264 (GOP 25, B-frames) and 440/660 Hz stereo AAC, "
                      "fragmented MP4: the clear source of the other cenc/ files",
    "cenc/cenc-ffmpeg.mp4": "clear.mp4's samples, cenc (AES-CTR, 16-byte IVs, subsamples) by "
                            "ffmpeg's muxer, not fragmented; KID 0123456789abcdef0123456789abcdef "
                            "key 00112233445566778899aabbccddeeff",
    "cenc/cenc.mp4": "clear.mp4 fragmented, cenc (AES-CTR, 8-byte IVs, video subsamples) by "
                     "scripts/cenc_encrypt.py; KID 0123456789abcdef0123456789abcdef key "
                     "00112233445566778899aabbccddeeff for both tracks",
    "cenc/cbcs.mp4": "clear.mp4 fragmented, cbcs (AES-CBC 1:9, constant IV "
                     "9f8e7d6c5b4a39281706f5e4d3c2b1a0) by scripts/cenc_encrypt.py; video KID "
                     "a1b2c3d4e5f60718293a4b5c6d7e8f90 key 3c4fcfd8a1b6e2a7d1e0f9c8b7a69584, "
                     "audio KID f0e1d2c3b4a5968778695a4b3c2d1e0f key "
                     "6a1c9e0b2d4f8a7c5e3b1d9f0a2c4e6b",
}


def streams_of(name, count):
    path = os.path.join(root, name)
    options = ["-count_packets"] if count else []
    return json.loads(subprocess.run(
        ["ffprobe", "-v", "quiet", "-of", "json", "-show_streams"] + options + [path],
        check=True, capture_output=True, text=True).stdout)["streams"]


# Every file holds clear.mp4's samples; ffprobe counts them in clear.mp4 (it cannot read a
# seekable fragmented encrypted file in order, decision 0055).
packet_counts = {s["index"]: int(s["nb_read_packets"]) for s in streams_of("cenc/clear.mp4", True)}


def probe(name):
    path = os.path.join(root, name)
    streams = [{
        "index": s["index"],
        "codecType": s["codec_type"],
        "codecName": s.get("codec_name"),
        "nbReadPackets": packet_counts[s["index"]],
    } for s in streams_of(name, False)]
    return {
        "name": name,
        "opens": True,
        "sizeBytes": os.path.getsize(path),
        "sha256": hashlib.sha256(open(path, "rb").read()).hexdigest(),
        "description": descriptions[name],
        "streams": streams,
    }


manifest_path = os.path.join(root, "manifest.json")
manifest = json.load(open(manifest_path))
# Entries already listed are replaced where they stand, new ones appended.
entries = {name: probe(name) for name in descriptions}
files = [entries.pop(f["name"], f) for f in manifest["files"]
         if not f["name"].startswith("cenc/") or f["name"] in descriptions]
manifest["files"] = files + list(entries.values())
with open(manifest_path, "w") as f:
    json.dump(manifest, f, indent=2, sort_keys=True)
    f.write("\n")
PY
du -ch "$out"/*.mp4 | tail -1
