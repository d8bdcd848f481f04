#!/usr/bin/env python3
"""Encrypts the samples of a clear fragmented MP4 with ISO/IEC 23001-7 Common Encryption.

Usage: cenc_encrypt.py SCHEME CLEAR.mp4 OUT.mp4

SCHEME is one of:
  cenc  AES-CTR, 8-byte per-sample IVs, one key ID for every track (CENC_KID / CENC_KEY),
        so that ffmpeg's own `-decryption_key` can check the result too.
  cbcs  AES-CBC with the 1:9 pattern (one 16-byte block encrypted, nine clear) and a
        constant IV (CBCS_IV) in a version 1 `tenc`; the video track uses VIDEO_KID /
        VIDEO_KEY, the audio track AUDIO_KID / AUDIO_KEY.

The input is what ffmpeg writes with `-movflags +frag_keyframe+empty_moov+default_base_moof`:
one `moov` whose sample entries are `avc1` (H.264, length-prefixed NAL units) and `mp4a`,
then `moof`/`mdat` pairs. The output has the same samples, encrypted in place in `mdat`:

- video: one subsample per NAL unit. Slice NAL units (types 1 and 5) keep their length
  field and NAL header clear and encrypt the rest (`cenc`: the protected part is a whole
  number of 16-byte blocks, the remainder joins the clear part; `cbcs`: the pattern runs
  from the first byte after the header, a trailing partial block stays clear). Other NAL
  units (SEI, SPS, PPS, AUD) stay wholly clear.
- audio: the whole sample is protected (`cenc`: the key stream over the whole sample;
  `cbcs`: the 1:9 pattern over the sample, its trailing partial block clear).

Each sample entry becomes `encv`/`enca` with a `sinf` (`frma`, `schm`, `schi`/`tenc`); each
`traf` gains `senc` (per-sample IVs for `cenc`, none for `cbcs`; subsamples for video),
`saiz` and `saio` (pointing at the `senc` entries, relative to the `moof`), and every
`trun` data offset moves by the bytes added to its `moof`.

Before writing, the script reads the output back with an independent parser and decrypts
every sample with the `cryptography` package's AES decryptors, and fails unless it gets the
clear samples back byte for byte. Everything is deterministic: fixed keys, key IDs and IVs.
"""

import hashlib
import struct
import sys

try:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
except ImportError:  # make-cenc-fixtures.sh installs it into a venv when it is missing
    sys.exit("cenc_encrypt.py: the Python 'cryptography' package is required")

# The fixed keys. Tests and docs/encryption.md name the same values.
CENC_KID = bytes.fromhex("0123456789abcdef0123456789abcdef")
CENC_KEY = bytes.fromhex("00112233445566778899aabbccddeeff")
VIDEO_KID = bytes.fromhex("a1b2c3d4e5f60718293a4b5c6d7e8f90")
VIDEO_KEY = bytes.fromhex("3c4fcfd8a1b6e2a7d1e0f9c8b7a69584")
AUDIO_KID = bytes.fromhex("f0e1d2c3b4a5968778695a4b3c2d1e0f")
AUDIO_KEY = bytes.fromhex("6a1c9e0b2d4f8a7c5e3b1d9f0a2c4e6b")
CBCS_IV = bytes.fromhex("9f8e7d6c5b4a39281706f5e4d3c2b1a0")
CRYPT_BLOCKS, SKIP_BLOCKS = 1, 9
# 8-byte cenc IVs: the first 8 bytes of SHA-256("playhead-cenc-iv:<track>:<sample>").
IV_SEED = b"playhead-cenc-iv"

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"moof", b"traf", b"mvex",
              b"dinf", b"edts", b"udta", b"sinf", b"schi"}
VIDEO_ENTRY_FIXED = 78  # VisualSampleEntry fields before its child boxes
AUDIO_ENTRY_FIXED = 28  # AudioSampleEntry (version 0) fields before its child boxes


class Box:
    """One box: a container keeps children, a leaf its payload (after the 8-byte header)."""

    def __init__(self, kind, payload=b"", children=None, prefix=b""):
        self.kind = kind
        self.payload = payload
        self.children = children
        self.prefix = prefix  # a sample entry's fixed fields, or stsd's version and count

    def serialize(self):
        if self.children is None:
            body = self.payload
        else:
            body = self.prefix + b"".join(child.serialize() for child in self.children)
        return struct.pack(">I4s", 8 + len(body), self.kind) + body

    def find(self, kind):
        return [child for child in self.children or [] if child.kind == kind]

    def first(self, kind):
        found = self.find(kind)
        if not found:
            raise SystemExit("cenc_encrypt.py: no %s box in %s" % (kind, self.kind))
        return found[0]


def parse_boxes(data, start, end):
    boxes, offset = [], start
    while offset < end:
        if offset + 8 > end:
            raise SystemExit("cenc_encrypt.py: truncated box at %d" % offset)
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if size < 8 or offset + size > end:
            raise SystemExit("cenc_encrypt.py: box %s at %d has size %d" % (kind, offset, size))
        box = parse_box(kind, data[offset + 8:offset + size])
        box.original_size = size
        boxes.append(box)
        offset += size
    return boxes


def parse_box(kind, body):
    if kind in CONTAINERS:
        return Box(kind, children=parse_boxes(body, 0, len(body)))
    if kind == b"stsd":
        return Box(kind, prefix=body[:8], children=parse_boxes(body, 8, len(body)))
    fixed = {b"avc1": VIDEO_ENTRY_FIXED, b"encv": VIDEO_ENTRY_FIXED,
             b"mp4a": AUDIO_ENTRY_FIXED, b"enca": AUDIO_ENTRY_FIXED}.get(kind)
    if fixed is not None:
        if kind in (b"mp4a", b"enca") and body[8:10] != b"\0\0":
            raise SystemExit("cenc_encrypt.py: only version 0 audio sample entries")
        return Box(kind, prefix=body[:fixed], children=parse_boxes(body, fixed, len(body)))
    return Box(kind, payload=body)


def full_box(kind, version, flags, body):
    return Box(kind, payload=struct.pack(">I", (version << 24) | flags) + body)


# --- track facts --------------------------------------------------------------------------

class Track:
    def __init__(self, trak):
        self.track_id = struct.unpack(">I", trak.first(b"tkhd").payload[12:16])[0]
        mdia = trak.first(b"mdia")
        self.handler = mdia.first(b"hdlr").payload[8:12]
        stsd = mdia.first(b"minf").first(b"stbl").first(b"stsd")
        self.entry = stsd.children[0]
        self.nal_length_size = 0
        if self.handler == b"vide":
            if self.entry.kind != b"avc1":
                raise SystemExit("cenc_encrypt.py: video must be avc1, not %s" % self.entry.kind)
            avcc = self.entry.first(b"avcC").payload
            self.nal_length_size = (avcc[4] & 3) + 1
        elif self.handler == b"soun":
            if self.entry.kind != b"mp4a":
                raise SystemExit("cenc_encrypt.py: audio must be mp4a, not %s" % self.entry.kind)
        else:
            raise SystemExit("cenc_encrypt.py: unexpected handler %s" % self.handler)
        self.default_sample_size = 0

    def kid_and_key(self, scheme):
        if scheme == "cenc":
            return CENC_KID, CENC_KEY
        return (VIDEO_KID, VIDEO_KEY) if self.handler == b"vide" else (AUDIO_KID, AUDIO_KEY)


def protect_sample_entry(track, scheme):
    """Renames avc1/mp4a to encv/enca and appends sinf (frma, schm, schi/tenc)."""
    kid, _ = track.kid_and_key(scheme)
    original = track.entry.kind
    if scheme == "cenc":
        tenc = full_box(b"tenc", 0, 0, bytes([0, 0, 1, 8]) + kid)
    else:
        pattern = (CRYPT_BLOCKS << 4) | SKIP_BLOCKS
        tenc = full_box(b"tenc", 1, 0, bytes([0, pattern, 1, 0]) + kid + bytes([16]) + CBCS_IV)
    sinf = Box(b"sinf", children=[
        Box(b"frma", payload=original),
        full_box(b"schm", 0, 0, scheme.encode() + struct.pack(">I", 0x00010000)),
        Box(b"schi", children=[tenc]),
    ])
    track.entry.kind = b"encv" if original == b"avc1" else b"enca"
    track.entry.children.append(sinf)


# --- fragments ----------------------------------------------------------------------------

def parse_tfhd(payload):
    flags = struct.unpack(">I", payload[:4])[0] & 0xFFFFFF
    track_id = struct.unpack(">I", payload[4:8])[0]
    if flags & 0x000001:
        raise SystemExit("cenc_encrypt.py: tfhd with an explicit base data offset")
    if not flags & 0x020000:
        raise SystemExit("cenc_encrypt.py: the input needs -movflags default_base_moof")
    at, default_size = 8, None
    for bit, width in ((0x02, 4), (0x08, 4), (0x10, 4), (0x20, 4)):
        if flags & bit:
            if bit == 0x10:
                default_size = struct.unpack(">I", payload[at:at + 4])[0]
            at += width
    return track_id, default_size


def parse_trun(payload, default_size):
    """The trun's data offset, where it sits in the payload, and its sample sizes."""
    flags = struct.unpack(">I", payload[:4])[0] & 0xFFFFFF
    count = struct.unpack(">I", payload[4:8])[0]
    at = 8
    if not flags & 0x001:
        raise SystemExit("cenc_encrypt.py: trun without a data offset")
    offset_at = at
    data_offset = struct.unpack(">i", payload[at:at + 4])[0]
    at += 4
    if flags & 0x004:
        at += 4
    sizes = []
    for _ in range(count):
        if flags & 0x100:
            at += 4
        if flags & 0x200:
            sizes.append(struct.unpack(">I", payload[at:at + 4])[0])
            at += 4
        else:
            sizes.append(default_size)
        if flags & 0x400:
            at += 4
        if flags & 0x800:
            at += 4
    if None in sizes:
        raise SystemExit("cenc_encrypt.py: a sample without a size")
    return data_offset, offset_at, sizes


def nal_units(sample, length_size):
    """(start, total length including the length field, NAL type) of each NAL unit."""
    units, at = [], 0
    while at < len(sample):
        length = int.from_bytes(sample[at:at + length_size], "big")
        end = at + length_size + length
        if length == 0 or end > len(sample):
            raise SystemExit("cenc_encrypt.py: malformed NAL unit at %d" % at)
        units.append((at, length_size + length, sample[at + length_size] & 0x1F))
        at = end
    return units


def video_subsamples(sample, length_size, scheme):
    """[(clear, protected)] for one sample; clear runs are merged and split at 65535."""
    pairs, clear = [], 0
    for _, total, nal_type in nal_units(sample, length_size):
        head = length_size + 1
        if nal_type not in (1, 5) or total - head < 16:
            clear += total
            continue
        protected = total - head
        if scheme == "cenc":
            protected -= protected % 16
        clear += total - protected
        while clear > 0xFFFF:
            pairs.append((0xFFFF, 0))
            clear -= 0xFFFF
        pairs.append((clear, protected))
        clear = 0
    if clear or not pairs:
        while clear > 0xFFFF:
            pairs.append((0xFFFF, 0))
            clear -= 0xFFFF
        pairs.append((clear, 0))
    return pairs


def cenc_iv(track_id, index):
    return hashlib.sha256(IV_SEED + b":%d:%d" % (track_id, index)).digest()[:8]


def ctr_keystream_apply(key, iv, data):
    """AES-CTR over data with the 16-byte counter block iv (8-byte IVs are zero-padded)."""
    counter = iv + bytes(16 - len(iv))
    return Cipher(algorithms.AES(key), modes.CTR(counter)).encryptor().update(data)


def cbcs_apply(key, iv, data, encrypt):
    """The 1:9 pattern over one protected range; the CBC chain runs over its crypt blocks."""
    out = bytearray(data)
    cipher = Cipher(algorithms.AES(key), modes.CBC(iv))
    worker = cipher.encryptor() if encrypt else cipher.decryptor()
    at = 0
    while len(data) - at >= 16:
        crypt = min(CRYPT_BLOCKS * 16, (len(data) - at) // 16 * 16)
        out[at:at + crypt] = worker.update(bytes(data[at:at + crypt]))
        at += crypt + SKIP_BLOCKS * 16
    return bytes(out)


def transform_sample(sample, pairs, key, iv, scheme, encrypt):
    """Encrypts or decrypts the protected ranges of one sample; returns the new bytes."""
    out = bytearray(sample)
    ranges, at = [], 0
    for clear, protected in pairs:
        at += clear
        ranges.append((at, protected))
        at += protected
    if at != len(sample):
        raise SystemExit("cenc_encrypt.py: subsamples cover %d of %d bytes" % (at, len(sample)))
    if scheme == "cenc":
        joined = b"".join(bytes(sample[s:s + n]) for s, n in ranges)
        done = ctr_keystream_apply(key, iv, joined)
        used = 0
        for start, count in ranges:
            out[start:start + count] = done[used:used + count]
            used += count
    else:
        for start, count in ranges:
            out[start:start + count] = cbcs_apply(key, iv, bytes(sample[start:start + count]),
                                                  encrypt)
    return bytes(out)


def encryption_boxes(entries, with_subsamples, iv_size):
    """senc, saiz and a saio whose offset is filled in once the moof is laid out."""
    flags = 0x2 if with_subsamples else 0
    body = struct.pack(">I", len(entries))
    sizes = []
    for iv, pairs in entries:
        entry = iv
        if with_subsamples:
            entry += struct.pack(">H", len(pairs))
            entry += b"".join(struct.pack(">HI", c, p) for c, p in pairs)
        sizes.append(len(entry))
        body += entry
    senc = full_box(b"senc", 0, flags, body)
    if len(set(sizes)) == 1:
        saiz = full_box(b"saiz", 0, 0, struct.pack(">BI", sizes[0], len(sizes)))
    else:
        saiz = full_box(b"saiz", 0, 0, struct.pack(">BI", 0, len(sizes)) + bytes(sizes))
    saio = full_box(b"saio", 0, 0, struct.pack(">II", 1, 0))
    return senc, saiz, saio


def encrypt_file(data, scheme):
    boxes = parse_boxes(data, 0, len(data))
    moov = next(b for b in boxes if b.kind == b"moov")
    tracks = {t.track_id: t for t in (Track(trak) for trak in moov.find(b"trak"))}
    for trex in moov.first(b"mvex").find(b"trex"):
        track_id, _, _, default_size = struct.unpack(">IIII", trex.payload[4:20])
        tracks[track_id].default_sample_size = default_size
    for track in tracks.values():
        protect_sample_entry(track, scheme)
    clear_samples = {track_id: [] for track_id in tracks}
    counters = {track_id: 0 for track_id in tracks}
    out = bytearray()
    # Positions are tracked in the input; each moof is re-laid out with its new boxes.
    offset, index = 0, 0
    while index < len(boxes):
        box = boxes[index]
        if box.kind != b"moof":
            if box.kind == b"moov":
                out += box.serialize()
            else:
                out += data[offset:offset + box.original_size]
            offset += box.original_size
            index += 1
            continue
        original = box.serialize()
        if len(original) != box.original_size:
            raise SystemExit("cenc_encrypt.py: a moof does not serialize to its own size")
        moof_start = offset
        mdat = bytearray(data[offset + len(original):])  # the rest; the mdat comes first
        mdat_size = struct.unpack(">I", mdat[:4])[0]
        if mdat[4:8] != b"mdat":
            raise SystemExit("cenc_encrypt.py: a moof not followed by its mdat")
        mdat = mdat[:mdat_size]
        mdat_start = moof_start + len(original)
        additions = []
        for traf in box.find(b"traf"):
            track_id, tfhd_size = parse_tfhd(traf.first(b"tfhd").payload)
            track = tracks[track_id]
            kid, key = track.kid_and_key(scheme)
            entries = []
            for trun in traf.find(b"trun"):
                data_offset, _, sizes = parse_trun(trun.payload,
                                                   tfhd_size or track.default_sample_size)
                at = moof_start + data_offset - mdat_start
                for size in sizes:
                    sample = bytes(mdat[at:at + size])
                    clear_samples[track_id].append(sample)
                    if track.handler == b"vide":
                        pairs = video_subsamples(sample, track.nal_length_size, scheme)
                    else:
                        pairs = [(0, size)]
                    iv = cenc_iv(track_id, counters[track_id]) if scheme == "cenc" else CBCS_IV
                    counters[track_id] += 1
                    mdat[at:at + size] = transform_sample(sample, pairs, key, iv, scheme, True)
                    entries.append((iv if scheme == "cenc" else b"",
                                    pairs if track.handler == b"vide" else None))
                    at += size
            senc, saiz, saio = encryption_boxes(
                entries, track.handler == b"vide", 8 if scheme == "cenc" else 0)
            traf.children += [senc, saiz, saio]
            additions.append((traf, senc, saio))
        growth = len(box.serialize()) - len(original)
        for traf in box.find(b"traf"):
            for trun in traf.find(b"trun"):
                data_offset, offset_at, _ = parse_trun(trun.payload, 0)
                trun.payload = (trun.payload[:offset_at]
                                + struct.pack(">i", data_offset + growth)
                                + trun.payload[offset_at + 4:])
        # saio: the offset of the senc's first entry (after its header and sample count).
        laid_out = box.serialize()
        for traf, senc, saio in additions:
            marker = senc.serialize()
            at = laid_out.find(marker)
            if at < 0 or laid_out.find(marker, at + 1) >= 0:
                raise SystemExit("cenc_encrypt.py: cannot place a senc box")
            saio.payload = saio.payload[:8] + struct.pack(">I", at + 16)
        out += box.serialize() + mdat
        offset += len(original) + mdat_size
        index += 2
        if boxes[index - 1].kind != b"mdat":
            raise SystemExit("cenc_encrypt.py: a moof not followed by its mdat")
    return bytes(out), clear_samples


# --- the independent check ----------------------------------------------------------------

def read_u32(data, at):
    return struct.unpack(">I", data[at:at + 4])[0]


def check_file(encrypted, clear_samples, scheme):
    """Parses `encrypted` afresh and decrypts every sample; it must give the clear ones."""
    keys = {CENC_KID: CENC_KEY, VIDEO_KID: VIDEO_KEY, AUDIO_KID: AUDIO_KEY}
    boxes = parse_boxes(encrypted, 0, len(encrypted))
    moov = next(b for b in boxes if b.kind == b"moov")
    tenc_of = {}
    for trak in moov.find(b"trak"):
        track_id = read_u32(trak.first(b"tkhd").payload, 12)
        entry = trak.first(b"mdia").first(b"minf").first(b"stbl").first(b"stsd").children[0]
        sinf = entry.first(b"sinf")
        if sinf.first(b"schm").payload[4:8] != scheme.encode():
            raise SystemExit("check: wrong scheme in schm")
        tenc = sinf.first(b"schi").first(b"tenc").payload
        iv_size = tenc[7]
        kid = tenc[8:24]
        constant_iv = tenc[25:25 + tenc[24]] if iv_size == 0 else None
        tenc_of[track_id] = (kid, iv_size, constant_iv, (tenc[5] >> 4, tenc[5] & 15))
    decrypted = {track_id: [] for track_id in tenc_of}
    still_encrypted = {track_id: 0 for track_id in tenc_of}
    offset = 0
    for box in boxes:
        size = len(box.serialize())
        if box.kind == b"moof":
            moof_start = offset
            for traf in box.find(b"traf"):
                track_id, default_size = parse_tfhd(traf.first(b"tfhd").payload)
                kid, iv_size, constant_iv, pattern = tenc_of[track_id]
                if scheme == "cbcs" and pattern != (CRYPT_BLOCKS, SKIP_BLOCKS):
                    raise SystemExit("check: tenc pattern is %s" % (pattern,))
                senc = traf.first(b"senc").payload
                saio_offset = read_u32(traf.first(b"saio").payload, 8)
                if encrypted[moof_start + saio_offset - 4:moof_start + saio_offset] \
                        != senc[4:8]:
                    raise SystemExit("check: saio does not point at the senc entries")
                flags = read_u32(senc, 0) & 0xFFFFFF
                at = 8
                samples = []
                for trun in traf.find(b"trun"):
                    data_offset, _, sizes = parse_trun(trun.payload, default_size or 0)
                    position = moof_start + data_offset
                    for sample_size in sizes:
                        samples.append(encrypted[position:position + sample_size])
                        position += sample_size
                for sample in samples:
                    iv = senc[at:at + iv_size] if iv_size else constant_iv
                    at += iv_size
                    pairs = [(0, len(sample))]
                    if flags & 2:
                        count = struct.unpack(">H", senc[at:at + 2])[0]
                        at += 2
                        pairs = [struct.unpack(">HI", senc[at + 6 * i:at + 6 * i + 6])
                                 for i in range(count)]
                        at += 6 * count
                    decrypted[track_id].append(
                        decrypt_sample(sample, pairs, keys[kid], iv, scheme))
                    still_encrypted[track_id] += decrypted[track_id][-1] != sample
        offset += size
    for track_id, samples in clear_samples.items():
        if decrypted[track_id] != samples:
            raise SystemExit("check: track %d does not decrypt back to its clear samples"
                             % track_id)
        if still_encrypted[track_id] < len(samples) // 2:
            raise SystemExit("check: track %d: only %d of %d samples were encrypted"
                             % (track_id, still_encrypted[track_id], len(samples)))
    return {track_id: len(samples) for track_id, samples in decrypted.items()}


def decrypt_sample(sample, pairs, key, iv, scheme):
    """Decrypts with cryptography's decryptors (CTR: the key stream; CBC: decryptor)."""
    out = bytearray(sample)
    at, ranges = 0, []
    for clear, protected in pairs:
        at += clear
        ranges.append((at, protected))
        at += protected
    if scheme == "cenc":
        joined = b"".join(sample[s:s + n] for s, n in ranges)
        counter = iv + bytes(16 - len(iv))
        clear = Cipher(algorithms.AES(key), modes.CTR(counter)).decryptor().update(joined)
        used = 0
        for start, count in ranges:
            out[start:start + count] = clear[used:used + count]
            used += count
    else:
        for start, count in ranges:
            out[start:start + count] = cbcs_apply(key, iv, sample[start:start + count], False)
    return bytes(out)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("cenc", "cbcs"):
        sys.exit(__doc__.split("\n\n")[1])
    scheme, source, target = sys.argv[1:]
    data = open(source, "rb").read()
    encrypted, clear_samples = encrypt_file(data, scheme)
    counts = check_file(encrypted, clear_samples, scheme)
    for track_id, samples in clear_samples.items():
        if sum(len(s) for s in samples) == 0:
            raise SystemExit("cenc_encrypt.py: track %d has no samples" % track_id)
    open(target, "wb").write(encrypted)
    print("cenc_encrypt.py: %s %s: %s samples decrypt back to the clear ones"
          % (scheme, target, ", ".join("track %d: %d" % kv for kv in sorted(counts.items()))))


if __name__ == "__main__":
    main()
