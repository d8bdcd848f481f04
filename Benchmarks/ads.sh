#!/usr/bin/env bash
# Two ad rows of issue 32, measured in one run: the content -> ad -> content switch time with
# the ad prefetched, and the ad document resolution time of Playhead against a plain Python
# xml.etree walk.
#
# Generates (once, not committed) build/bench/ads/: vmap.xml, a VMAP with 100 breaks, each
# an AdTagURI leading through 5 wrappers (w<i>_1.xml … w<i>_5.xml, relative URIs) to an
# InLine VAST with one linear ad (media files, every tracking event, impressions); 601 files.
# And, with ffmpeg, switch-content.mp4 (flat blue, 640x360, 25 fps, 20 s) and switch-ad.mp4
# (flat red, 25 fps, 3 s), H.264 with the index first (faststart), no audio.
# Then, RUNS times each (median), three rows:
#   switch         Benchmarks/AdsBench's AdSwitchBench (release): the content and the ad served
#                  by a loopback HTTPTestServer that holds every answer back by 40 ms, mid-roll
#                  breaks (at 4, 8, 12 and 16 s of each play, one ad each) played through the
#                  public SDK (AdsSessionProvider, PlaybackController) in real time with audio
#                  off, into a sink that notes the monotonic time and colour of every frame
#                  presented. Content -> ad is the first ad frame's time less the last content
#                  frame's, ad -> content the first content frame's less the last ad frame's,
#                  raw (a seamless switch is one frame time: the last frame's own time on
#                  screen). RUNS switches each way with the ad prefetched (the default
#                  prefetchLeadMs, 5000) and, as the reference, without (0), the two taking
#                  turns play by play; the medians in ms and frame times, their ratio, and
#                  whether the prefetched medians are under two frame times each way (the aim).
#   in process     Benchmarks/AdsBench (release): VASTResolver.resolveAdTag over a default
#                  DataSourceStack (loads, parses, resolves every chain, merges the wrappers'
#                  impressions and tracking), against the same walk in Python with
#                  xml.etree.ElementTree (parse, follow every chain, merge), each timed inside
#                  its own process (one warm-up first)
#   whole process  `playhead ads build/bench/ads/vmap.xml --json` (release build, printing the
#                  JSON) against `python3 walk.py` (printing a JSON summary), start-up included
#                  (one warm-up first)
# For the VMAP rows, prints the median milliseconds of each and the ratio xml.etree / Playhead
# (above 1: Playhead is faster), and checks that both found 100 breaks with their ads.
# The switch row takes real time: about 14 s per switch measured, both modes (RUNS=10: about
# 2.5 minutes).
#
# Usage: Benchmarks/ads.sh
# Environment: RUNS (default 10), PLAYHEAD (default .build/release/playhead, brought up to date
#              first), BENCH_SCRATCH (AdsBench's build directory, default
#              build/bench/ads-scratch).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

runs="${RUNS:-10}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "ads: RUNS must be a positive integer, got '$runs'" >&2
  exit 2
fi
if [[ -z "${PLAYHEAD:-}" ]]; then
  # Always brought up to date (a no-op when it is): a stale binary would measure old code.
  echo "ads: building the release playhead..." >&2
  swift build -c release --product playhead 2>&1 | tail -n 1 >&2
fi
playhead="${PLAYHEAD:-$repo_root/.build/release/playhead}"
dir="$repo_root/build/bench/ads"
mkdir -p "$dir"

python3 - "$dir" <<'PY'
import os, sys
d = sys.argv[1]
if not os.path.exists(os.path.join(d, "vmap.xml")):
    events = ["creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile",
              "complete", "pause", "resume", "skip", "mute", "unmute"]
    for i in range(100):
        for depth in range(1, 6):
            target = f"w{i}_{depth + 1}.xml" if depth < 5 else f"inline{i}.xml"
            with open(os.path.join(d, f"w{i}_{depth}.xml"), "w") as f:
                f.write(f'<VAST version="4.1"><Ad id="w{i}_{depth}"><Wrapper allowMultipleAds="true">'
                        f'<AdSystem>bench</AdSystem><VASTAdTagURI><![CDATA[{target}]]></VASTAdTagURI>'
                        f'<Impression><![CDATA[https://t.example/w{i}_{depth}/imp]]></Impression>'
                        f'<Error><![CDATA[https://t.example/w{i}_{depth}/err?c=[ERRORCODE]]]></Error>'
                        '<Creatives><Creative><Linear><TrackingEvents>'
                        + "".join(f'<Tracking event="{e}"><![CDATA[https://t.example/w{i}_{depth}/{e}]]></Tracking>'
                                  for e in events)
                        + '</TrackingEvents></Linear></Creative></Creatives></Wrapper></Ad></VAST>')
        with open(os.path.join(d, f"inline{i}.xml"), "w") as f:
            f.write(f'<VAST version="4.1"><Ad id="ad{i}" sequence="1"><InLine><AdSystem>bench</AdSystem>'
                    f'<AdTitle>Ad {i}</AdTitle><Impression><![CDATA[https://t.example/ad{i}/imp]]></Impression>'
                    '<Creatives><Creative><Linear skipoffset="00:00:05"><Duration>00:00:15.000</Duration>'
                    '<TrackingEvents>'
                    + "".join(f'<Tracking event="{e}"><![CDATA[https://t.example/ad{i}/{e}]]></Tracking>'
                              for e in events)
                    + '</TrackingEvents><VideoClicks><ClickThrough>https://advertiser.example/</ClickThrough>'
                    '</VideoClicks><MediaFiles>'
                    + "".join(f'<MediaFile delivery="progressive" type="video/mp4" width="{w}" height="{h}" '
                              f'bitrate="{b}"><![CDATA[https://cdn.example/ad{i}_{h}.mp4]]></MediaFile>'
                              for (w, h, b) in [(640, 360, 800), (1280, 720, 2500), (1920, 1080, 5000)])
                    + '</MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>')
    breaks = []
    for i in range(100):
        offset = "start" if i == 0 else f"00:{(i * 30) // 60:02d}:{(i * 30) % 60:02d}.000"
        breaks.append(f'<vmap:AdBreak timeOffset="{offset}" breakType="linear" breakId="b{i}">'
                      f'<vmap:AdSource id="s{i}" allowMultipleAds="true" followRedirects="true">'
                      f'<vmap:AdTagURI templateType="vast4"><![CDATA[w{i}_1.xml]]></vmap:AdTagURI>'
                      '</vmap:AdSource></vmap:AdBreak>')
    with open(os.path.join(d, "vmap.xml"), "w") as f:
        f.write('<vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">'
                + "".join(breaks) + '</vmap:VMAP>')
PY

cat > "$dir/walk.py" <<'PY'
# The baseline: parse the VMAP and follow every chain with xml.etree, merging the wrappers'
# impressions and tracking into each inline ad, then print a JSON summary.
import json, os, sys
import xml.etree.ElementTree as ET

def local(tag):
    return tag.rsplit("}", 1)[-1].split(":")[-1]

def children(node, name):
    return [c for c in node.iter() if local(c.tag) == name]

def resolve(path, merged, depth=0):
    root = ET.parse(path).getroot()
    ad = children(root, "Ad")[0]
    imps = [i.text.strip() for i in children(ad, "Impression") if i.text]
    tracks = [(t.get("event"), t.text.strip()) for t in children(ad, "Tracking") if t.text]
    merged = {"impressions": merged["impressions"] + imps, "tracking": merged["tracking"] + tracks}
    uri = children(ad, "VASTAdTagURI")
    if uri:
        if depth >= 5:
            raise SystemExit("too deep")
        return resolve(os.path.join(os.path.dirname(path), uri[0].text.strip()), merged, depth + 1)
    media = [m.text.strip() for m in children(ad, "MediaFile")]
    return {"id": ad.get("id"), "media": media, **merged}

vmap = sys.argv[1]
root = ET.parse(vmap).getroot()
breaks = []
for b in children(root, "AdBreak"):
    tag = children(b, "AdTagURI")[0].text.strip()
    ad = resolve(os.path.join(os.path.dirname(vmap), tag), {"impressions": [], "tracking": []})
    breaks.append({"offset": b.get("timeOffset"), "id": b.get("breakId"), "ads": [ad]})
print(json.dumps({"breaks": breaks}))
PY

measure() {
  # Median wall milliseconds of RUNS runs of "$@" (after one warm-up), output discarded.
  "$@" > /dev/null
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# Both must find the 100 breaks, each with its ad.
playhead_breaks=$("$playhead" ads "$dir/vmap.xml" --json | python3 -c \
  'import json,sys; d=json.load(sys.stdin); print(len(d["breaks"]))')
python_breaks=$(python3 "$dir/walk.py" "$dir/vmap.xml" | python3 -c \
  'import json,sys; d=json.load(sys.stdin); print(sum(1 for b in d["breaks"] if b["ads"]))')
if [[ "$playhead_breaks" != 100 || "$python_breaks" != 100 ]]; then
  echo "ads: expected 100 breaks, got playhead $playhead_breaks, xml.etree $python_breaks" >&2
  exit 1
fi

scratch="${BENCH_SCRATCH:-$repo_root/build/bench/ads-scratch}"
echo "Building Benchmarks/AdsBench (release)..." >&2
(cd Benchmarks/AdsBench && swift build -c release --scratch-path "$scratch" 2>&1 | tail -n 1) >&2

# The switch row: two flat-colour clips, told apart by the colour of each frame presented.
if ! command -v ffmpeg > /dev/null; then
  echo "ads: ffmpeg is needed to make the switch row's clips" >&2
  exit 1
fi
if [[ ! -s "$dir/switch-content.mp4" ]]; then
  ffmpeg -v error -y -f lavfi -i "color=c=blue:s=640x360:r=25:d=20" -c:v libx264 \
    -pix_fmt yuv420p -g 25 -movflags +faststart "$dir/switch-content.mp4"
fi
if [[ ! -s "$dir/switch-ad.mp4" ]]; then
  ffmpeg -v error -y -f lavfi -i "color=c=red:s=640x360:r=25:d=3" -c:v libx264 \
    -pix_fmt yuv420p -g 25 -movflags +faststart "$dir/switch-ad.mp4"
fi
echo "Measuring the switch row (real time, about $(( runs * 14 )) s)..." >&2
"$scratch/release/AdSwitchBench" "$dir" "$runs"
echo
read -r bench_ms bench_breaks bench_ads < <("$scratch/release/AdsBench" "$dir/vmap.xml" "$runs")
if [[ "$bench_breaks" != 100 || "$bench_ads" != 100 ]]; then
  echo "ads: AdsBench found $bench_breaks breaks and $bench_ads ads, expected 100 each" >&2
  exit 1
fi
python_in_ms=$(python3 - "$dir" "$runs" <<'PY'
import contextlib, io, runpy, statistics, sys, time
folder, runs = sys.argv[1], int(sys.argv[2])
sys.argv = ["walk.py", folder + "/vmap.xml"]
def once():
    with contextlib.redirect_stdout(io.StringIO()):
        runpy.run_path(folder + "/walk.py", run_name="__main__")
once()
times = []
for _ in range(runs):
    start = time.perf_counter()
    once()
    times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(times):.2f}")
PY
)
echo "VMAP, 100 breaks x 5 wrappers (601 files), median of $runs:"
echo "  in process:     Playhead ${bench_ms} ms, xml.etree ${python_in_ms} ms"
awk -v p="$bench_ms" -v q="$python_in_ms" \
  'BEGIN { if (p > 0) printf "                  ratio xml.etree / Playhead = %.2f\n", q / p }'

playhead_ms=$(measure "$playhead" ads "$dir/vmap.xml" --json)
python_ms=$(measure python3 "$dir/walk.py" "$dir/vmap.xml")
echo "  whole process:  playhead ads --json ${playhead_ms} ms, python3 walk.py ${python_ms} ms"
awk -v p="$playhead_ms" -v q="$python_ms" \
  'BEGIN { if (p > 0) printf "                  ratio xml.etree / Playhead = %.2f (above 1: Playhead is faster)\n", q / p }'
