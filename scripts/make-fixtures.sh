#!/usr/bin/env bash
# Regenerates every media fixture under Fixtures/ with the ffmpeg command line tools, then
# measures them with ffprobe into Fixtures/manifest.json. Tests read the manifest, so they
# do not depend on the ffmpeg version installed at test time.
#
# Synthetic sources only (testsrc, testsrc2, aevalsrc, geq), single-threaded encoders and
# bit-exact muxing, so a rerun with the same ffmpeg build produces the same bytes.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo_root/Fixtures"

for tool in ffmpeg ffprobe python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "make-fixtures: '$tool' is required (run scripts/install-deps.sh)" >&2
    exit 1
  fi
done

mkdir -p "$out"
rm -rf "$out/hls"
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

echo "hls/master.m3u8 and manifest.json"
python3 - "$out" <<'PY'
import json
import os
import subprocess
import sys

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


# --- manifest.json -----------------------------------------------------------------------

def describe(name, with_frame_list):
    path = os.path.join(out, name)
    info = ffprobe(["-count_frames", "-count_packets", "-show_format", "-show_streams"], path)
    frames = ffprobe(
        ["-show_entries", "frame=stream_index,media_type,pts,pts_time,key_frame,nb_samples"],
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
files = [
    describe("sample-h264-aac.mp4", True),
    describe("sample-h264-aac.ts", True),
    describe("sample-audio.mp3", False),
    describe("sample-vp9-opus.webm", False),
    describe("alpha-left.mp4", False),
    describe("hls/master.m3u8", False),
] + [describe("hls/%s/index.m3u8" % name, False) for name in hls_renditions] + [
    unopenable("truncated.mp4", "first 40% of sample-h264-aac.mp4; moov is at the end"),
    unopenable("not-a-video.mp4", "plain text with an .mp4 extension"),
]
descriptions = {
    "sample-h264-aac.mp4": "testsrc with frame counter, GOP 25 with B-frames, moov at end; "
                           "440 Hz left, 660 Hz right",
    "sample-h264-aac.ts": "the packets of sample-h264-aac.mp4 remuxed into MPEG-TS",
    "sample-audio.mp3": "330 Hz left, 550 Hz right",
    "sample-vp9-opus.webm": "testsrc with frame counter; 440 Hz left, 660 Hz right",
    "alpha-left.mp4": "left 64x64 alpha mask: white disc of radius 24 centred at (31.5, 31.5), black "
                      "elsewhere; right 64x64 solid red colour",
    "hls/master.m3u8": "VOD ladder 144p/360p/720p of one 12 s testsrc2 source, 2 s segments",
}
for entry in files:
    if entry["name"] in descriptions:
        entry["description"] = descriptions[entry["name"]]
    if entry["name"].startswith("hls/") and entry["name"] != "hls/master.m3u8":
        entry["description"] = "one rendition of hls/master.m3u8"

version = subprocess.run(["ffmpeg", "-version"], check=True, capture_output=True,
                         text=True).stdout.splitlines()[0]
manifest = {"generatedBy": "scripts/make-fixtures.sh with " + version, "files": files}
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=2, sort_keys=True)
    f.write("\n")
PY

echo "done: $(du -sh "$out" | cut -f1) in $out"
