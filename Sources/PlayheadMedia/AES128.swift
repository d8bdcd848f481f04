import CFFmpeg
import Foundation
import PlayheadCore

/// AES-128 in CBC mode with PKCS#7 padding, as HLS `METHOD=AES-128` segments use it, done
/// by libavutil's AES.
///
/// Every failure is a `.decryptionFailed` error with a one-line reason: a key or IV that is
/// not 16 bytes, data that is not a whole number of 16-byte blocks, or — the usual symptom
/// of a wrong key or IV — padding that is not valid PKCS#7. (A wrong key passes the padding
/// check about once in 256 tries; the demuxer then fails on the garbage.)
///
/// Example:
/// ```swift
/// let clear = try AES128.decryptCBC(segment, key: key, iv: AES128.iv(mediaSequence: 7))
/// ```
public enum AES128 {
  /// The block and key size in bytes.
  public static let blockBytes = 16

  /// Decrypts `data`; removes the PKCS#7 padding unless `removePadding` is false.
  ///
  /// Empty data decrypts to empty data only without padding removal (a padded message is
  /// at least one block).
  public static func decryptCBC(
    _ data: Data, key: [UInt8], iv: [UInt8], removePadding: Bool = true
  ) throws(PlayheadError) -> Data {
    try checkSizes(key: key, iv: iv)
    guard data.count % blockBytes == 0 else {
      throw PlayheadError(
        .decryptionFailed,
        "AES-128 data is \(data.count) bytes, not a multiple of \(blockBytes)")
    }
    if data.isEmpty {
      if removePadding {
        throw PlayheadError(.decryptionFailed, "AES-128 data is empty; padding is missing")
      }
      return Data()
    }
    var clear = try crypt(data, key: key, iv: iv, decrypt: true)
    if removePadding {
      let count = Int(clear[clear.count - 1])
      let padding = clear.suffix(count)
      guard count >= 1, count <= blockBytes, padding.allSatisfy({ Int($0) == count }) else {
        throw PlayheadError(
          .decryptionFailed, "AES-128 padding is invalid after decryption (wrong key or IV?)")
      }
      clear.removeLast(count)
    }
    return clear
  }

  /// Encrypts `data`, first adding PKCS#7 padding unless `addPadding` is false (then the
  /// data must be a whole number of blocks). For tests and fixtures.
  public static func encryptCBC(
    _ data: Data, key: [UInt8], iv: [UInt8], addPadding: Bool = true
  ) throws(PlayheadError) -> Data {
    try checkSizes(key: key, iv: iv)
    var plain = data
    if addPadding {
      let count = blockBytes - data.count % blockBytes
      plain.append(contentsOf: [UInt8](repeating: UInt8(count), count: count))
    } else if data.count % blockBytes != 0 {
      throw PlayheadError(
        .decryptionFailed,
        "AES-128 data is \(data.count) bytes, not a multiple of \(blockBytes)")
    }
    if plain.isEmpty { return Data() }
    return try crypt(plain, key: key, iv: iv, decrypt: false)
  }

  /// The IV HLS implies when `EXT-X-KEY` has none: the media sequence number as a 128-bit
  /// big-endian integer.
  public static func iv(mediaSequence: UInt64) -> [UInt8] {
    [UInt8](repeating: 0, count: 8)
      + (0..<8).map { UInt8(truncatingIfNeeded: mediaSequence >> (56 - 8 * $0)) }
  }

  static func checkSizes(key: [UInt8], iv: [UInt8]) throws(PlayheadError) {
    guard key.count == blockBytes else {
      throw PlayheadError(
        .decryptionFailed, "AES-128 key is \(key.count) bytes, expected \(blockBytes)")
    }
    guard iv.count == blockBytes else {
      throw PlayheadError(
        .decryptionFailed, "AES-128 IV is \(iv.count) bytes, expected \(blockBytes)")
    }
  }

  /// Runs CBC over whole blocks, in pieces that fit libavutil's `int` block count; the IV
  /// that libavutil updates carries the chain from one piece to the next.
  private static func crypt(_ input: Data, key: [UInt8], iv: [UInt8], decrypt: Bool)
    throws(PlayheadError) -> Data
  {
    let context = try AESContext(key: key, decrypt: decrypt)
    var chain = iv
    var output = Data(count: input.count)
    let piece = 1 << 20
    input.withUnsafeBytes { source in
      output.withUnsafeMutableBytes { destination in
        guard let from = source.bindMemory(to: UInt8.self).baseAddress,
          let to = destination.bindMemory(to: UInt8.self).baseAddress
        else { return }
        let blocks = input.count / blockBytes
        var done = 0
        while done < blocks {
          let count = min(piece, blocks - done)
          let start = done * blockBytes
          chain.withUnsafeMutableBufferPointer { ivBuffer in
            av_aes_crypt(
              context.pointer, to + start, from + start, Int32(count), ivBuffer.baseAddress,
              decrypt ? 1 : 0)
          }
          done += count
        }
      }
    }
    return output
  }
}

/// Owns one libavutil `AVAES` context (from `av_aes_alloc`) and frees it in deinit.
final class AESContext {
  let pointer: OpaquePointer

  init(key: [UInt8], decrypt: Bool) throws(PlayheadError) {
    guard let allocated = av_aes_alloc() else {
      throw PlayheadError(.decryptionFailed, "could not allocate an AES context")
    }
    pointer = allocated
    let status = key.withUnsafeBufferPointer { buffer in
      av_aes_init(pointer, buffer.baseAddress, 128, decrypt ? 1 : 0)
    }
    if status < 0 {
      throw PlayheadError(.decryptionFailed, "could not set the AES-128 key (error \(status))")
    }
  }

  deinit {
    av_free(UnsafeMutableRawPointer(pointer))
  }
}
