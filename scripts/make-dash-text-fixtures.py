#!/usr/bin/env python3
"""Writes Fixtures/dash-text/: DASH text sets in fragmented MP4 beside Fixtures/dash-vod/.

Two text AdaptationSets over the 10 s of dash-vod (2 s segments, SegmentTemplate $Number$):
  - wvtt (ISO/IEC 14496-30 WebVTT in MP4), English, timescale 1000, media time 0 = item 0;
  - stpp (TTML in MP4), French, timescale 1000, presentationTimeOffset 100 s: the TTML times
    are on the media timeline (clock times, offsets, ticks), one segment's are relative to
    its sample.
The boxes are written here byte by byte (FFmpeg 5.1 cannot mux wvtt into MP4, nor segment
text for DASH), so the output is the same on every run. Usage: make-dash-text-fixtures.py OUT
"""
import struct
import sys


def box(kind, *payload):
    body = b"".join(payload)
    return struct.pack(">I", 8 + len(body)) + kind.encode("ascii") + body


def full(kind, version, flags, *payload):
    return box(kind, struct.pack(">I", (version << 24) | flags), *payload)


def u32(*values):
    return b"".join(struct.pack(">I", v) for v in values)


TIMESCALE = 1000
SEGMENT = 2000  # 2 s
COUNT = 5


def init_segment(entry, handler):
    mvhd = full("mvhd", 0, 0, u32(0, 0, TIMESCALE, 0), struct.pack(">IH", 0x00010000, 0x0100),
                bytes(10), u32(0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000),
                bytes(24), u32(2))
    tkhd = full("tkhd", 0, 3, u32(0, 0, 1, 0, 0), bytes(8), struct.pack(">hhhH", 0, 0, 0, 0),
                u32(0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000), u32(0, 0))
    mdhd = full("mdhd", 0, 0, u32(0, 0, TIMESCALE, 0), struct.pack(">HH", 0x55C4, 0))
    hdlr = full("hdlr", 0, 0, u32(0), handler.encode("ascii"), bytes(12), b"Playhead text\0")
    header = full("sthd", 0, 0) if handler == "subt" else full("nmhd", 0, 0)
    dinf = box("dinf", full("dref", 0, 0, u32(1), full("url ", 0, 1)))
    stbl = box("stbl", full("stsd", 0, 0, u32(1), entry), full("stts", 0, 0, u32(0)),
               full("stsc", 0, 0, u32(0)), full("stsz", 0, 0, u32(0, 0)),
               full("stco", 0, 0, u32(0)))
    trak = box("trak", tkhd, box("mdia", mdhd, hdlr, box("minf", header, dinf, stbl)))
    mvex = box("mvex", full("trex", 0, 0, u32(1, 1, 0, 0, 0)))
    ftyp = box("ftyp", b"iso6", u32(0), b"iso6dash")
    return ftyp + box("moov", mvhd, trak, mvex)


def wvtt_entry():
    return box("wvtt", bytes(6), struct.pack(">H", 1), box("vttC", b"WEBVTT"),
               box("vlab", b"playhead-en"))


def stpp_entry():
    return box("stpp", bytes(6), struct.pack(">H", 1),
               b"http://www.w3.org/ns/ttml\0", b"\0", b"\0")


def media_segment(number, base_time, samples):
    """samples: [(duration, bytes)]; tfhd default-base-is-moof, trun with durations, sizes."""
    def moof(data_offset):
        tfhd = full("tfhd", 0, 0x020000, u32(1))
        tfdt = full("tfdt", 1, 0, struct.pack(">Q", base_time))
        entries = b"".join(u32(d, len(s)) for d, s in samples)
        trun = full("trun", 0, 0x000301, u32(len(samples)), struct.pack(">i", data_offset),
                    entries)
        return box("moof", full("mfhd", 0, 0, u32(number)), box("traf", tfhd, tfdt, trun))
    size = len(moof(0))
    return (box("styp", b"msdh", u32(0), b"msdhmsix") + moof(size + 8)
            + box("mdat", *[s for _, s in samples]))


# --- wvtt ---------------------------------------------------------------------------

def vtte():
    return box("vtte")


def vttc(text, settings=None, ident=None):
    parts = []
    if ident:
        parts.append(box("iden", ident.encode("utf-8")))
    if settings:
        parts.append(box("sttg", settings.encode("utf-8")))
    parts.append(box("payl", text.encode("utf-8")))
    return box("vttc", *parts)


A = vttc("Line one\nLine two", settings="align:start line:10%", ident="c2")
B = vttc("<i>Also</i>")
C = vttc("Across")
WVTT = [
    [(500, vtte()), (1000, vttc("Hello")), (500, vtte())],
    [(200, vtte()), (800, A), (800, A + B), (200, vtte())],
    [(1500, vtte()), (500, C)],
    [(500, C), (1500, vtte())],
    [(250, vtte()), (1500, vttc("Last words")), (250, vtte())],
]

# --- stpp ---------------------------------------------------------------------------

OFFSET = 100_000  # presentationTimeOffset, ms


def ttml(body, extra=""):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter"'
            ' xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="fr"' + extra + '>\n'
            '  <head/>\n  <body>\n    <div>\n' + body + '    </div>\n  </body>\n</tt>\n'
            ).encode("utf-8")


STPP = [
    ttml('      <p begin="00:01:40.500" end="00:01:41.500">Bonjour</p>\n'),
    ttml('      <p begin="102.2s" end="103.8s">Ligne un<br/>ligne\n'
         '        <span tts:fontStyle="italic">deux</span></p>\n'),
    ttml('      <p begin="1055000000t" end="1065000000t">À cheval</p>\n',
         extra=' ttp:tickRate="10000000"'),
    ttml('      <p begin="00:00:00.000" end="00:00:00.500">À cheval</p>\n'
         '      <p begin="0.75s" dur="1s">Durée</p>\n'),
    ttml('      <p begin="00:01:48.250" end="00:01:49.750">Fin &amp; merci</p>\n'),
]


def text_set(set_id, lang, label, codecs, name, rep_id, offset):
    pto = f' presentationTimeOffset="{offset}"' if offset else ""
    return (f'\t\t<AdaptationSet id="{set_id}" contentType="text" mimeType="application/mp4" '
            f'codecs="{codecs}" lang="{lang}" segmentAlignment="true">\n'
            f'\t\t\t<Label>{label}</Label>\n'
            f'\t\t\t<Role schemeIdUri="urn:mpeg:dash:role:2011" value="subtitle"/>\n'
            f'\t\t\t<SegmentTemplate timescale="{TIMESCALE}" duration="{SEGMENT}"{pto} '
            f'initialization="init-{name}.mp4" media="{name}-$Number$.m4s" startNumber="1"/>\n'
            f'\t\t\t<Representation id="{rep_id}" bandwidth="2000"/>\n'
            f'\t\t</AdaptationSet>\n')


def main():
    out = sys.argv[1]
    folder = f"{out}/dash-text"
    open(f"{folder}/init-wvtt.mp4", "wb").write(init_segment(wvtt_entry(), "text"))
    open(f"{folder}/init-stpp.mp4", "wb").write(init_segment(stpp_entry(), "subt"))
    for index in range(COUNT):
        number = index + 1
        open(f"{folder}/wvtt-{number}.m4s", "wb").write(
            media_segment(number, index * SEGMENT, WVTT[index]))
        open(f"{folder}/stpp-{number}.m4s", "wb").write(
            media_segment(number, OFFSET + index * SEGMENT, [(SEGMENT, STPP[index])]))
    mpd = open(f"{out}/dash-vod/manifest.mpd").read()
    head, rest = mpd.split("<AdaptationSet", 1)
    rest = "<AdaptationSet" + rest
    for rep in ("0", "2"):  # video and audio come from dash-vod
        rest = rest.replace(f'\t\t\t<Representation id="{rep}"',
                            f'\t\t\t<BaseURL>../dash-vod/</BaseURL>\n'
                            f'\t\t\t<Representation id="{rep}"', 1)
    sets = (text_set(2, "en", "English (wvtt)", "wvtt", "wvtt", "text-wvtt", 0)
            + text_set(3, "fr", "Français (TTML)", "stpp.ttml.im1t", "stpp", "text-stpp", OFFSET))
    open(f"{folder}/manifest.mpd", "w").write(
        head + rest.replace("\t</Period>", sets + "\t</Period>", 1))


if __name__ == "__main__":
    main()
