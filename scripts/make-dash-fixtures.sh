#!/usr/bin/env bash
# Makes the DASH fixtures under Fixtures/dash/ and lists them in Fixtures/manifest.json
# (entries named dash/…, replaced on each run). Called by scripts/make-fixtures.sh; runs
# alone too (`scripts/make-dash-fixtures.sh`).
#
# - ffmpeg-live-timeline.mpd, ffmpeg-live-number.mpd: live-profile MPDs of FFmpeg's dash
#   muxer (SegmentTimeline, and SegmentTemplate@duration), 2 s segments, a window of 3 (+2
#   extra). The muxer writes type="dynamic" only while it runs (its last MPD is static), so
#   it PUTs to a small local HTTP server that keeps every MPD version; the one written
#   after the fourth segment is kept. Segments are not kept.
# - ffmpeg-single-file.mp4 with ffmpeg-single-file.mpd (FFmpeg's SegmentList of byte ranges)
#   and ffmpeg-single-file-sidx.mpd (SegmentBase@indexRange): one fragmented MP4 with a
#   global sidx, 8 s in 2 s subsegments.
# - gst-dashsink-live.mpd: GStreamer's dashsink (gstreamer1.0-plugins-bad) with
#   dynamic=true; skipped with a message when gst-launch-1.0 or dashsink is missing.
#
# availabilityStartTime and publishTime are the wall clock when the muxer ran: tests read
# availabilityStartTime from the MPD and put `now` relative to it. Everything else is the
# same on every run with the same tools (testsrc, one encoder thread, bitexact).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo_root/Fixtures/dash"
mkdir -p "$out"
rm -f "$out"/*.mpd "$out"/*.mp4

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

ff=(ffmpeg -nostdin -hide_banner -loglevel error -y)
source_video=(-f lavfi -i "testsrc=size=160x90:rate=25:duration=12")
encode=(-c:v libx264 -pix_fmt yuv420p -threads 1 -preset veryfast -g 50 -keyint_min 50
  -sc_threshold 0 -force_key_frames "expr:gte(t,n_forced*2)"
  -fflags +bitexact -flags:v +bitexact -map_metadata -1)

# A server that stores each PUT; the Nth version of an .mpd is saved as NAME.N.
cat >"$work/capture.py" <<'PY'
import http.server, os, sys
out, counts = sys.argv[1], {}
class Handler(http.server.BaseHTTPRequestHandler):
    def do_PUT(self):
        name = os.path.basename(self.path.split("?")[0])
        if "Content-Length" in self.headers:
            body = self.rfile.read(int(self.headers["Content-Length"]))
        else:
            body = b""
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                body += self.rfile.read(size)
                self.rfile.readline()
        if name.endswith(".mpd"):
            counts[name] = counts.get(name, 0) + 1
            name = "%s.%d" % (name, counts[name])
        with open(os.path.join(out, name), "wb") as f:
            f.write(body)
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()
    do_POST = do_PUT
    def log_message(self, *args):
        pass
    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
mkdir -p "$work/put"
python3 "$work/capture.py" "$work/put" >"$work/port" 2>/dev/null &
server_pid=$!
for _ in $(seq 50); do [[ -s "$work/port" ]] && break; sleep 0.1; done
port="$(cat "$work/port")"

live=(-f dash -method PUT -http_persistent 0 -seg_duration 2 -window_size 3
  -extra_window_size 2 -streaming 0 -remove_at_exit 0)
for variant in timeline number; do
  echo "dash/ffmpeg-live-$variant.mpd"
  use_timeline=$([[ $variant == timeline ]] && echo 1 || echo 0)
  "${ff[@]}" "${source_video[@]}" "${encode[@]}" "${live[@]}" -use_timeline "$use_timeline" \
    "http://127.0.0.1:$port/$variant.mpd" 2>&1 | grep -v "Cannot use rename" || true
  grep -q 'type="dynamic"' "$work/put/$variant.mpd.4"
  cp "$work/put/$variant.mpd.4" "$out/ffmpeg-live-$variant.mpd"
done
kill "$server_pid"
server_pid=""

echo "dash/ffmpeg-single-file.mpd, dash/ffmpeg-single-file-sidx.mpd"
# One file with a global sidx after the moov. FFmpeg's MPD addresses it with a SegmentList of
# byte ranges; the -sidx MPD is the same with SegmentBase@indexRange (the sidx box) in its
# place, so a test can check the sidx against FFmpeg's own ranges.
mkdir -p "$work/single"
"${ff[@]}" -f lavfi -i "testsrc=size=160x90:rate=25:duration=8" "${encode[@]}" \
  -f dash -seg_duration 2 -single_file 1 -single_file_name 'ffmpeg-single-file.mp4' \
  -global_sidx 1 -use_template 0 -use_timeline 0 "$work/single/ffmpeg-single-file.mpd"
cp "$work/single/ffmpeg-single-file.mpd" "$work/single/ffmpeg-single-file.mp4" "$out/"
python3 - "$out" <<'PY'
import os, re, sys
out = sys.argv[1]
data = open(os.path.join(out, "ffmpeg-single-file.mp4"), "rb").read()
position, sidx = 0, None
while position + 8 <= len(data):
    size = int.from_bytes(data[position:position + 4], "big")
    if data[position + 4:position + 8] == b"sidx":
        sidx = (position, position + size - 1)
        break
    position += size
if sidx is None:
    sys.exit("ffmpeg-single-file.mp4 has no sidx")
mpd = open(os.path.join(out, "ffmpeg-single-file.mpd")).read()
base = '<SegmentBase indexRange="%d-%d">\n\t\t\t\t\t<Initialization range="0-%d" />\n\t\t\t\t</SegmentBase>' % (
    sidx[0], sidx[1], sidx[0] - 1)
mpd, count = re.subn(r"<SegmentList.*?</SegmentList>", base, mpd, flags=re.S)
if count != 1:
    sys.exit("ffmpeg-single-file.mpd has no SegmentList")
open(os.path.join(out, "ffmpeg-single-file-sidx.mpd"), "w").write(mpd)
PY

if command -v gst-launch-1.0 >/dev/null && gst-inspect-1.0 dashsink >/dev/null 2>&1; then
  echo "dash/gst-dashsink-live.mpd"
  mkdir -p "$work/gst"
  # dashsink 1.22 does not finish at end of stream: the MPD is complete by then, so the
  # pipeline is stopped after 15 s.
  timeout 15 gst-launch-1.0 -q videotestsrc num-buffers=200 \
    ! video/x-raw,width=160,height=90,framerate=25/1 \
    ! x264enc key-int-max=25 threads=1 ! h264parse \
    ! dashsink mpd-root-path="$work/gst" mpd-filename=gst-dashsink-live.mpd target-duration=2 \
    dynamic=true muxer=mp4 minimum-update-period=2000 min-buffer-time=2000 >/dev/null || true
  grep -q 'type="dynamic"' "$work/gst/gst-dashsink-live.mpd"
  cp "$work/gst/gst-dashsink-live.mpd" "$out/"
else
  echo "make-dash-fixtures: GStreamer's dashsink is not installed" \
    "(apt-get install gstreamer1.0-tools gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly);" \
    "dash/gst-dashsink-live.mpd is kept as it was" >&2
  git -C "$repo_root" checkout -- Fixtures/dash/gst-dashsink-live.mpd 2>/dev/null || true
fi

echo "dash/ entries of manifest.json"
python3 - "$repo_root/Fixtures" <<'PY'
import json, os, subprocess, sys
root = sys.argv[1]
path = os.path.join(root, "manifest.json")
manifest = json.load(open(path)) if os.path.exists(path) else {"generatedBy": "", "files": []}
manifest["files"] = [f for f in manifest["files"] if not f["name"].startswith("dash/")]
described = {
    "dash/ffmpeg-live-timeline.mpd": "FFmpeg dash muxer, dynamic, SegmentTimeline, 2 s segments "
        "numbered from startNumber, window 3 (+2); the MPD written after the fourth segment; "
        "segments not kept",
    "dash/ffmpeg-live-number.mpd": "FFmpeg dash muxer, dynamic, SegmentTemplate@duration 2 s "
        "($Number$), window 3 (+2); the MPD written after the fourth segment; segments not kept",
    "dash/ffmpeg-single-file.mpd": "FFmpeg dash muxer, static, one file with a global sidx, "
        "addressed by a SegmentList of byte ranges",
    "dash/ffmpeg-single-file-sidx.mpd": "ffmpeg-single-file.mpd with SegmentBase@indexRange "
        "(the sidx box) and Initialization@range in place of the SegmentList",
    "dash/gst-dashsink-live.mpd": "GStreamer dashsink, dynamic, SegmentTemplate@duration 2 "
        "(timescale 1), one self-contained MP4 per segment; segments not kept",
}
for name, description in described.items():
    file = os.path.join(root, name)
    if os.path.exists(file):
        manifest["files"].append({"name": name, "opens": False, "description": description,
                                  "sizeBytes": os.path.getsize(file), "streams": []})
media = "dash/ffmpeg-single-file.mp4"
probe = json.loads(subprocess.run(
    ["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams",
     "-count_frames", os.path.join(root, media)], check=True, capture_output=True).stdout)
stream = probe["streams"][0]
manifest["files"].append({
    "name": media, "opens": True, "container": probe["format"]["format_name"],
    "sizeBytes": os.path.getsize(os.path.join(root, media)),
    "durationSeconds": float(probe["format"]["duration"]),
    "description": "160x90 testsrc, 8 s, fragmented MP4 with a global sidx (after the moov) "
                   "of four 2 s subsegments",
    "streams": [{"index": 0, "codecType": "video", "codecName": stream["codec_name"],
                 "timeBase": stream["time_base"], "width": stream["width"],
                 "height": stream["height"], "nbReadFrames": int(stream["nb_read_frames"])}]})
with open(path, "w") as f:
    json.dump(manifest, f, indent=2, sort_keys=True)
    f.write("\n")
PY
