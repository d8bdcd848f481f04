#!/usr/bin/env python3
"""Makes the DASH benchmark's package with FFmpeg's dash muxer, once, into a directory.

A synthetic clip (lavfi testsrc2, which moves, and a sine tone) of DURATION seconds,
encoded once into three H.264 Representations and one AAC Representation, written by
ffmpeg's dash muxer as one static MPD with SegmentTemplate + SegmentTimeline, segments of
2 s (keyframes exactly on the boundaries: GOP = keyint_min = 50 frames at 25 fps, no
scene-cut keyframes), the video Representations in one AdaptationSet and the audio in
another:

    id   size       video (x264, constant bitrate: nal-hrd=cbr pads with filler)
     0    426x240    400 kbit/s
     1    640x360   1000 kbit/s
     2   1280x720   3000 kbit/s
     3   audio        96 kbit/s AAC, 48 kHz stereo

Files: DIR/manifest.mpd, DIR/init-<id>.m4s, DIR/<id>/seg_<NNN>.m4s (numbers from 1), and
DIR/ladder.json in the shape Benchmarks/ABRNetwork/report.py reads (the video
Representations are the levels; nominal_bps is the MPD's @bandwidth, average_bps and
peak_bps are measured from the segment files):
{"segment_seconds": 2, "levels": [{"name", "nominal_bps", "average_bps", "peak_bps",
"width", "height", "segments": [{"index", "path", "bytes", "duration"}]}]}.

Usage: package.py DIR [--duration 60]
Does nothing if DIR/ladder.json already exists (delete the directory to remake it).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

FPS = 25
SEGMENT_SECONDS = 2
# id, width, height, video kbit/s
VIDEO = [(0, 426, 240, 400), (1, 640, 360, 1000), (2, 1280, 720, 3000)]
AUDIO_ID = 3
AUDIO_KBPS = 96
NS = {"mpd": "urn:mpeg:dash:schema:mpd:2011"}


def encode(work, duration):
    for rid in [v[0] for v in VIDEO] + [AUDIO_ID]:
        os.makedirs(os.path.join(work, str(rid)), exist_ok=True)
    gop = FPS * SEGMENT_SECONDS
    splits = "".join(f"[s{rid}]" for rid, _, _, _ in VIDEO)
    graph = f"[0:v]split={len(VIDEO)}{splits};" + ";".join(
        f"[s{rid}]scale={w}:{h}[v{rid}]" for rid, w, h, _ in VIDEO)
    command = ["ffmpeg", "-v", "error", "-y",
               "-f", "lavfi", "-i", f"testsrc2=size=1280x720:rate={FPS}:duration={duration}",
               "-f", "lavfi",
               "-i", f"sine=frequency=440:beep_factor=4:sample_rate=48000:duration={duration}",
               "-filter_complex", graph]
    for rid, _, _, _ in VIDEO:
        command += ["-map", f"[v{rid}]"]
    command += ["-map", "1:a",
                "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high",
                "-pix_fmt", "yuv420p", "-g", str(gop), "-keyint_min", str(gop),
                "-sc_threshold", "0", "-x264-params", "nal-hrd=cbr"]
    for index, (_, _, _, kbps) in enumerate(VIDEO):
        command += [f"-b:v:{index}", f"{kbps}k", f"-minrate:v:{index}", f"{kbps}k",
                    f"-maxrate:v:{index}", f"{kbps}k", f"-bufsize:v:{index}", f"{kbps * 2}k"]
    command += ["-c:a", "aac", "-b:a", f"{AUDIO_KBPS}k", "-ac", "2",
                "-f", "dash", "-seg_duration", str(SEGMENT_SECONDS),
                "-use_template", "1", "-use_timeline", "1",
                "-adaptation_sets", "id=0,streams=v id=1,streams=a",
                "-init_seg_name", "init-$RepresentationID$.m4s",
                "-media_seg_name", "$RepresentationID$/seg_$Number%03d$.m4s",
                os.path.join(work, "manifest.mpd")]
    subprocess.run(command, check=True)


def describe(work):
    root = ElementTree.parse(os.path.join(work, "manifest.mpd")).getroot()
    levels = []
    for rep in root.iterfind(".//mpd:Representation", NS):
        if not rep.get("mimeType", "").startswith("video") and rep.get("width") is None:
            continue
        rid = rep.get("id")
        template = rep.find("mpd:SegmentTemplate", NS)
        timescale = int(template.get("timescale", "1"))
        number = int(template.get("startNumber", "1"))
        durations = []
        for entry in template.iterfind("mpd:SegmentTimeline/mpd:S", NS):
            for _ in range(int(entry.get("r", "0")) + 1):
                durations.append(int(entry.get("d")) / timescale)
        segments = []
        for offset, seconds in enumerate(durations):
            path = f"{rid}/seg_{number + offset:03d}.m4s"
            segments.append({"index": number + offset, "path": path, "duration": seconds,
                             "bytes": os.path.getsize(os.path.join(work, path))})
        rates = [s["bytes"] * 8 / s["duration"] for s in segments]
        total = sum(s["duration"] for s in segments)
        levels.append({"name": rid, "nominal_bps": int(rep.get("bandwidth")),
                       "average_bps": round(sum(s["bytes"] * 8 for s in segments) / total),
                       "peak_bps": round(max(rates)), "width": int(rep.get("width")),
                       "height": int(rep.get("height")), "segments": segments})
    levels.sort(key=lambda level: level["nominal_bps"])
    return {"segment_seconds": SEGMENT_SECONDS, "levels": levels}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--duration", type=int, default=60)
    args = parser.parse_args()
    if os.path.exists(os.path.join(args.dir, "ladder.json")):
        return
    work = args.dir.rstrip("/") + ".partial"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    print(f"Making the DASH package ({args.duration} s, 3 video Representations) in "
          f"{args.dir}...", file=sys.stderr, flush=True)
    encode(work, args.duration)
    ladder = describe(work)
    with open(os.path.join(work, "ladder.json"), "w") as out:
        json.dump(ladder, out, indent=1)
    shutil.rmtree(args.dir, ignore_errors=True)
    os.replace(work, args.dir)


if __name__ == "__main__":
    main()
