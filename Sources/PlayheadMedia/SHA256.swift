import CFFmpeg
import Foundation
import PlayheadCore

/// SHA-256 digests, done by libavutil's `sha`: for offline download manifests, key IDs and
/// file checks.
///
/// Example:
/// ```swift
/// let hash = try SHA256()
/// hash.update(Data("abc".utf8))
/// let hex = SHA256.hex(hash.finalize())
/// ```
public struct SHA256: ~Copyable {
  private let context: OpaquePointer

  /// Starts an empty digest; throws `.ioError` when libavutil cannot allocate one.
  public init() throws(PlayheadError) {
    guard let allocated = av_sha_alloc() else {
      throw PlayheadError(.ioError, "could not allocate a SHA-256 context")
    }
    av_sha_init(allocated, 256)
    context = allocated
  }

  deinit {
    av_free(UnsafeMutableRawPointer(context))
  }

  /// Adds `data` to the digest.
  public func update(_ data: Data) {
    data.withUnsafeBytes { raw in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return }
      av_sha_update(context, base, raw.count)
    }
  }

  /// Adds `buffer`'s bytes to the digest.
  public func update(_ buffer: UnsafeRawBufferPointer) {
    guard let base = buffer.bindMemory(to: UInt8.self).baseAddress else { return }
    av_sha_update(context, base, buffer.count)
  }

  /// The 32-byte digest of everything added; the digest cannot be updated afterwards.
  public consuming func finalize() -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 32)
    digest.withUnsafeMutableBufferPointer { av_sha_final(context, $0.baseAddress) }
    return digest
  }

  /// The digest of `data`.
  public static func digest(_ data: Data) throws(PlayheadError) -> [UInt8] {
    let hash = try SHA256()
    hash.update(data)
    return hash.finalize()
  }

  /// The digest of the file at `url`, read in 1 MiB pieces; throws `.fileNotFound` or
  /// `.ioError` when it cannot be read.
  public static func digest(ofFileAt url: URL) throws(PlayheadError) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: url.path) else {
      throw PlayheadError(.fileNotFound, "cannot read \(url.path)", url: url)
    }
    defer { try? handle.close() }
    let hash = try SHA256()
    while true {
      let piece: Data
      do {
        piece = try handle.read(upToCount: 1 << 20) ?? Data()
      } catch {
        throw PlayheadError(
          .ioError, "reading \(url.path) failed: \(PlayheadError.reason(for: error))", url: url)
      }
      if piece.isEmpty { break }
      hash.update(piece)
    }
    return hash.finalize()
  }

  /// `bytes` as lowercase hexadecimal.
  public static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }
}
