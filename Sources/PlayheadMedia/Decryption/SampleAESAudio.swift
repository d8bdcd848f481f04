import Foundation
import PlayheadCore

/// SAMPLE-AES decryption of audio packets: whole ADTS frames of AAC, whole sync frames of
/// AC-3 and E-AC-3.
///
/// In each frame the header (ADTS: 7 bytes, 9 with a CRC; AC-3: none) and the 16 bytes
/// after it are clear, every whole 16-byte block after them is encrypted (AES-128-CBC, the
/// IV starting again at each frame), and a last partial block is clear. A packet may hold
/// several frames; it must hold whole ones.
enum SampleAESAudio {
  /// The clear bytes after a frame's header.
  static let clearLeaderBytes = 16

  /// Decrypts every frame of the packet in `bytes` in place.
  ///
  /// Throws `.decryptionFailed` for bytes that are not whole frames of `codec`: no sync
  /// word where a frame should start, a length shorter than the header, a frame running
  /// past the packet's end (a truncated packet).
  static func decrypt(
    _ bytes: UnsafeMutableBufferPointer<UInt8>, codec: SampleAESCodec, cipher: SampleAESCipher
  ) throws(PlayheadError) {
    guard let base = bytes.baseAddress else { return }
    var at = 0
    while at < bytes.count {
      let frame = UnsafeBufferPointer(start: base + at, count: bytes.count - at)
      let (header, length) =
        codec == .aac ? try adtsFrame(frame, at: at) : try ac3Frame(frame, at: at)
      guard length <= frame.count else {
        throw PlayheadError(
          .decryptionFailed,
          "SAMPLE-AES \(codec.displayName) frame at byte \(at) is \(length) bytes but the "
            + "packet has \(frame.count) left (truncated)")
      }
      let encrypted = length - header - clearLeaderBytes
      if encrypted >= AES128.blockBytes {
        cipher.begin()
        cipher.decrypt(
          base + at + header + clearLeaderBytes, blockCount: encrypted / AES128.blockBytes)
      }
      at += length
    }
  }

  /// The header and frame length of the ADTS frame at the start of `bytes`.
  static func adtsFrame(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int)
    throws(PlayheadError) -> (header: Int, length: Int)
  {
    // Sync word 0xFFF and layer 0.
    guard bytes.count >= 7, bytes[0] == 0xFF, bytes[1] & 0xF6 == 0xF0 else {
      throw PlayheadError(
        .decryptionFailed, "SAMPLE-AES AAC packet has no ADTS frame at byte \(offset)")
    }
    let header = bytes[1] & 1 == 1 ? 7 : 9
    let length =
      (Int(bytes[3] & 3) << 11) | (Int(bytes[4]) << 3) | (Int(bytes[5]) >> 5)
    guard length >= header else {
      throw PlayheadError(
        .decryptionFailed,
        "SAMPLE-AES AAC frame at byte \(offset) says it is \(length) bytes, less than its "
          + "\(header)-byte header")
    }
    return (header, length)
  }

  /// The header (none: the 16 clear bytes cover it) and frame length of the AC-3 or E-AC-3
  /// sync frame at the start of `bytes`.
  static func ac3Frame(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int)
    throws(PlayheadError) -> (header: Int, length: Int)
  {
    guard bytes.count >= 6, bytes[0] == 0x0B, bytes[1] == 0x77 else {
      throw PlayheadError(
        .decryptionFailed, "SAMPLE-AES AC-3 packet has no sync frame at byte \(offset)")
    }
    let bitstreamID = bytes[5] >> 3
    if bitstreamID > 10 && bitstreamID <= 16 {
      // E-AC-3: frmsiz, the frame's length in 16-bit words minus one.
      let words = ((Int(bytes[2]) & 7) << 8 | Int(bytes[3])) + 1
      return (0, 2 * words)
    }
    guard bitstreamID <= 10, let words = ac3FrameWords(code: bytes[4]) else {
      throw PlayheadError(
        .decryptionFailed,
        "SAMPLE-AES AC-3 sync frame at byte \(offset) has an invalid header "
          + "(bsid \(bitstreamID), fscod/frmsizecod 0x\(String(bytes[4], radix: 16)))")
    }
    return (0, 2 * words)
  }

  /// The kilobits per second of frmsizecod 0, 2, 4, … (ATSC A/52, table 5.18).
  static let ac3BitRates = [
    32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640,
  ]

  /// An AC-3 frame's length in 16-bit words from its fscod and frmsizecod byte: a frame
  /// holds 1536 samples, so 48 kHz takes 2 words per kbit/s and 32 kHz 3; at 44.1 kHz the
  /// odd codes carry one word more.
  static func ac3FrameWords(code: UInt8) -> Int? {
    let sizeCode = Int(code & 0x3F)
    guard sizeCode / 2 < ac3BitRates.count else { return nil }
    let rate = ac3BitRates[sizeCode / 2]
    switch code >> 6 {
    case 0: return 2 * rate
    case 1: return rate * 320 / 147 + (sizeCode & 1)
    case 2: return 3 * rate
    default: return nil
    }
  }
}
