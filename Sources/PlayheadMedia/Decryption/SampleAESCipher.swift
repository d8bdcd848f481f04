import CFFmpeg
import Foundation
import PlayheadCore

/// AES-128-CBC decryption of the 16-byte blocks of one protected block, in place, with the
/// chain starting again from the segment's IV at each protected block (`begin()`).
///
/// The blocks of one protected block need not be adjacent (H.264 decrypts one block in
/// ten): each block is chained to the ciphertext of the block decrypted before it. Made for
/// one packet on one thread; owns its libavutil context through `AESContext`.
final class SampleAESCipher {
  private let context: AESContext
  private let iv: [UInt8]
  private var chain: [UInt8]

  /// A cipher for `key` and `iv`, both 16 bytes (`.decryptionFailed` otherwise).
  init(key: [UInt8], iv: [UInt8]) throws(PlayheadError) {
    try AES128.checkSizes(key: key, iv: iv)
    context = try AESContext(key: key, decrypt: true)
    self.iv = iv
    chain = iv
  }

  /// Starts a protected block: the next block is chained to the IV.
  func begin() {
    chain = iv
  }

  /// Decrypts `blockCount` adjacent blocks at `start` in place, continuing the chain.
  ///
  /// The caller makes sure that the blocks lie inside its buffer.
  func decrypt(_ start: UnsafeMutablePointer<UInt8>, blockCount: Int) {
    guard blockCount > 0 else { return }
    chain.withUnsafeMutableBufferPointer { ivBuffer in
      // libavutil keeps the source block as the next IV before writing the output block, so
      // decrypting in place is safe.
      av_aes_crypt(
        context.pointer, start, start, Int32(clamping: blockCount), ivBuffer.baseAddress, 1)
    }
  }
}
