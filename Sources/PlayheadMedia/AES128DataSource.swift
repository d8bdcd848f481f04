import CFFmpeg
import Foundation
import PlayheadCore
import PlayheadNet

/// Decrypts what another source delivers with AES-128 in CBC mode and removes the PKCS#7
/// padding at the end, as HLS `METHOD=AES-128` segments need (Media3's `Aes128DataSource`).
///
/// The whole open is one CBC message from `iv` (an HLS byte range is encrypted on its own).
/// Bytes stream: each read decrypts the whole blocks that arrived, keeping the last block
/// back until the end so that its padding can be checked and cut. The head's `length` and
/// `totalLength` are nil (the padding is only known at the end). Errors: `.decryptionFailed` for a key or IV
/// that is not 16 bytes (at `open`), for ciphertext that is not a whole number of blocks,
/// and for invalid padding — the usual symptom of a wrong key or IV (at the last read).
public final class AES128DataSource: DataSource, @unchecked Sendable {
  // Unchecked Sendable: the cipher state is used by the reading thread only (`open`,
  // `read` and `close` come one at a time); `cancel()` only forwards to the upstream.
  public let upstream: any DataSource
  private let key: [UInt8]
  private let iv: [UInt8]
  private var context: AESContext?
  private var chain: [UInt8] = []
  /// Ciphertext read but not decrypted yet (less than a block, or the held-back last one).
  private var cipher: [UInt8] = []
  /// Plaintext ready for the reader.
  private var plain: [UInt8] = []
  private var plainHead = 0
  private var upstreamEnded = false
  private var url: URL?

  /// Decrypts with `key` and `iv` (16 bytes each).
  public init(upstream: any DataSource, key: [UInt8], iv: [UInt8]) {
    self.upstream = upstream
    self.key = key
    self.iv = iv
  }

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    try AES128.checkSizes(key: key, iv: iv)
    context = try AESContext(key: key, decrypt: true)
    chain = iv
    cipher.removeAll(keepingCapacity: true)
    plain.removeAll(keepingCapacity: true)
    plainHead = 0
    upstreamEnded = false
    url = request.url
    var head = try upstream.open(request)
    // The clear bytes are fewer than the encrypted ones (the padding), and known only at
    // the end: neither the open's length nor the resource's is told.
    head.length = head.length == 0 ? 0 : nil
    head.totalLength = nil
    return head
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    guard context != nil else { throw PlayheadError.notOpen(url) }
    guard buffer.count > 0 else { return 0 }
    while plainHead == plain.count {
      if upstreamEnded { return 0 }
      try fill()
    }
    let count = min(buffer.count, plain.count - plainHead)
    plain.withUnsafeBytes { raw in
      buffer.baseAddress!.copyMemory(from: raw.baseAddress! + plainHead, byteCount: count)
    }
    plainHead += count
    if plainHead == plain.count {
      plain.removeAll(keepingCapacity: true)
      plainHead = 0
    }
    return count
  }

  public func close() {
    context = nil
    upstream.close()
  }

  public func cancel() { upstream.cancel() }

  // MARK: Internals

  /// Reads more ciphertext and decrypts every whole block but the last (all of them, with
  /// the padding cut, at the end).
  private func fill() throws(PlayheadError) {
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    defer { chunk.deallocate() }
    let count = try upstream.read(into: chunk)
    if count == 0 {
      upstreamEnded = true
      guard cipher.count % AES128.blockBytes == 0 else {
        throw PlayheadError(
          .decryptionFailed,
          "AES-128 data from \(url?.absoluteString ?? "the source") is not a whole number of "
            + "\(AES128.blockBytes)-byte blocks", url: url)
      }
      guard !cipher.isEmpty else {
        throw PlayheadError(
          .decryptionFailed, "AES-128 data is empty; padding is missing", url: url)
      }
      var last = decrypt(cipher)
      cipher.removeAll()
      let padding = Int(last[last.count - 1])
      guard padding >= 1, padding <= AES128.blockBytes,
        last.suffix(padding).allSatisfy({ Int($0) == padding })
      else {
        throw PlayheadError(
          .decryptionFailed, "AES-128 padding is invalid after decryption (wrong key or IV?)",
          url: url)
      }
      last.removeLast(padding)
      plain.append(contentsOf: last)
      return
    }
    cipher.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
    // Keep the last whole block (and any partial one) back for the padding check.
    let ready = (cipher.count - 1) / AES128.blockBytes * AES128.blockBytes
    guard ready > 0 else { return }
    plain.append(contentsOf: decrypt(Array(cipher[0..<ready])))
    cipher.removeFirst(ready)
  }

  /// Decrypts whole blocks, carrying the CBC chain on.
  private func decrypt(_ blocks: [UInt8]) -> [UInt8] {
    guard let context, !blocks.isEmpty else { return [] }
    var output = [UInt8](repeating: 0, count: blocks.count)
    blocks.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { destination in
        chain.withUnsafeMutableBufferPointer { ivBuffer in
          av_aes_crypt(
            context.pointer, destination.baseAddress, source.baseAddress,
            Int32(blocks.count / AES128.blockBytes), ivBuffer.baseAddress, 1)
        }
      }
    }
    return output
  }
}
