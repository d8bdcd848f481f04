import CFFmpeg
import Foundation
import PlayheadCore

/// Decrypts the packets of HLS `SAMPLE-AES` MPEG-TS segments as a demuxer reads them:
/// H.264 NAL units, AAC ADTS frames, AC-3 and E-AC-3 sync frames, per Apple's "MPEG-2
/// Stream Encryption Format for HTTP Live Streaming".
///
/// A demuxer run reads consecutive segments as one byte stream, and each segment has its
/// own key and IV (the `EXT-X-KEY`'s `IV`, or without one the segment's media sequence
/// number, `AES128.iv(mediaSequence:)`). So the decryptor holds a schedule: the engine calls
/// `addKey(_:iv:keyLabel:fromRunOffset:)` (or `addClear(fromRunOffset:)`) for each segment
/// at the run offset where its bytes start, before the demuxer reads them, and each packet
/// is decrypted with the entry its byte position falls in (a PES never spans segments).
/// Packets are decrypted in place; an H.264 packet shrinks by the emulation prevention
/// bytes that encryption added.
///
/// Every H.264, AAC, AC-3 and E-AC-3 stream is taken as encrypted (FFmpeg maps the
/// SAMPLE-AES stream types 0xdb, 0xcf, 0xc1, 0xc2 to these codecs); subtitle and data
/// streams (timed ID3) pass through; any other audio or video codec throws
/// `.unsupportedEncryption`. `.decryptionFailed` is thrown for bytes that are not what the
/// codec's format promises (no start code, an ADTS frame longer than its packet), for a
/// packet with no entry, and when `check` finds that the first decrypted samples of a key
/// do not decode: a wrong key or IV, named by the entry's `keyLabel`. The check counts per
/// stream and label, so a label per segment ("key.bin of segment 7") checks every segment.
///
/// Example (one segment, or a run under one key and IV):
/// ```swift
/// let demuxer = try Demuxer(reader: reader, formatHint: "mpegts", isSeekable: false)
/// let decryptor = SampleAESDecryptor(demuxer: demuxer)
/// try decryptor.addKey(key, iv: iv ?? AES128.iv(mediaSequence: 7),
///   keyLabel: "key https://cdn/k1.bin of segment 7", fromRunOffset: 0)
/// demuxer.packetDecryptor = decryptor
/// while let packet = try demuxer.readPacket() { … }   // decrypted packets
/// ```
public final class SampleAESDecryptor: PacketDecrypting {
  /// Schedule entries kept: older ones are dropped (a demuxer never steps back that far).
  public static let retainedEntries = 256

  private let check: DecryptedSampleCheck?
  private let schedule = Locked(SampleAESSchedule())

  /// A decryptor with an empty schedule; `check` (nil: none) judges the first decrypted
  /// samples of each key.
  public init(check: DecryptedSampleCheck?) {
    self.check = check
  }

  /// A decryptor for the packets of `demuxer`, checking each key's first samples with a
  /// `DecryptedSampleCheck` of `demuxer` (set the result as the demuxer's
  /// `packetDecryptor`).
  public convenience init(demuxer: Demuxer) {
    self.init(check: DecryptedSampleCheck(demuxer: demuxer))
  }

  /// Decrypts the run's bytes from `offset` on (until the next entry) with the 16-byte AES-128
  /// `key` and 16-byte `iv`; `keyLabel` names the key in errors ("key https://…/k.bin of
  /// segment 7").
  ///
  /// Throws `.decryptionFailed` for a key or IV of another size, `.invalidArgument` for an
  /// offset before the last entry's.
  public func addKey(_ key: [UInt8], iv: [UInt8], keyLabel: String, fromRunOffset offset: Int64)
    throws(PlayheadError)
  {
    try AES128.checkSizes(key: key, iv: iv)
    try add(SampleAESKeyEntry(offset: offset, key: key, iv: iv, label: keyLabel))
  }

  /// Leaves the run's bytes from `offset` on (until the next entry) as they are: a segment
  /// under `METHOD=NONE`. Throws `.invalidArgument` for an offset before the last entry's.
  public func addClear(fromRunOffset offset: Int64) throws(PlayheadError) {
    try add(SampleAESKeyEntry(offset: offset, key: nil, iv: [], label: "no key"))
  }

  private func add(_ entry: SampleAESKeyEntry) throws(PlayheadError) {
    try schedule.withLock { (schedule: inout SampleAESSchedule) throws(PlayheadError) in
      if let last = schedule.entries.last, entry.offset < last.offset {
        throw PlayheadError(
          .invalidArgument,
          "SAMPLE-AES key at run offset \(entry.offset) comes before the last one, at "
            + "\(last.offset)")
      }
      if let last = schedule.entries.last, last.offset == entry.offset {
        schedule.entries.removeLast()
      }
      schedule.entries.append(entry)
      if schedule.entries.count > Self.retainedEntries {
        schedule.entries.removeFirst(schedule.entries.count - Self.retainedEntries)
      }
    }
  }

  /// Decrypts `packet` of `stream` in place with the entry its byte position falls in.
  public func decrypt(_ packet: Packet, stream: StreamInfo) throws(PlayheadError) {
    guard let codec = SampleAESCodec(codecName: stream.codecName) else {
      guard stream.kind == .video || stream.kind == .audio else { return }
      throw PlayheadError(
        .unsupportedEncryption,
        "SAMPLE-AES in MPEG-TS covers H.264, AAC, AC-3 and E-AC-3, not the "
          + "\(stream.codecName) of \(stream.kind.rawValue) stream \(stream.index)")
    }
    let entry = try entry(for: packet, stream: stream.index, codec: codec)
    guard let key = entry.key else { return }
    let size = packet.size
    guard size > 0 else { return }
    let writable = av_packet_make_writable(packet.raw)
    guard writable >= 0, let data = packet.raw.pointee.data else {
      throw FFmpegError.make(
        .decryptionFailed, "Could not make a \(codec.displayName) packet writable",
        code: writable)
    }
    let bytes = UnsafeMutableBufferPointer(start: data, count: size)
    let cipher = try SampleAESCipher(key: key, iv: entry.iv)
    if codec == .h264 {
      let length = try SampleAESH264.decrypt(bytes, cipher: cipher)
      if length < size { av_shrink_packet(packet.raw, Int32(length)) }
    } else {
      try SampleAESAudio.decrypt(bytes, codec: codec, cipher: cipher)
    }
    try check?.verify(packet, stream: stream, keyName: entry.label)
  }

  /// The entry whose bytes hold `packet`: the last one starting at or before its position.
  /// A packet without a position (the second and later ADTS frames FFmpeg's parser splits
  /// from one PES) has the position of the last packet of its stream that had one; with
  /// neither, the only entry serves.
  private func entry(for packet: Packet, stream: Int, codec: SampleAESCodec)
    throws(PlayheadError) -> SampleAESKeyEntry
  {
    let own = packet.bytePosition
    let (found, position) = schedule.withLock { schedule -> (SampleAESKeyEntry?, Int64?) in
      if let own { schedule.lastPositions[stream] = own }
      guard let position = own ?? schedule.lastPositions[stream] else {
        return (schedule.entries.count == 1 ? schedule.entries[0] : nil, nil)
      }
      return (schedule.entries.last { $0.offset <= position }, position)
    }
    guard let found else {
      let at = position.map { "at run offset \($0)" } ?? "with no byte position"
      throw PlayheadError(
        .decryptionFailed, "SAMPLE-AES has no key for the \(codec.displayName) packet \(at)")
    }
    return found
  }
}

/// A `SampleAESDecryptor`'s entries in run order and the last byte position seen on each
/// stream.
struct SampleAESSchedule: Sendable {
  var entries: [SampleAESKeyEntry] = []
  var lastPositions: [Int: Int64] = [:]
}

/// One entry of a `SampleAESDecryptor`'s schedule: from `offset` on, `key` and `iv`
/// (no key: clear bytes).
struct SampleAESKeyEntry: Sendable {
  var offset: Int64
  var key: [UInt8]?
  var iv: [UInt8]
  var label: String
}
