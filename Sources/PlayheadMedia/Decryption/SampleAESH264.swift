import Foundation
import PlayheadCore

/// SAMPLE-AES decryption of an H.264 access unit in Annex B byte-stream form.
///
/// Only NAL units of type 1 (non-IDR slice) and 5 (IDR slice) longer than 48 bytes are
/// encrypted. Such a NAL unit was encrypted with its own emulation prevention bytes in
/// place and then escaped again, so its emulation prevention bytes are removed first (the
/// access unit shrinks by their count); then, after the 32 clear bytes that hold the NAL
/// header and the slice header's start, one 16-byte block is decrypted and up to 144 bytes
/// are skipped, again and again while more than 16 bytes remain. The IV starts again at
/// each NAL unit. Other NAL units, start codes and the zero bytes between NAL units stay as
/// they are.
enum SampleAESH264 {
  /// The bytes of an encrypted NAL unit that stay clear: its header and 31 more.
  static let clearLeaderBytes = 32
  /// A NAL unit this long or shorter is clear.
  static let longestClearUnit = 48
  /// After each encrypted block, up to this many bytes are clear.
  static let clearBytesPerPattern = 144

  /// Decrypts the access unit in `bytes` in place and returns its new length (at most the
  /// old one): the bytes after it are left as they were.
  ///
  /// Throws `.decryptionFailed` when `bytes` do not start with a start code (not Annex B).
  static func decrypt(
    _ bytes: UnsafeMutableBufferPointer<UInt8>, cipher: SampleAESCipher
  ) throws(PlayheadError) -> Int {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
    let count = bytes.count
    guard var unitStart = startCode(in: bytes, from: 0) else {
      throw PlayheadError(
        .decryptionFailed,
        "SAMPLE-AES H.264 packet of \(count) bytes has no start code (not Annex B)")
    }
    // Everything before the first NAL unit (leading zeros, the start code) stays.
    var written = unitStart
    while unitStart < count {
      let next = startCode(in: bytes, from: unitStart)
      let boundary = next.map { $0 - 3 } ?? count
      var unitEnd = boundary
      while unitEnd > unitStart, base[unitEnd - 1] == 0 { unitEnd -= 1 }
      let type = base[unitStart] & 0x1F
      if (type == 1 || type == 5) && unitEnd - unitStart > longestClearUnit {
        let length = unescape(base, from: unitStart, to: unitEnd, into: written)
        decryptUnit(base + written, length: length, cipher: cipher)
        written += length
      } else {
        move(base, from: unitStart, to: unitEnd, into: written)
        written += unitEnd - unitStart
      }
      // The zeros and the start code up to the next NAL unit (or the end) stay.
      let following = next ?? count
      move(base, from: unitEnd, to: following, into: written)
      written += following - unitEnd
      unitStart = following
    }
    return written
  }

  /// The index just after the next `00 00 01` at or after `index`, or nil.
  static func startCode(in bytes: UnsafeMutableBufferPointer<UInt8>, from index: Int) -> Int? {
    var at = index
    while at + 2 < bytes.count {
      if bytes[at + 2] > 1 {
        at += 3
      } else if bytes[at + 2] == 1 && bytes[at + 1] == 0 && bytes[at] == 0 {
        return at + 3
      } else {
        at += 1
      }
    }
    return nil
  }

  /// Copies `base[start..<end]` to `base + destination` (not after `start`), dropping each
  /// emulation prevention byte (a 03 after two zero bytes); returns the length written.
  static func unescape(
    _ base: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, into destination: Int
  ) -> Int {
    var written = destination
    var zeros = 0
    for index in start..<end {
      let byte = base[index]
      if zeros >= 2 && byte == 3 {
        zeros = 0
        continue
      }
      base[written] = byte
      written += 1
      zeros = byte == 0 ? zeros + 1 : 0
    }
    return written - destination
  }

  /// Moves `base[start..<end]` down to `base + destination`.
  static func move(
    _ base: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, into destination: Int
  ) {
    guard end > start, destination != start else { return }
    // memmove: the regions may overlap.
    UnsafeMutableRawPointer(base + destination).copyMemory(
      from: base + start, byteCount: end - start)
  }

  /// Decrypts the pattern of one unescaped NAL unit of `length` bytes at `unit`.
  static func decryptUnit(
    _ unit: UnsafeMutablePointer<UInt8>, length: Int, cipher: SampleAESCipher
  ) {
    cipher.begin()
    var at = clearLeaderBytes
    while at < length {
      if length - at > AES128.blockBytes {
        cipher.decrypt(unit + at, blockCount: 1)
        at += AES128.blockBytes
      }
      at += min(clearBytesPerPattern, length - at)
    }
  }
}
