#!/usr/bin/env python3
"""Makes the benchmark's HLS ladder with ffmpeg, once, into a directory.

Three renditions of a synthetic clip (lavfi testsrc2, which moves, and a sine tone), each
H.264 + AAC in MPEG-TS segments of SEG seconds, encoded at a constant bitrate (x264's
nal-hrd=cbr pads with filler) so that every segment's size is close to the rendition's
bitrate times its duration:

    name    size       total (nominal)   video     audio
     550k    640x360   0.55 Mbit/s        405k     96k AAC
    1200k    854x480   1.2 Mbit/s        1040k     96k AAC
    3400k   1280x720   3.4 Mbit/s        3200k     96k AAC

(the video rates leave room for the audio and the MPEG-TS overhead, 3-9 %). Keyframes
fall on segment boundaries (-g = -keyint_min = fps x SEG, no scene-cut keyframes), so
every segment of every rendition starts with an IDR frame and switching is clean.

Writes DIR/<name>/index.m3u8 + seg_NNN.ts per rendition, DIR/master.m3u8 (BANDWIDTH = the
largest segment's bitrate, AVERAGE-BANDWIDTH = the mean over the rendition, RESOLUTION,
FRAME-RATE, CODECS from ffprobe) and DIR/ladder.json, which the metrics read:
{"segment_seconds": 4, "levels": [{"name", "nominal_bps", "average_bps", "peak_bps",
"width", "height", "segments": [{"index", "path", "bytes", "duration"}]}]}.

Usage: ladder.py DIR [--segment 4] [--duration 120]
Does nothing if DIR/ladder.json already exists (delete the directory to remake it).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

FPS = 25
AUDIO_KBPS = 96
# name, width, height, nominal total bit/s, video kbit/s
# (also the order of the master playlist: lowest first, so that a player that starts with
# the first variant listed, as GStreamer's hlsdemux2 does, starts where one that starts
# from its own estimate would on an unknown network)
RENDITIONS = [
    ("550k", 640, 360, 550_000, 405),
    ("1200k", 854, 480, 1_200_000, 1040),
    ("3400k", 1280, 720, 3_400_000, 3200),
]


def encode(out_dir, name, width, height, video_kbps, segment, duration):
    level_dir = os.path.join(out_dir, name)
    os.makedirs(level_dir, exist_ok=True)
    gop = FPS * segment
    rate = f"{video_kbps}k"
    command = [
        "ffmpeg", "-v", "error", "-y",
        "-f", "lavfi", "-i", f"testsrc2=size={width}x{height}:rate={FPS}:duration={duration}",
        "-f", "lavfi", "-i", f"sine=frequency=440:beep_factor=4:sample_rate=48000:duration={duration}",
        "-map", "0:v", "-map", "1:a",
        "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high", "-level", "3.1",
        "-pix_fmt", "yuv420p",
        "-b:v", rate, "-minrate", rate, "-maxrate", rate, "-bufsize", rate,
        "-x264-params", "nal-hrd=cbr:force-cfr=1",
        "-g", str(gop), "-keyint_min", str(gop), "-sc_threshold", "0",
        "-c:a", "aac", "-b:a", f"{AUDIO_KBPS}k", "-ac", "2",
        "-f", "hls", "-hls_time", str(segment), "-hls_playlist_type", "vod",
        "-hls_segment_filename", os.path.join(level_dir, "seg_%03d.ts"),
        os.path.join(level_dir, "index.m3u8"),
    ]
    subprocess.run(command, check=True)
    return level_dir


def read_media_playlist(level_dir, name):
    segments = []
    duration = None
    with open(os.path.join(level_dir, "index.m3u8")) as playlist:
        for line in playlist:
            line = line.strip()
            if line.startswith("#EXTINF:"):
                duration = float(line[len("#EXTINF:"):].split(",")[0])
            elif line and not line.startswith("#"):
                index = int(re.search(r"(\d+)\.ts$", line).group(1))
                size = os.path.getsize(os.path.join(level_dir, line))
                segments.append({"index": index, "path": f"/{name}/{line}",
                                 "bytes": size, "duration": duration})
    return segments


def codecs_of(first_segment):
    """The CODECS attribute: avc1.PPCCLL from the stream's profile and level, mp4a.40.2."""
    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0",
         "-show_entries", "stream=profile,level", "-of", "json", first_segment],
        check=True, capture_output=True, text=True)
    stream = json.loads(probe.stdout)["streams"][0]
    profile_idc = {"Baseline": 66, "Constrained Baseline": 66, "Main": 77, "High": 100}
    idc = profile_idc.get(stream.get("profile"), 100)
    constraints = 0x40 if stream.get("profile") == "Constrained Baseline" else 0
    return f"avc1.{idc:02x}{constraints:02x}{int(stream['level']):02x},mp4a.40.2"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--segment", type=int, default=4)
    parser.add_argument("--duration", type=int, default=120)
    args = parser.parse_args()

    manifest_path = os.path.join(args.dir, "ladder.json")
    if os.path.exists(manifest_path):
        print(f"ladder: reusing {args.dir}")
        return
    # A half-made ladder (an interrupted run) is made again from nothing.
    if os.path.isdir(args.dir):
        shutil.rmtree(args.dir)
    os.makedirs(args.dir)

    levels = []
    master = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
    for name, width, height, nominal, video_kbps in RENDITIONS:
        print(f"ladder: encoding {name} ({width}x{height}, {args.duration} s, "
              f"{args.segment} s segments)...", flush=True)
        level_dir = encode(args.dir, name, width, height, video_kbps, args.segment, args.duration)
        segments = read_media_playlist(level_dir, name)
        total_bytes = sum(s["bytes"] for s in segments)
        total_seconds = sum(s["duration"] for s in segments)
        average = round(total_bytes * 8 / total_seconds)
        peak = round(max(s["bytes"] * 8 / s["duration"] for s in segments))
        codecs = codecs_of(os.path.join(level_dir, "seg_000.ts"))
        levels.append({"name": name, "nominal_bps": nominal, "average_bps": average,
                       "peak_bps": peak, "width": width, "height": height,
                       "codecs": codecs, "segments": segments})
        master.append(f"#EXT-X-STREAM-INF:BANDWIDTH={peak},AVERAGE-BANDWIDTH={average},"
                      f"RESOLUTION={width}x{height},FRAME-RATE={FPS:.3f},CODECS=\"{codecs}\"")
        master.append(f"{name}/index.m3u8")
        print(f"ladder:   {len(segments)} segments, average {average / 1e6:.3f} Mbit/s, "
              f"peak {peak / 1e6:.3f} Mbit/s", flush=True)

    with open(os.path.join(args.dir, "master.m3u8"), "w") as out:
        out.write("\n".join(master) + "\n")
    # Written last: its presence marks a finished ladder.
    with open(manifest_path + ".tmp", "w") as out:
        json.dump({"segment_seconds": args.segment, "duration": args.duration,
                   "levels": levels}, out, indent=1)
    os.replace(manifest_path + ".tmp", manifest_path)


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:
        sys.exit(f"ladder: {error}")
