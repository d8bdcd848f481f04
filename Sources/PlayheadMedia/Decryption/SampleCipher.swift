import CFFmpeg
import Foundation
import PlayheadCore

/// The AES work of Common Encryption over one sample's bytes, with one content key:
/// `cenc`'s AES-CTR and `cbcs`'s pattern AES-CBC, in place.
///
/// Holds libavutil AES contexts, which keep scratch state while they run: one sample at a
/// time (callers serialise through the lock of the key that owns the cipher).
final class SampleCipher {
  static let blockBytes = 16
  private let key: [UInt8]
  private var encryptor: AESContext?
  private var decryptor: AESContext?
  /// Counter blocks and key stream of the CTR mode, reused between samples.
  private var counters = [UInt8](repeating: 0, count: 256 * 16)
  private var keyStream = [UInt8](repeating: 0, count: 256 * 16)

  /// Makes a cipher for a 16-byte key (checked by the caller).
  init(key: [UInt8]) {
    self.key = key
  }

  /// `cenc`: XORs the AES-CTR key stream of `iv` (8 or 16 bytes; an 8-byte IV is the high
  /// half of the counter block) into `ranges` of `bytes`, the stream running on from one
  /// range to the next. The counter block is a 128-bit big-endian number.
  func applyCTR(to bytes: UnsafeMutableRawBufferPointer, ranges: [Range<Int>], iv: [UInt8])
    throws(PlayheadError)
  {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
    let context = try context(decrypt: false)
    let start = iv + [UInt8](repeating: 0, count: Self.blockBytes - iv.count)
    var streamOffset = 0
    for range in ranges {
      var done = 0
      while done < range.count {
        let block = streamOffset / Self.blockBytes
        let skip = streamOffset % Self.blockBytes
        let wanted = min(range.count - done, counters.count - skip)
        let blocks = (skip + wanted + Self.blockBytes - 1) / Self.blockBytes
        fillCounters(from: start, plus: UInt64(block), blocks: blocks)
        counters.withUnsafeBufferPointer { input in
          keyStream.withUnsafeMutableBufferPointer { output in
            av_aes_crypt(
              context.pointer, output.baseAddress, input.baseAddress, Int32(blocks), nil, 0)
          }
        }
        keyStream.withUnsafeBytes { stream in
          Self.xor(
            UnsafeMutableRawPointer(base + range.lowerBound + done),
            with: stream.baseAddress! + skip,
            count: wanted)
        }
        done += wanted
        streamOffset += wanted
      }
    }
  }

  /// `cbcs`: decrypts each of `ranges` with AES-CBC from `iv` (the chain restarts at every
  /// range), `cryptBlocks` 16-byte blocks encrypted then `skipBlocks` clear, repeated; a
  /// final part shorter than a block stays clear. 0 and 0 decrypt every whole block.
  func decryptCBCPattern(
    _ bytes: UnsafeMutableRawBufferPointer, ranges: [Range<Int>], iv: [UInt8],
    cryptBlocks: Int, skipBlocks: Int
  ) throws(PlayheadError) {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
    let context = try context(decrypt: true)
    let whole = cryptBlocks == 0 && skipBlocks == 0
    for range in ranges {
      var chain = iv
      var offset = 0
      while range.count - offset >= Self.blockBytes {
        let available = (range.count - offset) / Self.blockBytes
        let blocks = whole ? available : min(cryptBlocks, available)
        let target = base + range.lowerBound + offset
        chain.withUnsafeMutableBufferPointer { chainBuffer in
          av_aes_crypt(context.pointer, target, target, Int32(blocks), chainBuffer.baseAddress, 1)
        }
        offset += (blocks + (whole ? 0 : skipBlocks)) * Self.blockBytes
      }
    }
  }

  private func context(decrypt: Bool) throws(PlayheadError) -> AESContext {
    if decrypt, let decryptor { return decryptor }
    if !decrypt, let encryptor { return encryptor }
    let made = try AESContext(key: key, decrypt: decrypt)
    if decrypt { decryptor = made } else { encryptor = made }
    return made
  }

  /// Writes `blocks` counter blocks, `start + first`, `start + first + 1`, …, into
  /// `counters` (128-bit big-endian additions).
  private func fillCounters(from start: [UInt8], plus first: UInt64, blocks: Int) {
    var high = start[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    var low = start[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let (sum, overflow) = low.addingReportingOverflow(first)
    low = sum
    if overflow { high &+= 1 }
    counters.withUnsafeMutableBytes { buffer in
      for block in 0..<blocks {
        buffer.storeBytes(of: high.bigEndian, toByteOffset: block * 16, as: UInt64.self)
        buffer.storeBytes(of: low.bigEndian, toByteOffset: block * 16 + 8, as: UInt64.self)
        let (next, carry) = low.addingReportingOverflow(1)
        low = next
        if carry { high &+= 1 }
      }
    }
  }

  /// XORs `count` bytes of `source` into `target`, eight at a time where it can.
  private static func xor(
    _ target: UnsafeMutableRawPointer, with source: UnsafeRawPointer, count: Int
  ) {
    var index = 0
    while index + 8 <= count {
      let word =
        target.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        ^ source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      target.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < count {
      let byte =
        target.load(fromByteOffset: index, as: UInt8.self)
        ^ source.load(fromByteOffset: index, as: UInt8.self)
      target.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
      index += 1
    }
  }
}
