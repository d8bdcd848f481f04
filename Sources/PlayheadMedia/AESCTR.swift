import CFFmpeg
import Foundation
import PlayheadCore

/// AES-128 in counter mode with random access, done by libavutil's `aes_ctr`: the cipher
/// Playhead's offline downloads use to encrypt files at rest.
///
/// The 16-byte counter block of byte `offset` is the 8-byte `nonce` followed by
/// `offset / 16` as a 64-bit big-endian number, so any byte range of a file can be
/// encrypted or decrypted on its own (encryption and decryption are the same operation).
/// The ciphertext has the plaintext's length. A key that is not 16 bytes or a nonce that is
/// not 8 bytes throws `.invalidArgument`.
///
/// Example:
/// ```swift
/// let cipher = try AESCTR(key: key, nonce: nonce)
/// var bytes = Array(segment)
/// cipher.apply(to: &bytes, atOffset: 4096)
/// ```
public final class AESCTR: Sendable {
  /// The key size in bytes.
  public static let keyBytes = 16
  /// The nonce size in bytes.
  public static let nonceBytes = 8

  /// libavutil's cipher context, reachable only under the lock.
  private let context: Locked<CipherContext>
  private let nonce: [UInt8]

  /// Makes a cipher for `key` (16 bytes) and a per-file `nonce` (8 bytes).
  public init(key: [UInt8], nonce: [UInt8]) throws(PlayheadError) {
    guard key.count == Self.keyBytes else {
      throw PlayheadError(
        .invalidArgument, "AES-CTR key is \(key.count) bytes, expected \(Self.keyBytes)")
    }
    guard nonce.count == Self.nonceBytes else {
      throw PlayheadError(
        .invalidArgument, "AES-CTR nonce is \(nonce.count) bytes, expected \(Self.nonceBytes)")
    }
    guard let allocated = av_aes_ctr_alloc() else {
      throw PlayheadError(.decryptionFailed, "could not allocate an AES-CTR context")
    }
    let status = key.withUnsafeBufferPointer { av_aes_ctr_init(allocated, $0.baseAddress) }
    if status < 0 {
      av_aes_ctr_free(allocated)
      throw PlayheadError(.decryptionFailed, "could not set the AES-CTR key (error \(status))")
    }
    context = Locked(CipherContext(pointer: allocated))
    self.nonce = nonce
  }

  deinit {
    context.withLock { av_aes_ctr_free($0.pointer) }
  }

  /// XORs the key stream of bytes `offset ..< offset + bytes.count` into `bytes` (encrypts
  /// clear bytes, decrypts encrypted ones). A negative offset changes nothing.
  public func apply(to bytes: inout [UInt8], atOffset offset: Int64) {
    bytes.withUnsafeMutableBytes { apply(to: $0, atOffset: offset) }
  }

  /// XORs the key stream of bytes `offset ..< offset + buffer.count` into `buffer`.
  public func apply(to buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int64) {
    guard offset >= 0, buffer.count > 0, let base = buffer.baseAddress else { return }
    let bytes = base.assumingMemoryBound(to: UInt8.self)
    let nonce = nonce
    context.withLock { context in
      let cipher = context.pointer
      var counter = nonce
      let block = UInt64(offset / 16)
      for index in 0..<8 { counter.append(UInt8(truncatingIfNeeded: block >> (56 - 8 * index))) }
      counter.withUnsafeBufferPointer { av_aes_ctr_set_full_iv(cipher, $0.baseAddress) }
      let skip = Int(offset % 16)
      if skip > 0 {
        var scratch = [UInt8](repeating: 0, count: skip)
        scratch.withUnsafeMutableBufferPointer { pointer in
          av_aes_ctr_crypt(cipher, pointer.baseAddress, pointer.baseAddress, Int32(skip))
        }
      }
      var done = 0
      let piece = 1 << 24
      while done < buffer.count {
        let count = min(piece, buffer.count - done)
        av_aes_ctr_crypt(cipher, bytes + done, bytes + done, Int32(count))
        done += count
      }
    }
  }
}

/// An AES-CTR context pointer.
private struct CipherContext: @unchecked Sendable {
  // Unchecked Sendable: an FFmpeg pointer is not Sendable; it is only used inside the
  // `Locked` that holds it.
  let pointer: OpaquePointer
}
