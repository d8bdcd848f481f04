#!/usr/bin/python3
"""GStreamer's first frame of a DASH stream, for Benchmarks/dash.sh (run with Debian's
/usr/bin/python3, which has the GStreamer bindings: python3-gi, gir1.2-gstreamer-1.0).

playbin3 (which picks dashdemux2 for an MPD in GStreamer 1.22) plays URI into fakesinks
(video and audio, sync=true, as a player's sinks would be). The pipeline goes to PAUSED;
the first frame is the first decoded video buffer that reaches the video sink (a buffer
probe on its sink pad), which happens while the pipeline prerolls. With START > 0 the
pipeline is seeked there (FLUSH | ACCURATE) as early as GStreamer accepts a seek: at
once when the demuxer's first pad appears (a pipeline seek from GLib's main loop;
GStreamer 1.22 refuses it there, and a seek event sent straight to dashdemux2 at that
point hangs), else after the preroll (ASYNC_DONE), which is what a GStreamer
application does (gst-play-1.0 seeks the same way), so the frames of the start are
fetched first; the first frame is then the first video buffer at START or later
(the accurate seek's earlier frames from the same GOP are not counted).

Prints one JSON line and exits:
  {"ms": time from just before Gst.init to that buffer, "pts": its timestamp in s,
   "seek": "early" | "after-preroll" | null, "demuxers": [...]}
or {"error": "..."} (exit status 1).

Usage: gst_first_frame.py URI [START_SECONDS]
"""

import json
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

started = time.monotonic()
Gst.init(None)

uri = sys.argv[1]
start = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
target = int(start * Gst.SECOND)
# Half a frame of slack: the frame at START may carry a timestamp a hair before it.
threshold = target - Gst.SECOND // 50 if target > 0 else 0

loop = GLib.MainLoop()
state = {"result": None, "seek": None, "demuxers": set()}

playbin = Gst.ElementFactory.make("playbin3")
if playbin is None:
    print(json.dumps({"error": "no playbin3"}))
    sys.exit(1)
video_sink = Gst.ElementFactory.make("fakesink", "video")
audio_sink = Gst.ElementFactory.make("fakesink", "audio")
for sink in (video_sink, audio_sink):
    sink.set_property("sync", True)
playbin.set_property("uri", uri)
playbin.set_property("video-sink", video_sink)
playbin.set_property("audio-sink", audio_sink)


def finish(result):
    if state["result"] is None:
        state["result"] = result
        GLib.idle_add(loop.quit)


def on_buffer(pad, info):
    buffer = info.get_buffer()
    if buffer is not None and buffer.pts != Gst.CLOCK_TIME_NONE and buffer.pts >= threshold:
        if target == 0 or state["seek"] is not None:
            finish({"ms": round((time.monotonic() - started) * 1000, 1),
                    "pts": round(buffer.pts / Gst.SECOND, 3)})
    return Gst.PadProbeReturn.OK


video_sink.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_buffer)


def seek(kind):
    if state["seek"] is None and target > 0:
        flags = Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE
        if playbin.seek_simple(Gst.Format.TIME, flags, target):
            state["seek"] = kind
            # Paused after a seek, GStreamer 1.22 sometimes never prerolls the video
            # (the audio sink has its buffer, the video frame never comes): playing
            # does not hang.
            playbin.set_state(Gst.State.PLAYING)
    return False


def on_pad_added(element, pad):
    GLib.idle_add(seek, "early")


def on_element_added(bin_, sub_bin, element):
    factory = element.get_factory()
    name = factory.get_name() if factory else ""
    if "demux" in name:
        state["demuxers"].add(name)
    if name.startswith("dashdemux"):
        element.connect("pad-added", on_pad_added)


playbin.connect("deep-element-added", on_element_added)


def on_message(bus, message):
    if message.type == Gst.MessageType.ERROR:
        error, _ = message.parse_error()
        finish({"error": error.message})
    elif message.type == Gst.MessageType.ASYNC_DONE:
        seek("after-preroll")
    elif message.type == Gst.MessageType.EOS:
        finish({"error": "end of stream before a frame"})


bus = playbin.get_bus()
bus.add_signal_watch()
bus.connect("message", on_message)
if playbin.set_state(Gst.State.PAUSED) == Gst.StateChangeReturn.FAILURE:
    finish({"error": "could not pause"})
else:
    GLib.timeout_add_seconds(60, lambda: finish({"error": "no frame in 60 s"}))
    loop.run()
result = state["result"]
result["seek"] = state["seek"]
result["demuxers"] = sorted(state["demuxers"])
print(json.dumps(result), flush=True)
# The pipeline is not torn down: the measurement is over and the caller stops this process.
sys.stdout.flush()
import os  # noqa: E402
os._exit(1 if "error" in result else 0)
