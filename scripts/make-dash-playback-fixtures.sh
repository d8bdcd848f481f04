#!/usr/bin/env bash
# Regenerates the DASH playback fixtures under Fixtures/dash-*/ with FFmpeg's own `dash`
# muxer (the packager the issue names), from synthetic sources with bit-exact muxing:
#
#   dash-vod/       two video Representations (256x144, 640x360) and one audio set, 2 s
#                   segments, SegmentTemplate with SegmentTimeline ($Time$ is not used by
#                   FFmpeg; $Number$ is)
#   dash-number/    the same media, SegmentTemplate with @duration and $Number$ only
#   dash-list/      the same media, SegmentList (FFmpeg's use_template=0)
#   dash-single/    one file per Representation, SegmentBase with an indexRange (sidx)
#   dash-periods/   a hand-written MPD of two Periods over dash-vod's segments (10 s + 10 s)
#   dash-lang/      dash-vod plus a second audio set (French) and a WebVTT subtitle set
#
# Each video frame carries its frame number (drawtext), so a test can tell which frame it
# sees. Run from anywhere; needs ffmpeg.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo_root/Fixtures"
ff=(ffmpeg -nostdin -hide_banner -loglevel error -y)
exact=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)
font=/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf
label=null
if [[ -f "$font" ]]; then
  label="drawtext=fontfile=$font:text='%{n}':x=4:y=4:fontsize=24:fontcolor=white:box=1:boxcolor=black:boxborderw=3"
fi
video="testsrc2=size=640x360:rate=25:duration=10"
tone="aevalsrc=exprs=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t):sample_rate=48000:duration=10"
encode=(-c:v libx264 -pix_fmt yuv420p -threads 1 -preset veryfast -profile:v main -bf 2
  -g 50 -keyint_min 50 -sc_threshold 0 -force_key_frames "expr:gte(t,n_forced*2)"
  -b:v:0 80k -maxrate:v:0 100k -bufsize:v:0 160k -b:v:1 300k -maxrate:v:1 360k
  -bufsize:v:1 600k -c:a aac -b:a 32k -ar 48000 -ac 2)

package() { # directory, extra dash muxer flags...
  local name="$1"
  local dir="$out/$1"
  shift
  rm -rf "$dir"
  mkdir -p "$dir"
  "${ff[@]}" -f lavfi -i "$video" -f lavfi -i "$tone" \
    -filter_complex "[0:v]split=2[a][b];[a]scale=256:144,$label[v0];[b]$label[v1]" \
    -map "[v0]" -map "[v1]" -map 1:a "${encode[@]}" "${exact[@]}" \
    -f dash -seg_duration 2 -adaptation_sets "id=0,streams=v id=1,streams=a" "$@" \
    "$dir/manifest.mpd"
  echo "$name/"
}

# An MPD over dash-vod's media (the same encode is bit-exact, so the segments are the same
# bytes): only the manifest is kept, with a BaseURL to dash-vod/.
manifest_only() { # directory
  python3 - "$out/$1/manifest.mpd" <<'PY'
import sys
path = sys.argv[1]
mpd = open(path).read().replace("<Period", "<BaseURL>../dash-vod/</BaseURL>\n\t<Period", 1)
open(path, "w").write(mpd)
PY
  find "$out/$1" -type f ! -name manifest.mpd -delete
}

package dash-vod -use_template 1 -use_timeline 1
package dash-number -use_template 1 -use_timeline 0
manifest_only dash-number
package dash-list -use_template 0 -use_timeline 0
manifest_only dash-list
package dash-single -single_file 1 -use_template 0 -use_timeline 0 -global_sidx 1

echo "dash-single/segmentbase.mpd"
# The same files addressed by SegmentBase: the initialization range and the global sidx's
# range, found by walking the top-level boxes.
python3 - "$out/dash-single" <<'PY'
import re, struct, sys
folder = sys.argv[1]
mpd = open(f"{folder}/manifest.mpd").read()

def ranges(path):
    data = open(path, "rb").read()
    offset, found = 0, {}
    while offset + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if size == 1:
            size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
        found.setdefault(kind.decode(), (offset, offset + size - 1))
        offset += size
    return found

def segment_base(match):
    file = re.search(r"<BaseURL>(.*?)</BaseURL>", match.group(0)).group(1)
    boxes = ranges(f"{folder}/{file}")
    init_end = boxes["moov"][1]
    sidx = boxes["sidx"]
    return (f'<BaseURL>{file}</BaseURL>\n\t\t\t\t<SegmentBase indexRange="{sidx[0]}-{sidx[1]}">'
            f'<Initialization range="0-{init_end}" /></SegmentBase>')

mpd = re.sub(r"<BaseURL>[^<]*</BaseURL>\s*<SegmentList.*?</SegmentList>", segment_base, mpd,
             flags=re.S)
open(f"{folder}/segmentbase.mpd", "w").write(mpd)
PY

echo "dash-periods/"
# Two Periods, each 10 s, both over dash-vod's media (the second Period replays it): the
# boundary comes at 10 s, with a new initialization section and timestamps starting over.
rm -rf "$out/dash-periods"
mkdir -p "$out/dash-periods"
python3 - "$out" <<'PY'
import re, sys
out = sys.argv[1]
mpd = open(f"{out}/dash-vod/manifest.mpd").read()
period = re.search(r"<Period.*?</Period>", mpd, re.S).group(0)
body = re.sub(r'<Period[^>]*>', '', period, count=1).replace('</Period>', '')
periods = "".join(
    f'<Period id="p{n}" start="PT{10 * n}S" duration="PT10S"><BaseURL>../dash-vod/</BaseURL>{body}</Period>\n'
    for n in range(2))
head = re.sub(r'mediaPresentationDuration="[^"]*"', 'mediaPresentationDuration="PT20S"',
              mpd[:mpd.index("<Period")])
open(f"{out}/dash-periods/manifest.mpd", "w").write(head + periods + "</MPD>\n")
PY

echo "dash-lang/"
# One small video Representation, two audio sets (English 440 Hz, French 880 Hz) and a
# WebVTT file as a text AdaptationSet added to FFmpeg's MPD.
rm -rf "$out/dash-lang"
mkdir -p "$out/dash-lang"
"${ff[@]}" -f lavfi -i "$video" \
  -f lavfi -i "aevalsrc=exprs=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*440*t):sample_rate=48000:duration=10" \
  -f lavfi -i "aevalsrc=exprs=0.5*sin(2*PI*880*t)|0.5*sin(2*PI*880*t):sample_rate=48000:duration=10" \
  -filter_complex "[0:v]scale=256:144,$label[v0]" -map "[v0]" -map 1:a -map 2:a \
  "${encode[@]}" -metadata:s:a:0 language=eng -metadata:s:a:1 language=fra "${exact[@]}" \
  -f dash -seg_duration 2 -use_template 1 -use_timeline 1 \
  -adaptation_sets "id=0,streams=v id=1,streams=1 id=2,streams=2" "$out/dash-lang/manifest.mpd"
cat > "$out/dash-lang/subtitles.vtt" <<'VTT'
WEBVTT

00:00:01.000 --> 00:00:03.000
First line

00:00:05.000 --> 00:00:07.000
Second line
VTT
python3 - "$out/dash-lang/manifest.mpd" <<'PY'
import sys
path = sys.argv[1]
mpd = open(path).read()
text = ('\t\t<AdaptationSet id="3" contentType="text" mimeType="text/vtt" lang="en">\n'
        '\t\t\t<Representation id="sub-en" bandwidth="256"><BaseURL>subtitles.vtt</BaseURL>'
        '</Representation>\n\t\t</AdaptationSet>\n')
mpd = mpd.replace("\t</Period>", text + "\t</Period>", 1)
open(path, "w").write(mpd)
PY

echo "dash-cenc/ hls-cenc/"
# Streams over the Common Encryption fixtures (Fixtures/cenc/, scripts/make-cenc-fixtures.sh),
# each moof+mdat pair one segment (a byte range of the file):
# - dash-cenc/{cenc,cbcs}.mpd: one muxed video+audio Representation addressed by a
#   SegmentList, ContentProtection naming the default key ID and a ClearKey licence server at
#   /license beside the MPD (tests serve it);
# - hls-cenc/index.m3u8: the cenc file as fMP4 HLS with METHOD=SAMPLE-AES-CTR, an EXT-X-MAP
#   and byte-range segments, the key (cenc_encrypt.py's CENC_KEY) in key.bin.
rm -rf "$out/dash-cenc" "$out/hls-cenc"
mkdir -p "$out/dash-cenc" "$out/hls-cenc"
python3 - "$out" <<'PY'
import struct, sys
out = sys.argv[1]
KIDS = {"cenc": "01234567-89ab-cdef-0123-456789abcdef",
        "cbcs": "a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90"}

def layout(path):
    """The end of the moov box and the (offset, length) of each moof+mdat pair."""
    data = open(path, "rb").read()
    boxes, offset = [], 0
    while offset + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        boxes.append((kind.decode(), offset, size))
        offset += size
    moov_end = next(o + s for k, o, s in boxes if k == "moov")
    fragments = [(o, boxes[i + 1][1] + boxes[i + 1][2] - o)
                 for i, (k, o, s) in enumerate(boxes) if k == "moof"]
    return moov_end, fragments

for scheme, kid in KIDS.items():
    moov_end, fragments = layout(f"{out}/cenc/{scheme}.mp4")
    urls = "\n".join(f'          <SegmentURL mediaRange="{o}-{o + n - 1}"/>' for o, n in fragments)
    mpd = f"""<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:cenc="urn:mpeg:cenc:2013"
  xmlns:dashif="https://dashif.org/CPS" type="static" mediaPresentationDuration="PT3S"
  minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-main:2011">
  <Period>
    <AdaptationSet mimeType="video/mp4" contentType="video" segmentAlignment="true">
      <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="{scheme}"
        cenc:default_KID="{kid}"/>
      <ContentProtection schemeIdUri="urn:uuid:e2719d58-a985-b3c9-781a-b030af78d30e"
        value="ClearKey1.0"><dashif:Laurl>license</dashif:Laurl></ContentProtection>
      <Representation id="{scheme}" bandwidth="90000" width="160" height="120"
        codecs="avc1.4d400d,mp4a.40.2">
        <BaseURL>../cenc/{scheme}.mp4</BaseURL>
        <SegmentList timescale="1000" duration="1000">
          <Initialization range="0-{moov_end - 1}"/>
{urls}
        </SegmentList>
      </Representation>
    </AdaptationSet>
  </Period>
</MPD>
"""
    open(f"{out}/dash-cenc/{scheme}.mpd", "w").write(mpd)

moov_end, fragments = layout(f"{out}/cenc/cenc.mp4")
lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2",
         "#EXT-X-PLAYLIST-TYPE:VOD",
         '#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="key.bin",KEYFORMAT="identity"',
         f'#EXT-X-MAP:URI="../cenc/cenc.mp4",BYTERANGE="{moov_end}@0"']
for offset, length in fragments:
    lines += ["#EXTINF:1.000,", f"#EXT-X-BYTERANGE:{length}@{offset}", "../cenc/cenc.mp4"]
lines.append("#EXT-X-ENDLIST")
open(f"{out}/hls-cenc/index.m3u8", "w").write("\n".join(lines) + "\n")
open(f"{out}/hls-cenc/key.bin", "wb").write(bytes.fromhex("00112233445566778899aabbccddeeff"))
open(f"{out}/hls-cenc/wrong-key.bin", "wb").write(bytes(range(16)))
PY

echo "dash-thumbs/"
# DASH-IF thumbnail tiles (IOP "thumbnail_tile") beside dash-vod's media: two JPEG sprite
# sheets of 5x2 tiles of 64x36, one tile every 0.5 s of a 2 fps testsrc with its frame
# number drawn (ffmpeg's tile filter, row-major), so image N covers [5(N-1), 5N) s. The MPD
# is dash-vod's with a BaseURL ../dash-vod/ on its video and audio sets and an image set
# (SegmentTemplate @duration 5 s, $Number$). malformed.mpd has only broken image sets
# (a value that is not COLSxROWS, 0x2 tiles, 100000x100000 tiles, no width/height) beside
# the same media.
rm -rf "$out/dash-thumbs"
mkdir -p "$out/dash-thumbs"
thumb_label=null
if [[ -f "$font" ]]; then
  thumb_label="drawtext=fontfile=$font:text='%{n}':x=2:y=2:fontsize=16:fontcolor=white:box=1:boxcolor=black:boxborderw=2"
fi
"${ff[@]}" -f lavfi -i "testsrc=size=64x36:rate=2:duration=10" \
  -vf "$thumb_label,tile=5x2" -c:v mjpeg -q:v 3 -pix_fmt yuvj420p "${exact[@]}" \
  -start_number 1 "$out/dash-thumbs/tile-%d.jpg"
python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
mpd = open(f"{out}/dash-vod/manifest.mpd").read()
head, rest = mpd.split("<AdaptationSet", 1)
rest = "<AdaptationSet" + rest
# BaseURL before each set's first Representation (where the schema puts it).
rest = rest.replace("\t\t\t<Representation id=\"0\"",
                    "\t\t\t<BaseURL>../dash-vod/</BaseURL>\n\t\t\t<Representation id=\"0\"", 1)
rest = rest.replace("\t\t\t<Representation id=\"2\"",
                    "\t\t\t<BaseURL>../dash-vod/</BaseURL>\n\t\t\t<Representation id=\"2\"", 1)

def image_set(set_id, value, rep_id, size='width="320" height="72"'):
    return (f'\t\t<AdaptationSet id="{set_id}" contentType="image" mimeType="image/jpeg">\n'
            f'\t\t\t<SegmentTemplate media="tile-$Number$.jpg" duration="5" startNumber="1"/>\n'
            f'\t\t\t<Representation id="{rep_id}" bandwidth="12800" {size}>\n'
            f'\t\t\t\t<EssentialProperty schemeIdUri="http://dashif.org/thumbnail_tile" value="{value}"/>\n'
            f'\t\t\t</Representation>\n\t\t</AdaptationSet>\n')

def set_level(set_id, value, rep_id):
    # The descriptor on the AdaptationSet (as DASH-IF's examples also write it).
    return (f'\t\t<AdaptationSet id="{set_id}" contentType="image" mimeType="image/jpeg">\n'
            f'\t\t\t<EssentialProperty schemeIdUri="http://dashif.org/guidelines/thumbnail_tile" value="{value}"/>\n'
            f'\t\t\t<SegmentTemplate media="tile-$Number$.jpg" duration="5" startNumber="1"/>\n'
            f'\t\t\t<Representation id="{rep_id}" bandwidth="12800" width="320" height="72"/>\n'
            f'\t\t</AdaptationSet>\n')

good = head + rest.replace("\t</Period>", set_level(2, "5x2", "thumbs") + "\t</Period>", 1)
open(f"{out}/dash-thumbs/manifest.mpd", "w").write(good)
bad = "".join([image_set(2, "five-by-two", "garbage"), image_set(3, "0x2", "zero"),
               image_set(4, "100000x100000", "huge"), image_set(5, "5x2", "sizeless", size="")])
open(f"{out}/dash-thumbs/malformed.mpd", "w").write(
    head + rest.replace("\t</Period>", bad + "\t</Period>", 1))
PY

echo "dash-text/"
# DASH text sets in fragmented MP4 beside dash-vod's media (written box by box by
# make-dash-text-fixtures.py, deterministic; FFmpeg 5.1 cannot mux wvtt into MP4): an
# English wvtt set (ISO/IEC 14496-30 WebVTT, media time 0 at item 0) and a French stpp set
# (TTML, presentationTimeOffset 100 s; clock times, offsets, ticks and one sample-relative
# document), 2 s segments over the 10 s. The MPD is dash-vod's with a BaseURL ../dash-vod/
# on its video and audio sets.
rm -rf "$out/dash-text"
mkdir -p "$out/dash-text"
python3 "$repo_root/scripts/make-dash-text-fixtures.py" "$out"
