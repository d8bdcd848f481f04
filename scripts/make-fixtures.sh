#!/usr/bin/env bash
# Regenerates every media fixture under Fixtures/ with the ffmpeg command line tools, then
# measures them with ffprobe into Fixtures/manifest.json. Tests read the manifest, so they
# do not depend on the ffmpeg version installed at test time.
#
# Synthetic sources only (testsrc, testsrc2, aevalsrc, sine, geq), single-threaded encoders and
# bit-exact muxing, so a rerun with the same ffmpeg build produces the same bytes. The AES-128
# fixture is encrypted with the openssl command line tool and fixed keys.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo_root/Fixtures"

for tool in ffmpeg ffprobe python3 openssl; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "make-fixtures: '$tool' is required (run scripts/install-deps.sh)" >&2
    exit 1
  fi
done

mkdir -p "$out"
rm -rf "$out/hls" "$out/hls-fmp4" "$out/hls-byterange" "$out/hls-aes" "$out/hls-redundant" \
  "$out/hls-alt"
rm -f "$out"/*.mp4 "$out"/*.ts "$out"/*.mp3 "$out"/*.webm "$out/manifest.json"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Shared flags: quiet, overwrite, no wall-clock or version strings in the output.
ff=(ffmpeg -nostdin -hide_banner -loglevel error -y)
exact=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)
x264=(-c:v libx264 -pix_fmt yuv420p -threads 1)

# testsrc burns in a seconds counter; when DejaVu Sans Mono is installed the frame number is
# drawn too (top left, white on black), so a snapshot shows exactly which frame it holds.
font=/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf
frame_label=null
if [[ -f "$font" ]]; then
  frame_label="drawtext=fontfile=$font:text='%{n}':x=4:y=4:fontsize=24:fontcolor=white:box=1:boxcolor=black:boxborderw=3"
else
  echo "make-fixtures: $font not found; frame numbers are not drawn" >&2
fi

echo "sample-h264-aac.mp4"
# 10 s of testsrc with its frame number drawn, GOP 25 (a keyframe every second), default
# B-frames so decode order differs from presentation order; 440 Hz left, 660 Hz right.
"${ff[@]}" \
  -f lavfi -i "testsrc=size=320x240:rate=25:duration=10,$frame_label" \
  -f lavfi -i "aevalsrc=exprs=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t):sample_rate=48000:duration=10" \
  "${x264[@]}" -preset medium -crf 28 -g 25 -keyint_min 25 -sc_threshold 0 \
  -c:a aac -b:a 96k -ar 48000 -ac 2 \
  "${exact[@]}" "$out/sample-h264-aac.mp4"

echo "sample-h264-aac.ts"
# The same encoded packets, remuxed into MPEG-TS.
"${ff[@]}" -i "$out/sample-h264-aac.mp4" -map 0 -c copy "${exact[@]}" \
  "$out/sample-h264-aac.ts"

echo "sample-audio.mp3"
"${ff[@]}" \
  -f lavfi -i "aevalsrc=exprs=0.5*sin(2*PI*330*t)|0.5*sin(2*PI*550*t):sample_rate=44100:duration=6" \
  -c:a libmp3lame -b:a 128k -ar 44100 -ac 2 "${exact[@]}" "$out/sample-audio.mp3"

echo "sample-vp9-opus.webm"
"${ff[@]}" \
  -f lavfi -i "testsrc=size=320x240:rate=25:duration=5,$frame_label" \
  -f lavfi -i "aevalsrc=exprs=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t):sample_rate=48000:duration=5" \
  -c:v libvpx-vp9 -pix_fmt yuv420p -b:v 250k -deadline good -cpu-used 4 -row-mt 0 -threads 1 \
  -g 25 -c:a libopus -b:a 64k -ar 48000 -ac 2 \
  "${exact[@]}" "$out/sample-vp9-opus.webm"

echo "truncated.mp4"
# The first 40% of the MP4; its moov box is at the end, so nothing can open it.
full_size="$(stat -c %s "$out/sample-h264-aac.mp4")"
head -c "$((full_size * 40 / 100))" "$out/sample-h264-aac.mp4" >"$out/truncated.mp4"

echo "not-a-video.mp4"
cat >"$out/not-a-video.mp4" <<'TEXT'
This is a plain text file with an .mp4 extension.
Playhead must refuse it with a clear error instead of crashing.
TEXT

echo "unknown-codec.mkv"
# 2 s of the H.264 sample's video in Matroska, its CodecID rewritten to "V_MPEGI/ISO/VVC"
# (the same length), which FFmpeg 5.1 maps to no decoder: it opens, but nothing can
# decode it. Tests use it for the backup-URL fallback.
"${ff[@]}" -i "$out/sample-h264-aac.mp4" -t 2 -map 0:v -c copy "${exact[@]}" "$out/unknown-codec.mkv"
python3 - "$out/unknown-codec.mkv" <<'PY'
import sys
path = sys.argv[1]
data = open(path, "rb").read()
index = data.find(b"V_MPEG4/ISO/AVC")
if index < 0:
    sys.exit("unknown-codec.mkv: no H.264 CodecID to rewrite")
open(path, "wb").write(data[:index] + b"V_MPEGI/ISO/VVC" + data[index + 15:])
PY

echo "dual-audio.mkv"
# 6 s of testsrc (160x120, GOP 25, default B-frames) with two mono AAC audio streams: English
# (eng, "English", the default) a 440 Hz sine, French (fra, "French") an 880 Hz sine, so
# a test can tell by the tone which stream it hears.
"${ff[@]}" \
  -f lavfi -i "testsrc=size=160x120:rate=25:duration=6" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=6" \
  -f lavfi -i "sine=frequency=880:sample_rate=48000:duration=6" \
  -map 0:v -map 1:a -map 2:a \
  "${x264[@]}" -preset medium -crf 30 -g 25 -keyint_min 25 -sc_threshold 0 \
  -c:a aac -b:a 32k -ar 48000 -ac 1 "${exact[@]}" \
  -metadata:s:a:0 language=eng -metadata:s:a:0 title=English \
  -metadata:s:a:1 language=fra -metadata:s:a:1 title=French \
  -disposition:a:0 default -disposition:a:1 0 \
  "$out/dual-audio.mkv"

echo "dual-subtitles.mkv"
# The video and English audio of dual-audio.mkv (copied) with three text subtitle streams:
# English (eng, "English", the default), SubRip, "Second N" from N.0 s to N.9 s; French (fra,
# "French"), ASS, "Seconde N" in italics from N.5 s to N+1 s; N = 0…5; and English forced
# (eng, "English (forced)"), SubRip, one cue "Sign" from 1.2 s to 2.4 s.
{
  for n in 0 1 2 3 4 5; do
    printf '%d\n00:00:%02d,000 --> 00:00:%02d,900\nSecond %d\n\n' $((n + 1)) "$n" "$n" "$n"
  done
} >"$work/english.srt"
printf '1\n00:00:01,200 --> 00:00:02,400\nSign\n\n' >"$work/forced.srt"
{
  printf '[Script Info]\nScriptType: v4.00+\nPlayResX: 160\nPlayResY: 120\n\n'
  printf '[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment\n'
  printf 'Style: Default,DejaVu Sans,12,&H00FFFFFF,0,0,2\n\n'
  printf '[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n'
  for n in 0 1 2 3 4 5; do
    printf 'Dialogue: 0,0:00:%02d.50,0:00:%02d.00,Default,,0,0,0,,{\\i1}Seconde %d{\\i0}\n' \
      "$n" $((n + 1)) "$n"
  done
} >"$work/french.ass"
"${ff[@]}" -i "$out/dual-audio.mkv" -i "$work/english.srt" -i "$work/french.ass" \
  -i "$work/forced.srt" \
  -map 0:v -map 0:a:0 -map 1:s -map 2:s -map 3:s -c:v copy -c:a copy \
  -c:s:0 subrip -c:s:1 ass -c:s:2 subrip "${exact[@]}" \
  -metadata:s:a:0 language=eng -metadata:s:a:0 title=English \
  -metadata:s:s:0 language=eng -metadata:s:s:0 title=English \
  -metadata:s:s:1 language=fra -metadata:s:s:1 title=French \
  -metadata:s:s:2 language=eng -metadata:s:s:2 "title=English (forced)" \
  -disposition:s:0 default -disposition:s:1 0 -disposition:s:2 forced \
  "$out/dual-subtitles.mkv"

echo "alpha-left.mp4"
# 128x64: the left half is the alpha mask, the right half is the colour (solid red):
# the layout seed 003's ALPHA_AT_LEFT mode reads
# (a white disc of radius 24 centred in the half, on black).
"${ff[@]}" \
  -f lavfi -i "color=c=red:size=64x64:rate=25:duration=2" \
  -f lavfi -i "color=c=black:size=64x64:rate=25:duration=2" \
  -filter_complex "[0:v]format=yuv420p[c];[1:v]format=gray,geq=lum='if(lte(hypot(X-31.5\,Y-31.5)\,24)\,255\,0)',format=yuv420p[m];[m][c]hstack=inputs=2[v]" \
  -map "[v]" "${x264[@]}" -preset medium -crf 12 -g 25 "${exact[@]}" "$out/alpha-left.mp4"

echo "hls/"
# One 12 s source, three renditions, 2 s segments with a forced keyframe every 2 s.
mkdir -p "$out/hls"
"${ff[@]}" \
  -f lavfi -i "testsrc2=size=1280x720:rate=25:duration=12" \
  -f lavfi -i "aevalsrc=exprs=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t):sample_rate=48000:duration=12" \
  -filter_complex "[0:v]split=3[a][b][c];[a]scale=256:144[v0];[b]scale=640:360[v1];[c]copy[v2]" \
  -map "[v0]" -map "[v1]" -map "[v2]" -map 1:a -map 1:a -map 1:a \
  "${x264[@]}" -preset veryfast -profile:v main -bf 2 -g 50 -keyint_min 50 -sc_threshold 0 \
  -force_key_frames "expr:gte(t,n_forced*2)" \
  -b:v:0 85k -maxrate:v:0 100k -bufsize:v:0 170k \
  -b:v:1 420k -maxrate:v:1 480k -bufsize:v:1 840k \
  -b:v:2 900k -maxrate:v:2 1000k -bufsize:v:2 1800k \
  -c:a aac -b:a 32k -ar 48000 -ac 2 \
  "${exact[@]}" \
  -f hls -hls_time 2 -hls_playlist_type vod -hls_flags independent_segments \
  -hls_segment_filename "$out/hls/%v/segment%03d.ts" \
  -var_stream_map "v:0,a:0,name:144p v:1,a:1,name:360p v:2,a:2,name:720p" \
  "$out/hls/%v/index.m3u8"

# The streaming fixtures below share one shape: 10 s of testsrc2 with the frame number drawn
# (250 frames at 25 fps), five 2 s segments with a forced keyframe every 2 s and no other
# keyframe (GOP 50), small bitrates. Their master playlists are written by the Python step.
src2="testsrc2=size=640x360:rate=25:duration=10"
tone="aevalsrc=exprs=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t):sample_rate=48000:duration=10"
gop2=(-preset veryfast -profile:v main -bf 2 -g 50 -keyint_min 50 -sc_threshold 0
  -force_key_frames "expr:gte(t,n_forced*2)")
aac32=(-c:a aac -b:a 32k -ar 48000)
hls_vod=(-f hls -hls_time 2 -hls_playlist_type vod)

echo "hls-fmp4/"
# Two renditions as fragmented MP4: one init.mp4 (EXT-X-MAP) and five .m4s per rendition.
mkdir -p "$out/hls-fmp4"
"${ff[@]}" \
  -f lavfi -i "$src2" -f lavfi -i "$tone" \
  -filter_complex "[0:v]split=2[a][b];[a]scale=256:144,$frame_label[v0];[b]$frame_label[v1]" \
  -map "[v0]" -map "[v1]" -map 1:a -map 1:a \
  "${x264[@]}" "${gop2[@]}" \
  -b:v:0 80k -maxrate:v:0 100k -bufsize:v:0 160k \
  -b:v:1 300k -maxrate:v:1 360k -bufsize:v:1 600k \
  "${aac32[@]}" -ac 2 "${exact[@]}" \
  "${hls_vod[@]}" -hls_flags independent_segments -hls_segment_type fmp4 \
  -hls_segment_filename "$out/hls-fmp4/%v/segment%03d.m4s" \
  -var_stream_map "v:0,a:0,name:144p v:1,a:1,name:360p" \
  "$out/hls-fmp4/%v/index.m3u8"
# ffmpeg numbers the init files per variant (init_0.mp4); every rendition gets init.mp4.
fmp4_renditions=(144p 360p)
for index in "${!fmp4_renditions[@]}"; do
  dir="$out/hls-fmp4/${fmp4_renditions[$index]}"
  mv "$dir/init_$index.mp4" "$dir/init.mp4"
  sed -i "s/init_$index\.mp4/init.mp4/" "$dir/index.m3u8"
done

echo "hls-byterange/"
# One rendition in one TS file; the media playlist addresses segments with EXT-X-BYTERANGE.
mkdir -p "$out/hls-byterange"
"${ff[@]}" \
  -f lavfi -i "$src2" -f lavfi -i "$tone" \
  -filter_complex "[0:v]scale=320:180,$frame_label[v]" -map "[v]" -map 1:a \
  "${x264[@]}" "${gop2[@]}" -b:v 100k -maxrate 120k -bufsize 200k \
  "${aac32[@]}" -ac 2 "${exact[@]}" \
  "${hls_vod[@]}" -hls_flags independent_segments+single_file \
  -hls_segment_filename "$out/hls-byterange/media.ts" \
  "$out/hls-byterange/index.m3u8"

echo "hls-aes/"
# Five TS segments with media sequence numbers 10..14, each encrypted whole with AES-128-CBC
# (PKCS7 padding). Segments 10-12: key.bin with the explicit IV below. Segments 13-14: key2.bin
# with no IV attribute, so the IV is the media sequence number (0x...0d, 0x...0e).
# index-wrongkey.m3u8 is the same playlist with both keys replaced by wrong-key.bin.
aes_key=2b7e151628aed2a6abf7158809cf4f3c
aes_iv=000102030405060708090a0b0c0d0e0f
aes_key2=fedcba98765432100123456789abcdef
aes_wrong_key=0f0e0d0c0b0a09080706050403020100
aes_first_sequence=10
aes_rekey_sequence=13
mkdir -p "$out/hls-aes" "$work/aes"
"${ff[@]}" \
  -f lavfi -i "$src2" -f lavfi -i "$tone" \
  -filter_complex "[0:v]scale=320:180,$frame_label[v]" -map "[v]" -map 1:a \
  "${x264[@]}" "${gop2[@]}" -b:v 100k -maxrate 120k -bufsize 200k \
  "${aac32[@]}" -ac 2 "${exact[@]}" \
  "${hls_vod[@]}" -hls_flags independent_segments -start_number "$aes_first_sequence" \
  -hls_segment_filename "$work/aes/segment%03d.ts" "$work/aes/index.m3u8"
hex_to_file() {
  python3 -c 'import sys; open(sys.argv[2], "wb").write(bytes.fromhex(sys.argv[1]))' "$1" "$2"
}
hex_to_file "$aes_key" "$out/hls-aes/key.bin"
hex_to_file "$aes_key2" "$out/hls-aes/key2.bin"
hex_to_file "$aes_wrong_key" "$out/hls-aes/wrong-key.bin"
# Key tags go before the EXTINF of the first segment they apply to.
sequence=""
while IFS= read -r line; do
  case "$line" in
    "#EXT-X-MEDIA-SEQUENCE:"*)
      sequence="${line#*:}"
      ;;
    "#EXTINF:"*)
      if ((sequence == aes_first_sequence)); then
        echo "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\",IV=0x$aes_iv" >>"$out/hls-aes/index.m3u8"
      elif ((sequence == aes_rekey_sequence)); then
        echo '#EXT-X-KEY:METHOD=AES-128,URI="key2.bin"' >>"$out/hls-aes/index.m3u8"
      fi
      ;;
    "#"* | "") ;;
    *)
      if ((sequence < aes_rekey_sequence)); then
        key="$aes_key" iv="$aes_iv"
      else
        key="$aes_key2" iv="$(printf '%032x' "$sequence")"
      fi
      openssl enc -aes-128-cbc -K "$key" -iv "$iv" -in "$work/aes/$line" -out "$out/hls-aes/$line"
      sequence=$((sequence + 1))
      ;;
  esac
  echo "$line" >>"$out/hls-aes/index.m3u8"
done <"$work/aes/index.m3u8"
sed 's/URI="key2\?\.bin"/URI="wrong-key.bin"/' "$out/hls-aes/index.m3u8" \
  >"$out/hls-aes/index-wrongkey.m3u8"
if openssl enc -d -aes-128-cbc -K "$aes_wrong_key" -iv "$aes_iv" \
  -in "$out/hls-aes/segment010.ts" -out /dev/null 2>/dev/null; then
  echo "make-fixtures: wrong-key.bin unexpectedly yields valid PKCS7 padding" >&2
  exit 1
fi

echo "hls-redundant/"
# Two variants with identical attributes: primary/ and backup/ hold the same bytes, so a test
# can fail any path under primary/ and expect playback to continue from backup/.
mkdir -p "$out/hls-redundant/primary"
"${ff[@]}" \
  -f lavfi -i "$src2" -f lavfi -i "$tone" \
  -filter_complex "[0:v]scale=256:144,$frame_label[v]" -map "[v]" -map 1:a \
  "${x264[@]}" "${gop2[@]}" -b:v 80k -maxrate 100k -bufsize 160k \
  "${aac32[@]}" -ac 2 "${exact[@]}" \
  "${hls_vod[@]}" -hls_flags independent_segments \
  -hls_segment_filename "$out/hls-redundant/primary/segment%03d.ts" \
  "$out/hls-redundant/primary/index.m3u8"
cp -r "$out/hls-redundant/primary" "$out/hls-redundant/backup"

echo "hls-alt/"
# A video-only variant, an AUDIO group with English (440 Hz) and French (880 Hz) mono AAC in
# audio-only TS, a WebVTT SUBTITLES rendition and an I-frame playlist (the last two are written
# by the Python step). The audio is 9.98 s so AAC's trailing frames do not make a sixth segment.
mkdir -p "$out/hls-alt"
"${ff[@]}" \
  -f lavfi -i "$src2" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=9.98" \
  -f lavfi -i "sine=frequency=880:sample_rate=48000:duration=9.98" \
  -filter_complex "[0:v]scale=320:180,$frame_label[v]" -map "[v]" -map 1:a -map 2:a \
  "${x264[@]}" "${gop2[@]}" -b:v 100k -maxrate 120k -bufsize 200k \
  "${aac32[@]}" -ac 1 "${exact[@]}" \
  "${hls_vod[@]}" -hls_flags independent_segments \
  -hls_segment_filename "$out/hls-alt/%v/segment%03d.ts" \
  -var_stream_map "v:0,name:video a:0,name:audio-en a:1,name:audio-fr" \
  "$out/hls-alt/%v/index.m3u8"

echo "master playlists, hls-alt subtitles and I-frames, manifest.json"
python3 - "$out" <<'PY'
import json
import math
import os
import re
import subprocess
import sys
import tempfile

out = sys.argv[1]
hls_renditions = ["144p", "360p", "720p"]


def ffprobe(args, path):
    cmd = ["ffprobe", "-v", "error", "-of", "json"] + args + [path]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def number(text):
    """ffprobe prints numbers as strings; absent or N/A values become None."""
    if text is None or text == "N/A":
        return None
    value = float(text)
    return int(value) if value.is_integer() and "." not in str(text) else value


def seconds(text):
    return None if text is None or text == "N/A" else float(text)


# --- hls/master.m3u8 ---------------------------------------------------------------------

def playlist_segments(name):
    segments, duration = [], None
    with open(os.path.join(out, "hls", name, "index.m3u8")) as f:
        for line in f:
            line = line.strip()
            if line.startswith("#EXTINF:"):
                duration = float(line[len("#EXTINF:"):].split(",")[0])
            elif line and not line.startswith("#"):
                segments.append((os.path.join(out, "hls", name, line), duration))
    return segments


def avc_codec_string(ts_path):
    """avc1.PPCCLL from the first sequence parameter set NAL unit in the segment."""
    data = open(ts_path, "rb").read()
    start = 0
    while True:
        at = data.find(b"\x00\x00\x01", start)
        if at < 0:
            raise SystemExit("no H.264 SPS in " + ts_path)
        if data[at + 3] & 0x1F == 7:
            return "avc1." + data[at + 4:at + 7].hex()
        start = at + 3


def write_master():
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
    for name in hls_renditions:
        segments = playlist_segments(name)
        sizes = [os.path.getsize(path) for path, _ in segments]
        durations = [d for _, d in segments]
        peak = max(round(size * 8 / d) for size, d in zip(sizes, durations))
        average = round(sum(sizes) * 8 / sum(durations))
        video = ffprobe(["-select_streams", "v:0", "-show_streams"], segments[0][0])["streams"][0]
        codecs = avc_codec_string(segments[0][0]) + ",mp4a.40.2"
        num, den = (int(x) for x in video["r_frame_rate"].split("/"))
        lines.append(
            "#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,RESOLUTION=%dx%d,"
            'CODECS="%s",FRAME-RATE=%.3f'
            % (peak, average, video["width"], video["height"], codecs, num / den))
        lines.append(name + "/index.m3u8")
    with open(os.path.join(out, "hls", "master.m3u8"), "w") as f:
        f.write("\n".join(lines) + "\n")


# --- the streaming fixtures: hls-fmp4, hls-byterange, hls-aes, hls-redundant, hls-alt ------

def attribute_list(text):
    """The attributes of a tag this script or ffmpeg wrote: NAME=value or NAME="value"."""
    return {name: value.strip('"')
            for name, value in re.findall(r'([A-Z0-9-]+)=("[^"]*"|[^,]*)', text)}


def media_playlist(name):
    """The version and the segments of a media playlist (a path relative to Fixtures/).

    A byte range without an offset starts where the previous one ended; a segment under a key
    tag without IV uses its media sequence number as the IV."""
    folder = os.path.dirname(os.path.join(out, name))
    version, sequence, segments = 1, 0, []
    duration, byte_range, next_offset, key, map_uri = None, None, 0, None, None
    with open(os.path.join(out, name)) as f:
        for line in f:
            line = line.strip()
            tag, _, value = line.partition(":")
            if tag == "#EXT-X-VERSION":
                version = int(value)
            elif tag == "#EXT-X-MEDIA-SEQUENCE":
                sequence = int(value)
            elif tag == "#EXTINF":
                duration = float(value.split(",")[0])
            elif tag == "#EXT-X-BYTERANGE":
                length, _, offset = value.partition("@")
                byte_range = (int(length), int(offset) if offset else next_offset)
                next_offset = byte_range[0] + byte_range[1]
            elif tag == "#EXT-X-KEY":
                key = attribute_list(value)
            elif tag == "#EXT-X-MAP":
                map_uri = attribute_list(value)["URI"]
            elif line and not line.startswith("#"):
                path = os.path.join(folder, line)
                segment = {
                    "uri": line,
                    "path": path,
                    "sequenceNumber": sequence,
                    "durationSeconds": duration,
                    "sizeBytes": byte_range[0] if byte_range else os.path.getsize(path),
                }
                if byte_range:
                    segment["byteRangeLength"], segment["byteRangeOffset"] = byte_range
                if map_uri:
                    segment["mapURI"] = map_uri
                if key and key["METHOD"] == "AES-128":
                    with open(os.path.join(folder, key["URI"]), "rb") as key_file:
                        segment["keyHex"] = key_file.read().hex()
                    segment["keyURI"] = key["URI"]
                    segment["ivHex"] = key["IV"][2:].lower() if "IV" in key else "%032x" % sequence
                segments.append(segment)
                sequence, duration, byte_range = sequence + 1, None, None
    return {"version": version, "segments": segments}


def bit_rates(segments):
    """(peak, average) bits per second over the segments' bytes and durations."""
    peak = max(round(s["sizeBytes"] * 8 / s["durationSeconds"]) for s in segments)
    average = round(sum(s["sizeBytes"] for s in segments) * 8
                    / sum(s["durationSeconds"] for s in segments))
    return peak, average


def codec_string(segments):
    """avc1.PPCCLL from the init section's avcC box (fMP4) or the first segment's SPS (TS)."""
    first = segments[0]
    if not first.get("mapURI", "").endswith(".mp4"):
        return avc_codec_string(first["path"])
    data = open(os.path.join(os.path.dirname(first["path"]), first["mapURI"]), "rb").read()
    at = data.find(b"avcC")
    if at < 0:
        raise SystemExit("no avcC box in the init section of " + first["path"])
    return "avc1." + data[at + 5:at + 8].hex()


def stream_inf(name, audio_names=()):
    """EXT-X-STREAM-INF attributes of the media playlist `name`; the peak and average of the
    largest alternate audio rendition in `audio_names` add to its own."""
    segments = media_playlist(name)["segments"]
    peak, average = bit_rates(segments)
    audio_rates = [bit_rates(media_playlist(a)["segments"]) for a in audio_names]
    peak += max((p for p, _ in audio_rates), default=0)
    average += max((a for _, a in audio_rates), default=0)
    streams = ffprobe(["-show_streams"], os.path.join(out, name))["streams"]
    video = next(s for s in streams if s["codec_type"] == "video")
    codecs = [codec_string(segments)]
    if audio_names or any(s["codec_type"] == "audio" for s in streams):
        codecs.append("mp4a.40.2")
    num, den = (int(x) for x in video["r_frame_rate"].split("/"))
    return ('BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,RESOLUTION=%dx%d,CODECS="%s",FRAME-RATE=%.3f'
            % (peak, average, video["width"], video["height"], ",".join(codecs), num / den))


def write_playlist(name, lines):
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def master_head(media_names):
    version = max(media_playlist(n)["version"] for n in media_names)
    return ["#EXTM3U", "#EXT-X-VERSION:%d" % version, "#EXT-X-INDEPENDENT-SEGMENTS"]


def write_stream_masters():
    fmp4 = ["hls-fmp4/144p/index.m3u8", "hls-fmp4/360p/index.m3u8"]
    lines = master_head(fmp4)
    for name in fmp4:
        lines += ["#EXT-X-STREAM-INF:" + stream_inf(name), os.path.relpath(name, "hls-fmp4")]
    write_playlist("hls-fmp4/master.m3u8", lines)

    name = "hls-byterange/index.m3u8"
    write_playlist("hls-byterange/master.m3u8",
                   master_head([name]) + ["#EXT-X-STREAM-INF:" + stream_inf(name), "index.m3u8"])

    # Both variants carry the primary's attributes, so they are redundant copies of one stream.
    redundant = ["hls-redundant/primary/index.m3u8", "hls-redundant/backup/index.m3u8"]
    attributes = stream_inf(redundant[0])
    lines = master_head(redundant)
    for name in redundant:
        lines += ["#EXT-X-STREAM-INF:" + attributes, os.path.relpath(name, "hls-redundant")]
    write_playlist("hls-redundant/master.m3u8", lines)

    audio = ["hls-alt/audio-en/index.m3u8", "hls-alt/audio-fr/index.m3u8"]
    video = "hls-alt/video/index.m3u8"
    iframes = "hls-alt/video/iframes.m3u8"
    iframe_segments = media_playlist(iframes)["segments"]
    peak, average = bit_rates(iframe_segments)
    streams = ffprobe(["-show_streams"], os.path.join(out, video))["streams"]
    lines = master_head(audio + [video, iframes, "hls-alt/subs-en/index.m3u8"]) + [
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,'
        'AUTOSELECT=YES,CHANNELS="1",URI="audio-en/index.m3u8"',
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",DEFAULT=NO,'
        'AUTOSELECT=YES,CHANNELS="1",URI="audio-fr/index.m3u8"',
        '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,'
        'AUTOSELECT=YES,FORCED=NO,URI="subs-en/index.m3u8"',
        '#EXT-X-STREAM-INF:' + stream_inf(video, audio) + ',AUDIO="aud",SUBTITLES="subs"',
        "video/index.m3u8",
        '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,RESOLUTION=%dx%d,'
        'CODECS="%s",URI="video/iframes.m3u8"'
        % (peak, average, streams[0]["width"], streams[0]["height"],
           codec_string(iframe_segments)),
    ]
    write_playlist("hls-alt/master.m3u8", lines)


def vtt_time(seconds):
    return "%02d:%02d:%06.3f" % (seconds // 3600, seconds % 3600 // 60, seconds % 60)


def write_subtitles():
    """hls-alt/subs-en: one WebVTT segment per video segment, one cue per second ("Second N"),
    with X-TIMESTAMP-MAP tying local time 0 to the first video frame's MPEG-TS PTS."""
    os.makedirs(os.path.join(out, "hls-alt", "subs-en"), exist_ok=True)
    video = media_playlist("hls-alt/video/index.m3u8")["segments"]
    first = ffprobe(["-select_streams", "v:0", "-show_streams"], video[0]["path"])["streams"][0]
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2",
             "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD"]
    start = 0.0
    for index, segment in enumerate(video):
        end = start + segment["durationSeconds"]
        cues = ["WEBVTT", "X-TIMESTAMP-MAP=MPEGTS:%d,LOCAL:00:00:00.000" % int(first["start_pts"])]
        second = math.ceil(start - 1e-9)
        while second < end - 1e-9:
            cues += ["", "%s --> %s" % (vtt_time(second), vtt_time(min(second + 1, end))),
                     "Second %d" % second]
            second += 1
        uri = "segment%03d.vtt" % index
        write_playlist("hls-alt/subs-en/" + uri, cues)
        lines += ["#EXTINF:%.6f," % segment["durationSeconds"], uri]
        start = end
    write_playlist("hls-alt/subs-en/index.m3u8", lines + ["#EXT-X-ENDLIST"])


def write_iframes():
    """hls-alt/video/iframes.m3u8: each keyframe's TS packets as a byte range, with the PSI
    tables before the first video packet of segment000.ts as EXT-X-MAP. Each range plus the
    map must decode to exactly one keyframe."""
    video = media_playlist("hls-alt/video/index.m3u8")["segments"]
    end_time, keyframes, map_length = None, [], None
    for segment in video:
        packets = ffprobe(["-select_streams", "v:0", "-show_entries", "packet=pts_time,pos,flags"],
                          segment["path"])["packets"]
        if map_length is None:
            map_length = int(packets[0]["pos"])
            end_time = float(packets[0]["pts_time"]) + sum(s["durationSeconds"] for s in video)
        for i, packet in enumerate(packets):
            if "K" in packet["flags"]:
                stop = int(packets[i + 1]["pos"]) if i + 1 < len(packets) else segment["sizeBytes"]
                keyframes.append((float(packet["pts_time"]), segment, int(packet["pos"]),
                                  stop - int(packet["pos"])))
    lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0",
             "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-I-FRAMES-ONLY",
             '#EXT-X-MAP:URI="%s",BYTERANGE="%d@0"' % (video[0]["uri"], map_length)]
    map_bytes = open(video[0]["path"], "rb").read(map_length)
    for i, (time, segment, offset, length) in enumerate(keyframes):
        following = keyframes[i + 1][0] if i + 1 < len(keyframes) else end_time
        lines += ["#EXTINF:%.6f," % (following - time),
                  "#EXT-X-BYTERANGE:%d@%d" % (length, offset), segment["uri"]]
        with open(segment["path"], "rb") as f:
            f.seek(offset)
            frame = map_bytes + f.read(length)
        with tempfile.NamedTemporaryFile(suffix=".ts") as probe:
            probe.write(frame)
            probe.flush()
            counted = ffprobe(["-select_streams", "v:0", "-show_entries", "frame=key_frame"],
                              probe.name)["frames"]
        if [f.get("key_frame") for f in counted] != [1]:
            raise SystemExit("I-frame range %d@%d of %s decodes to %s"
                             % (length, offset, segment["path"], counted))
    write_playlist("hls-alt/video/iframes.m3u8", lines + ["#EXT-X-ENDLIST"])


# --- manifest.json -----------------------------------------------------------------------

def describe(name, with_frame_list, options=()):
    path = os.path.join(out, name)
    options = list(options)
    info = ffprobe(
        options + ["-count_frames", "-count_packets", "-show_format", "-show_streams"], path)
    frames = ffprobe(
        options
        + ["-show_entries", "frame=stream_index,media_type,pts,pts_time,key_frame,nb_samples"],
        path)["frames"]
    fmt = info["format"]
    entry = {
        "name": name,
        "opens": True,
        "sizeBytes": os.path.getsize(path),
        "container": fmt["format_name"],
        "durationSeconds": seconds(fmt.get("duration")),
        "startTimeSeconds": seconds(fmt.get("start_time")),
        "streams": [],
    }
    for s in info["streams"]:
        mine = [f for f in frames if f.get("stream_index") == s["index"]]
        stream = {
            "index": s["index"],
            "codecType": s["codec_type"],
            "codecName": s.get("codec_name"),
            "profile": s.get("profile"),
            "timeBase": s.get("time_base"),
            "startTimeSeconds": seconds(s.get("start_time")),
            "durationSeconds": seconds(s.get("duration")),
            "nbReadFrames": number(s.get("nb_read_frames")),
            "nbReadPackets": number(s.get("nb_read_packets")),
        }
        if s["codec_type"] == "video":
            stream.update({
                "width": s.get("width"),
                "height": s.get("height"),
                "pixelFormat": s.get("pix_fmt"),
                "rFrameRate": s.get("r_frame_rate"),
                "hasBFrames": s.get("has_b_frames"),
            })
            if with_frame_list:
                stream["framePTS"] = [int(f["pts"]) for f in mine]
                stream["framePTSSeconds"] = [float(f["pts_time"]) for f in mine]
                stream["keyFramePTSSeconds"] = [
                    float(f["pts_time"]) for f in mine if f.get("key_frame") == 1]
        elif s["codec_type"] == "audio":
            stream.update({
                "sampleRate": number(s.get("sample_rate")),
                "channels": s.get("channels"),
                "decodedSampleCount": sum(int(f.get("nb_samples", 0)) for f in mine),
            })
        entry["streams"].append({k: v for k, v in stream.items() if v is not None})
    return {k: v for k, v in entry.items() if v is not None}


def unopenable(name, why):
    return {
        "name": name,
        "opens": False,
        "sizeBytes": os.path.getsize(os.path.join(out, name)),
        "description": why,
        "streams": [],
    }


write_master()
write_subtitles()
write_iframes()
write_stream_masters()
files = [
    describe("sample-h264-aac.mp4", True),
    describe("sample-h264-aac.ts", True),
    describe("sample-audio.mp3", False),
    describe("sample-vp9-opus.webm", False),
    describe("alpha-left.mp4", False),
    describe("dual-audio.mkv", False),
    describe("dual-subtitles.mkv", False),
    describe("hls/master.m3u8", False),
] + [describe("hls/%s/index.m3u8" % name, False) for name in hls_renditions] + [
    unopenable("truncated.mp4", "first 40% of sample-h264-aac.mp4; moov is at the end"),
    unopenable("not-a-video.mp4", "plain text with an .mp4 extension"),
    unopenable("unknown-codec.mkv", "H.264 video whose Matroska CodecID names a codec with no decoder"),
]
descriptions = {
    "sample-h264-aac.mp4": "testsrc with frame counter, GOP 25 with B-frames, moov at end; "
                           "440 Hz left, 660 Hz right",
    "sample-h264-aac.ts": "the packets of sample-h264-aac.mp4 remuxed into MPEG-TS",
    "sample-audio.mp3": "330 Hz left, 550 Hz right",
    "sample-vp9-opus.webm": "testsrc with frame counter; 440 Hz left, 660 Hz right",
    "alpha-left.mp4": "left 64x64 alpha mask: white disc of radius 24 centred at (31.5, 31.5), black "
                      "elsewhere; right 64x64 solid red colour",
    "dual-audio.mkv": "160x120 testsrc; audio streams eng 'English' 440 Hz (default) and fra "
                      "'French' 880 Hz, mono AAC",
    "dual-subtitles.mkv": "dual-audio.mkv's video and English audio; subtitle streams eng "
                          "'English' SubRip 'Second N' N.0-N.9 s (default), fra 'French' ASS "
                          "italic 'Seconde N' N.5-N+1 s, N = 0-5, and eng 'English (forced)' "
                          "SubRip 'Sign' 1.2-2.4 s (forced)",
    "hls/master.m3u8": "VOD ladder 144p/360p/720p of one 12 s testsrc2 source, 2 s segments",
}
for entry in files:
    if entry["name"] in descriptions:
        entry["description"] = descriptions[entry["name"]]
    if entry["name"].startswith("hls/") and entry["name"] != "hls/master.m3u8":
        entry["description"] = "one rendition of hls/master.m3u8"


def with_segments(entry):
    """Adds a media playlist's segments, as the fixture script wrote them, to its entry."""
    segments = media_playlist(entry["name"])["segments"]
    entry["segmentDurationsSeconds"] = [s["durationSeconds"] for s in segments]
    entry["segments"] = [{k: v for k, v in s.items() if k != "path"} for s in segments]
    return entry


# ffmpeg's HLS reader refuses key files without a media extension unless told otherwise.
keys_allowed = ["-allowed_extensions", "ALL"]
aes = media_playlist("hls-aes/index.m3u8")["segments"]
wrong_key = open(os.path.join(out, "hls-aes", "wrong-key.bin"), "rb").read().hex()
stream_files = [
    (describe("hls-fmp4/master.m3u8", False),
     "VOD ladder 256x144/640x360 in fragmented MP4 (EXT-X-MAP init.mp4, .m4s segments) of one "
     "10 s testsrc2 source with frame counter, 2 s segments; 440 Hz left, 660 Hz right"),
    (with_segments(describe("hls-fmp4/144p/index.m3u8", False)),
     "one rendition of hls-fmp4/master.m3u8"),
    (with_segments(describe("hls-fmp4/360p/index.m3u8", False)),
     "one rendition of hls-fmp4/master.m3u8"),
    (describe("hls-byterange/master.m3u8", False),
     "one variant: hls-byterange/index.m3u8"),
    (with_segments(describe("hls-byterange/index.m3u8", False)),
     "320x180 testsrc2 with frame counter, five EXT-X-BYTERANGE segments of one file, media.ts"),
    (with_segments(describe("hls-aes/index.m3u8", False, keys_allowed)),
     "320x180 TS, media sequence 10-14, AES-128-CBC whole segments: 10-12 key.bin (%s) with "
     "IV 0x%s, 13-14 key2.bin (%s) with the media sequence number as IV"
     % (aes[0]["keyHex"], aes[0]["ivHex"], aes[-1]["keyHex"])),
    (with_segments(unopenable("hls-aes/index-wrongkey.m3u8", "")),
     "hls-aes/index.m3u8 with both key URIs replaced by wrong-key.bin (%s): decryption yields "
     "bad PKCS7 padding" % wrong_key),
    (describe("hls-redundant/master.m3u8", False),
     "two variants with identical attributes, primary/index.m3u8 then backup/index.m3u8; "
     "backup/ is a byte copy of primary/"),
    (with_segments(describe("hls-redundant/primary/index.m3u8", False)),
     "256x144 testsrc2 with frame counter; 440 Hz left, 660 Hz right"),
    (with_segments(describe("hls-redundant/backup/index.m3u8", False)),
     "byte copy of hls-redundant/primary"),
    (describe("hls-alt/master.m3u8", False),
     "video-only variant with AUDIO group aud (en 440 Hz, fr 880 Hz, mono), SUBTITLES group "
     "subs (en WebVTT) and an I-frame playlist"),
    (with_segments(describe("hls-alt/video/index.m3u8", False)),
     "320x180 testsrc2 with frame counter, no audio"),
    (with_segments(describe("hls-alt/audio-en/index.m3u8", False)),
     "English alternate audio: 440 Hz mono AAC in TS, 9.98 s"),
    (with_segments(describe("hls-alt/audio-fr/index.m3u8", False)),
     "French alternate audio: 880 Hz mono AAC in TS, 9.98 s"),
    (with_segments(describe("hls-alt/subs-en/index.m3u8", False)),
     "English WebVTT, one cue per second reading 'Second N'; X-TIMESTAMP-MAP ties local 0 to "
     "the first video frame"),
    (with_segments(describe("hls-alt/video/iframes.m3u8", False)),
     "I-frame playlist of hls-alt/video: one keyframe byte range per segment, PSI as EXT-X-MAP"),
]
# Every video rendition holds the 250 frames of its 10 s source; the I-frame playlist 5.
for entry, description in stream_files:
    expected = 5 if entry["name"] == "hls-alt/video/iframes.m3u8" else 250
    for stream in entry["streams"]:
        if stream["codecType"] == "video" and stream["nbReadFrames"] != expected:
            raise SystemExit("%s: stream %d decodes to %d frames, expected %d"
                             % (entry["name"], stream["index"], stream["nbReadFrames"], expected))
    entry["description"] = description
    files.append(entry)

version = subprocess.run(["ffmpeg", "-version"], check=True, capture_output=True,
                         text=True).stdout.splitlines()[0]
manifest = {"generatedBy": "scripts/make-fixtures.sh with " + version, "files": files}
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=2, sort_keys=True)
    f.write("\n")
PY

# The Common Encryption fixtures (Fixtures/cenc/) and their manifest entries.
"$repo_root/scripts/make-cenc-fixtures.sh"

# The HLS SAMPLE-AES fixture (Fixtures/hls-sample-aes/) and its manifest entry.
python3 "$repo_root/scripts/make-sample-aes-fixture.py"

# The DASH model's fixtures (live MPDs of FFmpeg's dash muxer and GStreamer's dashsink, a
# file with a sidx); they add their dash/ entries to manifest.json, so they run after it.
"$repo_root/scripts/make-dash-fixtures.sh"

echo "done: $(du -sh "$out" | cut -f1) in $out"
