import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Reads the files of a download folder, decrypting those encrypted at rest: the one source
/// offline playback reads through (HLS playlists, segments, initialisation sections and
/// keys, and progressive media files).
///
/// A file outside the folder, or not marked encrypted in the manifest, is passed through
/// unchanged. AES-CTR is random access: a byte range decrypts from its own offset.
final class OfflineDecryptingDataSource: DataSource, @unchecked Sendable {
  // Unchecked Sendable: `open` is the reading thread's; the rest is immutable.
  private let upstream: any DataSource
  private let folderPath: String
  private let key: [UInt8]
  private let encryptedPaths: Set<String>
  private let salt: String
  /// The open file's cipher and the offset of the next byte read, when it is encrypted.
  private var open: (cipher: AESCTR, position: Int64)?

  init(upstream: any DataSource, asset: OfflineAsset, key: [UInt8]) {
    self.upstream = upstream
    self.salt = asset.manifest.encryption?.salt ?? ""
    self.folderPath = asset.folderURL.standardizedFileURL.path
    self.key = key
    self.encryptedPaths = asset.encryptedPaths
  }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    open = nil
    let head = try upstream.open(request)
    if let relative = relativePath(of: request.url), encryptedPaths.contains(relative) {
      let cipher = try OfflineFileCipher.cipher(key: key, salt: salt, path: relative)
      open = (cipher, request.range?.offset ?? 0)
    }
    return head
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    let count = try upstream.read(into: buffer)
    if count > 0, let current = open {
      current.cipher.apply(
        to: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), atOffset: current.position)
      open = (current.cipher, current.position + Int64(count))
    }
    return count
  }

  func close() {
    open = nil
    upstream.close()
  }

  func cancel() { upstream.cancel() }

  var bufferState: DataBufferState? { upstream.bufferState }

  private func relativePath(of url: URL) -> String? {
    guard url.isFileURL else { return nil }
    let path = url.standardizedFileURL.path
    let prefix = folderPath.hasSuffix("/") ? folderPath : folderPath + "/"
    guard path.hasPrefix(prefix) else { return nil }
    return String(path.dropFirst(prefix.count))
  }
}

extension OfflineAsset {
  /// The stack this download plays from: its files, decrypted at rest with the key from
  /// `registry` when the download is encrypted; throws `.decryptionFailed` for a missing or
  /// wrong key. No cache, no refresh, no recording: nothing goes to the network.
  func playbackStack(
    request: RequestConfiguration, clock: any Clock, registry: OfflineKeyRegistry = .shared
  ) throws(PlayheadError) -> DataSourceStack {
    guard let key = try key(from: registry) else {
      return DataSourceStack(
        request: request, clock: clock, network: DataSourceFactories.make { FileDataSource() })
    }
    let asset = self
    return DataSourceStack(
      request: request, clock: clock,
      network: DataSourceFactories.make {
        OfflineDecryptingDataSource(upstream: FileDataSource(), asset: asset, key: key)
      })
  }
}
