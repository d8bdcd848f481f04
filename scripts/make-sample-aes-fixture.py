#!/usr/bin/env python3
"""Writes Fixtures/hls-sample-aes/: an HLS media playlist of MPEG-TS segments encrypted with
METHOD=SAMPLE-AES as Apple's "MPEG-2 Stream Encryption Format for HTTP Live Streaming"
describes it, the clear segments they were made from, and the keys; then adds the fixture's
entries to Fixtures/manifest.json (run it after scripts/make-fixtures.sh, which calls it).

The clear source: 3 s of testsrc2 at 192x108, 25 fps, H.264 (libx264, single thread, B-frames,
a keyframe every second) and stereo AAC-LC at 48 kHz, cut by ffmpeg's HLS muxer into three 1 s
segments with media sequence numbers 5, 6, 7 (clear/). Each segment is then rewritten here:

- H.264 (stream_type 0x1b becomes 0xdb, with a private data indicator descriptor 'zavc'): every
  NAL unit of type 1 or 5 longer than 48 bytes keeps its first 32 bytes clear; after them, one
  16-byte block in ten is encrypted (AES-128-CBC, no padding, the IV reset at each NAL unit),
  while more than 16 bytes remain. The encrypted NAL unit then gets start code emulation
  prevention again (00 00 0x, x <= 3, becomes 00 00 03 0x), so it may grow; a reader removes
  those bytes before decrypting. Other NAL units stay as they are.
- AAC (stream_type 0x0f becomes 0xcf, with a private data indicator descriptor 'aacd' and a
  registration descriptor 'apad' holding the audio setup information: 'zaac', priming 0,
  version 0, the AudioSpecificConfig): each ADTS frame keeps its header and the 16 bytes after
  it clear; every whole 16-byte block after that is encrypted (CBC, IV reset per frame); a
  trailing partial block stays clear.

The PES packets are packed into TS packets again (same PIDs, timestamps, PCRs and random access
flags; PAT, SDT and the rewritten PMT where ffmpeg put them). Keys and IVs are fixed:
segments 5 and 6 use key.bin with an explicit IV, segment 7 uses key2.bin with no IV attribute
(its IV is the media sequence number). Deterministic: the same ffmpeg build writes the same
bytes.

Cross-check with another implementation: ffmpeg's own hls demuxer (which decrypts SAMPLE-AES
itself) reads index.m3u8 and must decode every video and audio frame to the MD5 (-f framemd5)
the clear playlist decodes to. A decryption with wrong-key.bin must not: it is shown to make
ffmpeg's decoders fail with -err_detect explode.

Needs ffmpeg, ffprobe and the Python package `cryptography` (Debian: python3-cryptography).
"""

import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO, "Fixtures")
NAME = "hls-sample-aes"
OUT = os.path.join(FIXTURES, NAME)

KEY = bytes.fromhex("6a0f4b3e9d2c81f7a5e3c0b1d4928f36")
KEY2 = bytes.fromhex("d1c2b3a4958677685948372615f4e3d2")
WRONG_KEY = bytes.fromhex("00112233445566778899aabbccddeeff")
# The explicit IV of segments 5 and 6 is the first of a fixed series of candidates with which
# an encrypted block of theirs emulates a start code, so that the fixture covers emulation
# prevention (see find_iv).
IV_SERIES = b"playhead sample-aes fixture iv "
FIRST_SEQUENCE = 5
REKEY_SEQUENCE = 7

VIDEO_PID, AUDIO_PID = 0x100, 0x101
SENC_STREAM_TYPES = {0x1B: 0xDB, 0x0F: 0xCF}


def run(args, **kwargs):
    return subprocess.run(args, check=True, **kwargs)


def make_clear_source(folder):
    """ffmpeg writes clear/index.m3u8 and clear/segmentN.ts."""
    os.makedirs(folder)
    run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
         "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=25:duration=3",
         "-f", "lavfi", "-i",
         "aevalsrc=exprs=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t):sample_rate=48000:duration=3",
         "-c:v", "libx264", "-pix_fmt", "yuv420p", "-threads", "1", "-preset", "veryfast",
         "-profile:v", "main", "-bf", "2", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
         "-force_key_frames", "expr:gte(t,n_forced*1)", "-b:v", "150k",
         "-c:a", "aac", "-b:a", "48k", "-ar", "48000", "-ac", "2",
         "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact",
         "-map_metadata", "-1",
         "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
         "-start_number", str(FIRST_SEQUENCE),
         "-hls_segment_filename", os.path.join(folder, "segment%d.ts"),
         os.path.join(folder, "index.m3u8")])


# --- AES-128-CBC without padding ----------------------------------------------------------

def cbc_encrypt(key, iv, data):
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return encryptor.update(data) + encryptor.finalize()


def cbc_decrypt(key, iv, data):
    decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    return decryptor.update(data) + decryptor.finalize()


# --- H.264 ---------------------------------------------------------------------------------

def nal_units(es):
    """(start, end) of each Annex B NAL unit in `es`: from the byte after a start code to the
    next start code, without the zero bytes before it."""
    starts = []
    at = es.find(b"\x00\x00\x01")
    while at >= 0:
        starts.append(at + 3)
        at = es.find(b"\x00\x00\x01", at + 3)
    units = []
    for i, start in enumerate(starts):
        end = starts[i + 1] - 3 if i + 1 < len(starts) else len(es)
        while end > start and es[end - 1] == 0:
            end -= 1
        units.append((start, end))
    return units


def add_emulation_prevention(nal):
    """Inserts 03 after every 00 00 that precedes a byte <= 03 (ISO/IEC 14496-10, 7.4.1)."""
    out = bytearray()
    zeros = 0
    for byte in nal:
        if zeros >= 2 and byte <= 3:
            out.append(3)
            zeros = 0
        out.append(byte)
        zeros = zeros + 1 if byte == 0 else 0
    return bytes(out)


def remove_emulation_prevention(nal):
    out = bytearray()
    zeros = 0
    for byte in nal:
        if zeros >= 2 and byte == 3:
            zeros = 0
            continue
        out.append(byte)
        zeros = zeros + 1 if byte == 0 else 0
    return bytes(out)


def crypt_nal_pattern(nal, crypt):
    """Applies `crypt` (one CBC pass over the joined blocks) to the encrypted blocks of a NAL
    unit: after 32 clear bytes, a 16-byte block while more than 16 bytes remain, then up to
    144 clear bytes, again and again."""
    positions = []
    at = 32
    while at < len(nal):
        if len(nal) - at > 16:
            positions.append(at)
            at += 16
        at += min(144, len(nal) - at)
    if not positions:
        return nal
    joined = crypt(b"".join(nal[p:p + 16] for p in positions))
    out = bytearray(nal)
    for i, p in enumerate(positions):
        out[p:p + 16] = joined[16 * i:16 * i + 16]
    return bytes(out)


def encrypt_video(es, key, iv, stats):
    out = bytearray()
    last = 0
    for start, end in nal_units(es):
        nal = es[start:end]
        out += es[last:start]
        if nal and nal[0] & 0x1F in (1, 5) and len(nal) > 48:
            encrypted = crypt_nal_pattern(nal, lambda d: cbc_encrypt(key, iv, d))
            escaped = add_emulation_prevention(encrypted)
            assert remove_emulation_prevention(escaped) == encrypted
            stats["encryptedNALUnits"] += 1
            stats["emulationPreventionBytesAdded"] += len(escaped) - len(encrypted)
            out += escaped
        else:
            if nal and nal[0] & 0x1F in (1, 5):
                stats["clearSliceNALUnits"] += 1
            out += nal
        last = end
    out += es[last:]
    return bytes(out)


def decrypt_video(es, key, iv):
    """The reverse, for the wrong-key demonstration."""
    out = bytearray()
    last = 0
    for start, end in nal_units(es):
        nal = es[start:end]
        out += es[last:start]
        if nal and nal[0] & 0x1F in (1, 5) and len(nal) > 48:
            nal = crypt_nal_pattern(remove_emulation_prevention(nal),
                                    lambda d: cbc_decrypt(key, iv, d))
        out += nal
        last = end
    out += es[last:]
    return bytes(out)


# --- AAC -----------------------------------------------------------------------------------

def adts_frames(es):
    at = 0
    while at < len(es):
        if len(es) - at < 7 or es[at] != 0xFF or es[at + 1] & 0xF6 != 0xF0:
            raise SystemExit("not an ADTS frame at byte %d of an audio PES" % at)
        header = 7 if es[at + 1] & 1 else 9
        length = ((es[at + 3] & 3) << 11) | (es[at + 4] << 3) | (es[at + 5] >> 5)
        if length < header or at + length > len(es):
            raise SystemExit("bad ADTS frame length %d at byte %d" % (length, at))
        yield at, header, length
        at += length


def crypt_audio(es, crypt, stats=None):
    out = bytearray(es)
    for at, header, length in adts_frames(es):
        start = at + header + 16
        blocks = max(0, (at + length - start) // 16)
        if blocks:
            out[start:start + 16 * blocks] = crypt(es[start:start + 16 * blocks])
        if stats is not None:
            stats["adtsFrames"] += 1
    return bytes(out)


def audio_setup_information(es):
    """Apple's audio setup information for AAC: 'zaac', priming, version, the
    AudioSpecificConfig of the first ADTS frame."""
    profile = es[2] >> 6
    rate_index = (es[2] >> 2) & 0xF
    channels = ((es[2] & 1) << 2) | (es[3] >> 6)
    config = struct.pack(">H", ((profile + 1) << 11) | (rate_index << 7) | (channels << 3))
    return b"zaac" + struct.pack(">HBB", 0, 0, len(config)) + config


# --- MPEG-TS -------------------------------------------------------------------------------

def crc32_mpeg(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if crc & 0x80000000 else (crc << 1) & 0xFFFFFFFF
    return crc


def parse_packet(packet):
    if packet[0] != 0x47:
        raise SystemExit("lost TS sync")
    pusi = bool(packet[1] & 0x40)
    pid = ((packet[1] & 0x1F) << 8) | packet[2]
    control = (packet[3] >> 4) & 3
    cc = packet[3] & 0xF
    at = 4
    adaptation = b""
    if control & 2:
        adaptation = packet[5:5 + packet[4]]
        at = 5 + packet[4]
    payload = packet[at:] if control & 1 else b""
    return pusi, pid, cc, adaptation, payload


def rewrite_pmt(payload, audio_setup):
    """The PMT section with SAMPLE-AES stream types and descriptors, in one TS payload."""
    pointer = payload[0]
    section = payload[1 + pointer:]
    length = ((section[1] & 0xF) << 8) | section[2]
    section = section[:3 + length]
    program_info_length = ((section[10] & 0xF) << 8) | section[11]
    head = bytearray(section[3:12 + program_info_length])
    at = 12 + program_info_length
    end = len(section) - 4
    streams = bytearray()
    while at < end:
        stream_type = section[at]
        pid_bytes = section[at + 1:at + 3]
        es_info_length = ((section[at + 3] & 0xF) << 8) | section[at + 4]
        descriptors = bytearray(section[at + 5:at + 5 + es_info_length])
        if stream_type == 0x1B:
            descriptors += b"\x0f\x04zavc"
        elif stream_type == 0x0F:
            descriptors += b"\x0f\x04aacd"
            registration = b"apad" + audio_setup
            descriptors += bytes([0x05, len(registration)]) + registration
        else:
            raise SystemExit("unexpected stream type 0x%02x in the PMT" % stream_type)
        streams += bytes([SENC_STREAM_TYPES[stream_type]]) + pid_bytes
        streams += struct.pack(">H", 0xF000 | len(descriptors)) + descriptors
        at += 5 + es_info_length
    body = head + streams
    new_length = len(body) + 4
    new = bytearray([section[0], 0xB0 | (new_length >> 8), new_length & 0xFF]) + body
    new += struct.pack(">I", crc32_mpeg(new))
    out = bytes([0]) + bytes(new)
    if len(out) > 184:
        raise SystemExit("the PMT does not fit one TS packet")
    return out + b"\xff" * (184 - len(out))


def packetize(pid, pes, first_adaptation, cc):
    """TS packets carrying `pes`; the first keeps the original adaptation field's flags and
    PCR; the last is filled up with adaptation field stuffing."""
    packets = []
    at = 0
    first = True
    while at < len(pes) or first:
        flags = first_adaptation[:7] if first and first_adaptation else b""
        if flags and flags[0] & 0x10 == 0:
            flags = flags[:1]  # no PCR: the flags byte only
        space = 184 - (1 + len(flags) if flags else 0)
        chunk = pes[at:at + space]
        stuffing = space - len(chunk)
        if flags:
            adaptation = bytes([len(flags) + stuffing]) + flags + b"\xff" * stuffing
        elif stuffing == 1:
            adaptation = b"\x00"
        elif stuffing > 1:
            adaptation = bytes([stuffing - 1, 0]) + b"\xff" * (stuffing - 2)
        else:
            adaptation = b""
        header = struct.pack(">BHB", 0x47, (0x4000 if first else 0) | pid,
                             (0x30 if adaptation else 0x10) | cc)
        packet = header + adaptation + chunk
        assert len(packet) == 188
        packets.append(packet)
        cc = (cc + 1) & 0xF
        at += len(chunk)
        first = False
    return packets, cc


def pes_payload_offset(pes):
    if pes[:3] != b"\x00\x00\x01":
        raise SystemExit("PES without a start code")
    return 9 + pes[8]


def rewrite_segment(data, crypt_video, crypt_audio_frames, stats, audio_setup=None):
    """The segment with each PES of the video and audio PIDs passed through the given
    functions (and, when `audio_setup` is given, the PMT rewritten for SAMPLE-AES)."""
    packets = [data[i:i + 188] for i in range(0, len(data), 188)]
    pmt_pid = None
    pes = {}            # pid -> list of (index of first packet, adaptation, bytes)
    order = []
    for index, packet in enumerate(packets):
        pusi, pid, cc, adaptation, payload = parse_packet(packet)
        if pid in (VIDEO_PID, AUDIO_PID):
            if pusi:
                pes.setdefault(pid, []).append([index, adaptation, bytearray(payload), cc])
                order.append(("pes", pid, len(pes[pid]) - 1))
            else:
                pes[pid][-1][2] += payload
        else:
            if pid == 0 and pusi:
                pmt_pid = ((payload[1 + payload[0] + 10] & 0x1F) << 8) | payload[1 + payload[0] + 11]
            order.append(("psi", index))
    out = bytearray()
    counters = {}
    for item in order:
        if item[0] == "psi":
            packet = packets[item[1]]
            pusi, pid, cc, adaptation, payload = parse_packet(packet)
            if pid == pmt_pid and audio_setup is not None:
                packet = packet[:4] + rewrite_pmt(payload, audio_setup)
                packet = bytes([packet[0], packet[1], packet[2], 0x10 | cc]) + packet[4:]
            out += packet
            continue
        _, pid, number = item
        index, adaptation, body, cc = pes[pid][number]
        body = bytes(body)
        offset = pes_payload_offset(body)
        es = body[offset:]
        es = crypt_video(es) if pid == VIDEO_PID else crypt_audio_frames(es)
        header = bytearray(body[:offset])
        if header[4] or header[5]:
            length = len(header) - 6 + len(es)
            if length > 0xFFFF:
                raise SystemExit("PES too long")
            header[4:6] = struct.pack(">H", length)
        cc = counters.get(pid, cc)
        new_packets, counters[pid] = packetize(pid, bytes(header) + es, adaptation, cc)
        for packet in new_packets:
            out += packet
    return bytes(out)


# --- playlist, checks and the manifest ---------------------------------------------------

def read_playlist(path):
    lines = [line.strip() for line in open(path) if line.strip()]
    segments = []
    duration = None
    for line in lines:
        if line.startswith("#EXTINF:"):
            duration = float(line[len("#EXTINF:"):].split(",")[0])
        elif not line.startswith("#"):
            segments.append((line, duration))
    return lines, segments


def video_streams(data):
    """The elementary stream bytes of each video PES of a TS segment."""
    streams = []
    for i in range(0, len(data), 188):
        pusi, pid, _, _, payload = parse_packet(data[i:i + 188])
        if pid != VIDEO_PID:
            continue
        if pusi:
            streams.append(bytearray(payload))
        elif streams:
            streams[-1] += payload
    return [bytes(pes[pes_payload_offset(pes):]) for pes in streams]


def find_iv(segments):
    """The first IV of the series SHA-256(IV_SERIES + n), n = 0, 1, ..., whose encryption of
    the video of `segments` (TS bytes) needs at least one emulation prevention byte."""
    streams = [es for data in segments for es in video_streams(data)]
    for n in range(100000):
        iv = hashlib.sha256(IV_SERIES + str(n).encode()).digest()[:16]
        stats = {"encryptedNALUnits": 0, "clearSliceNALUnits": 0,
                 "emulationPreventionBytesAdded": 0}
        for es in streams:
            encrypt_video(es, KEY, iv, stats)
        if stats["emulationPreventionBytesAdded"]:
            return iv
    raise SystemExit("no IV in the series makes an encrypted block emulate a start code")


IV = None


def segment_key(sequence):
    if sequence < REKEY_SEQUENCE:
        return KEY, IV, "key.bin", True
    return KEY2, struct.pack(">QQ", 0, sequence), "key2.bin", False


def decoded_md5s(path, extra=()):
    """{stream: [(size, md5) of each decoded frame, in output order]} of what ffmpeg decodes
    from `path` (a TS file or a playlist)."""
    result = run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error"] + list(extra)
                 + ["-i", path, "-map", "0", "-c:a", "pcm_s16le", "-fps_mode", "passthrough",
                    "-f", "framemd5", "-"], capture_output=True, text=True)
    frames = {}
    for line in result.stdout.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fields = [f.strip() for f in line.split(",")]
        frames.setdefault(int(fields[0]), []).append((int(fields[4]), fields[5]))
    return frames


def cross_check(entry, work):
    """ffmpeg's hls demuxer decrypts the segment to the frames ffmpeg decodes from its clear
    copy. The segment is listed twice under its key and IV: ffmpeg's hls demuxer decrypts a
    packet with the key of the segment it is reading when the packet leaves the TS demuxer,
    which for the last video packets of a segment (held until the next PES starts) is the
    next segment, or none at the end of the playlist. Only the first copy's frames count."""
    clear = decoded_md5s(os.path.join(OUT, entry["clearURI"]))
    playlist = os.path.join(work, "check.m3u8")
    key_line = '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="%s",IV=0x%s' % (
        os.path.join(OUT, entry["keyURI"]), entry["ivHex"])
    segment = os.path.join(OUT, entry["uri"])
    with open(playlist, "w") as f:
        f.write("\n".join(["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2",
                           "#EXT-X-MEDIA-SEQUENCE:%d" % entry["sequenceNumber"],
                           "#EXT-X-PLAYLIST-TYPE:VOD", key_line,
                           "#EXTINF:1.0,", segment, "#EXTINF:1.0,", segment,
                           "#EXT-X-ENDLIST"]) + "\n")
    decrypted = decoded_md5s(playlist, ["-allowed_extensions", "ALL"])
    for stream, frames in clear.items():
        got = decrypted.get(stream, [])[:len(frames)]
        if got != frames:
            differing = sum(1 for a, b in zip(frames, got) if a != b)
            raise SystemExit("%s: ffmpeg's hls demuxer decrypts stream %d to different frames "
                             "(%d of %d differ, %d decoded)"
                             % (entry["uri"], stream, differing, len(frames), len(got)))
    return {stream: len(frames) for stream, frames in clear.items()}


def probe_streams(playlist):
    """ffprobe's view of the decrypted playlist's streams, frames counted."""
    info = json.loads(run(
        ["ffprobe", "-v", "error", "-allowed_extensions", "ALL", "-count_frames", "-of", "json",
         "-show_streams", playlist], capture_output=True, text=True).stdout)
    streams = []
    for s in info["streams"]:
        stream = {"index": s["index"], "codecType": s["codec_type"],
                  "codecName": s.get("codec_name"), "profile": s.get("profile"),
                  "timeBase": s.get("time_base"), "nbReadFrames": int(s["nb_read_frames"])}
        if s["codec_type"] == "video":
            stream.update({"width": s["width"], "height": s["height"],
                           "pixelFormat": s.get("pix_fmt"), "rFrameRate": s.get("r_frame_rate")})
        elif s["codec_type"] == "audio":
            stream.update({"sampleRate": int(s["sample_rate"]), "channels": s["channels"]})
        streams.append({k: v for k, v in stream.items() if v is not None})
    return streams


def main():
    for tool in ("ffmpeg", "ffprobe"):
        if shutil.which(tool) is None:
            raise SystemExit("make-sample-aes-fixture: '%s' is required" % tool)
    shutil.rmtree(OUT, ignore_errors=True)
    clear = os.path.join(OUT, "clear")
    make_clear_source(clear)
    for name, key in (("key.bin", KEY), ("key2.bin", KEY2), ("wrong-key.bin", WRONG_KEY)):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(key)

    lines, segments = read_playlist(os.path.join(clear, "index.m3u8"))
    global IV
    IV = find_iv([open(os.path.join(clear, uri), "rb").read()
                  for number, (uri, _) in enumerate(segments)
                  if FIRST_SEQUENCE + number < REKEY_SEQUENCE])
    playlist = []
    sequence = FIRST_SEQUENCE
    entries = []
    for line in lines:
        if line.startswith("#EXTINF:"):
            key, iv, key_uri, explicit = segment_key(sequence)
            if sequence == FIRST_SEQUENCE:
                playlist.append('#EXT-X-KEY:METHOD=SAMPLE-AES,URI="key.bin",IV=0x%s' % IV.hex())
            elif sequence == REKEY_SEQUENCE:
                playlist.append('#EXT-X-KEY:METHOD=SAMPLE-AES,URI="key2.bin"')
            sequence += 1
        playlist.append(line)
    with open(os.path.join(OUT, "index.m3u8"), "w") as f:
        f.write("\n".join(playlist) + "\n")

    for number, (uri, duration) in enumerate(segments):
        sequence = FIRST_SEQUENCE + number
        key, iv, key_uri, explicit = segment_key(sequence)
        data = open(os.path.join(clear, uri), "rb").read()
        stats = {"encryptedNALUnits": 0, "clearSliceNALUnits": 0,
                 "emulationPreventionBytesAdded": 0, "adtsFrames": 0}
        first_audio = None
        for i in range(0, len(data), 188):
            pusi, pid, _, _, payload = parse_packet(data[i:i + 188])
            if pid == AUDIO_PID and pusi:
                first_audio = payload[pes_payload_offset(payload):]
                break
        encrypted = rewrite_segment(
            data, lambda es: encrypt_video(es, key, iv, stats),
            lambda es: crypt_audio(es, lambda d: cbc_encrypt(key, iv, d), stats), stats,
            audio_setup=audio_setup_information(first_audio))
        with open(os.path.join(OUT, uri), "wb") as f:
            f.write(encrypted)
        entry = {"uri": uri, "clearURI": "clear/" + uri, "sequenceNumber": sequence,
                 "durationSeconds": duration, "sizeBytes": len(encrypted), "keyURI": key_uri,
                 "keyHex": key.hex(), "ivHex": iv.hex(), "explicitIV": explicit}
        entry.update(stats)
        entries.append(entry)

    # ffmpeg's own SAMPLE-AES reader must decode what the clear segments decode to.
    video_frames = audio_frames = 0
    with tempfile.TemporaryDirectory() as work:
        for entry in entries:
            counts = cross_check(entry, work)
            entry["videoFrameCount"], entry["audioFrameCount"] = counts[0], counts[1]
            video_frames += counts[0]
            audio_frames += counts[1]
    if sum(e["emulationPreventionBytesAdded"] for e in entries) == 0:
        raise SystemExit("no emulation prevention byte was added: the fixture does not cover it")

    # A wrong key gives frames that ffmpeg's decoders refuse with -err_detect explode.
    with tempfile.TemporaryDirectory() as work:
        wrong = os.path.join(work, "wrong.ts")
        first = entries[0]
        data = open(os.path.join(OUT, first["uri"]), "rb").read()
        stats = {"adtsFrames": 0}
        iv = bytes.fromhex(first["ivHex"])
        garbage = rewrite_segment(
            data, lambda es: decrypt_video(es, WRONG_KEY, iv),
            lambda es: crypt_audio(es, lambda d: cbc_decrypt(WRONG_KEY, iv, d)), stats)
        open(wrong, "wb").write(garbage)
        for stream in ("v:0", "a:0"):
            result = subprocess.run(
                ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-err_detect",
                 "explode", "-i", wrong, "-map", "0:" + stream, "-f", "null", "-"],
                capture_output=True, text=True)
            if not result.stderr.strip():
                raise SystemExit("wrong-key decryption of %s decodes cleanly" % stream)

    manifest_path = os.path.join(FIXTURES, "manifest.json")
    manifest = json.load(open(manifest_path))
    manifest["files"] = [f for f in manifest["files"] if not f["name"].startswith(NAME + "/")]
    manifest["files"].append({
        "name": NAME + "/index.m3u8",
        "opens": True,
        "container": "hls",
        "sizeBytes": os.path.getsize(os.path.join(OUT, "index.m3u8")),
        "description": "HLS SAMPLE-AES (MPEG-TS): 192x108 testsrc2 H.264 (stream type 0xdb) and "
                       "stereo AAC-LC 48 kHz ADTS (0xcf, 'apad' audio setup information), three "
                       "1 s segments, media sequence 5-7; 5-6 key.bin (%s) with IV 0x%s, 7 "
                       "key2.bin (%s) with the media sequence number as IV; clear/ holds the "
                       "segments before encryption; wrong-key.bin (%s) is no key of it. "
                       "Written by scripts/make-sample-aes-fixture.py; ffmpeg's hls demuxer "
                       "decrypts it to the clear frames (framemd5)"
                       % (KEY.hex(), IV.hex(), KEY2.hex(), WRONG_KEY.hex()),
        "segments": entries,
        "videoFrameCount": video_frames,
        "audioFrameCount": audio_frames,
        "streams": probe_streams(os.path.join(OUT, "index.m3u8")),
    })
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")
    print("%s: %d segments, %d video and %d audio frames; ffmpeg's hls demuxer agrees"
          % (NAME, len(entries), video_frames, audio_frames))


if __name__ == "__main__":
    main()
