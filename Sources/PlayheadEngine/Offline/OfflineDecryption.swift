import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Reads the files of a download folder, decrypting those encrypted at rest (HLS
/// playback: playlists, segments, initialisation sections and keys all load through it).
///
/// A file outside the folder, or not marked encrypted in the manifest, is passed through
/// unchanged. Byte ranges decrypt on their own (AES-CTR is random access).
final class OfflineDecryptingDataSource: DataSource, Sendable {
  private let upstream: any DataSource
  private let folderPath: String
  private let key: [UInt8]
  private let encryptedPaths: Set<String>
  private let salt: String

  init(upstream: any DataSource, asset: OfflineAsset, key: [UInt8]) {
    self.upstream = upstream
    self.salt = asset.manifest.encryption?.salt ?? ""
    self.folderPath = asset.folderURL.standardizedFileURL.path
    self.key = key
    self.encryptedPaths = asset.encryptedPaths
  }

  func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse {
    var response = try upstream.load(request, progress: progress)
    guard let relative = relativePath(of: request.url), encryptedPaths.contains(relative) else {
      return response
    }
    let cipher = try OfflineFileCipher.cipher(key: key, salt: salt, path: relative)
    var bytes = [UInt8](response.data)
    cipher.apply(to: &bytes, atOffset: request.range?.offset ?? 0)
    response.data = Data(bytes)
    return response
  }

  func cancelAll() {
    upstream.cancelAll()
  }

  private func relativePath(of url: URL) -> String? {
    guard url.isFileURL else { return nil }
    let path = url.standardizedFileURL.path
    let prefix = folderPath.hasSuffix("/") ? folderPath : folderPath + "/"
    guard path.hasPrefix(prefix) else { return nil }
    return String(path.dropFirst(prefix.count))
  }
}

/// A byte source over one file encrypted at rest (progressive playback), decrypting each
/// read at its offset.
final class OfflineDecryptingByteSource: ByteSource, ByteBufferReporting, Sendable {
  private let upstream: any ByteSource
  private let cipher: AESCTR

  init(upstream: any ByteSource, cipher: AESCTR) {
    self.upstream = upstream
    self.cipher = cipher
  }

  var url: URL { upstream.url }
  var length: Int64? { upstream.length }

  /// The encrypted file's buffer (a local file: everything held).
  var bufferState: ByteBufferState {
    (upstream as? any ByteBufferReporting)?.bufferState ?? ByteBufferState()
  }

  func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    (upstream as? any ByteBufferReporting)?.setBufferChangeHandler(handler)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(PlayheadError)
    -> Int
  {
    let count = try upstream.read(into: buffer, at: offset)
    if count > 0 {
      cipher.apply(to: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), atOffset: offset)
    }
    return count
  }

  func cancel() {
    upstream.cancel()
  }
}

extension OfflineAsset {
  /// Makes `configuration` read this HLS download, decrypting at rest with the key from
  /// `registry`; throws `.decryptionFailed` for a missing or wrong key.
  func configure(
    _ configuration: inout HLSConfiguration, clock: any Clock,
    registry: OfflineKeyRegistry = .shared
  ) throws(PlayheadError) {
    guard let key = try key(from: registry) else { return }
    configuration.dataSource = OfflineDecryptingDataSource(
      upstream: configuration.dataSource ?? FileDataSource(clock: clock), asset: self, key: key)
  }

  /// Opens this progressive download's media file, decrypting at rest with the key from
  /// `registry`; throws `.decryptionFailed` for a missing or wrong key.
  func openByteSource(registry: OfflineKeyRegistry = .shared) throws(PlayheadError)
    -> any ByteSource
  {
    let file = try FileByteSource(url: playbackURL)
    guard let key = try key(from: registry) else { return file }
    guard encryptedPaths.contains(manifest.playbackPath) else { return file }
    return OfflineDecryptingByteSource(
      upstream: file,
      cipher: try OfflineFileCipher.cipher(
        key: key, salt: manifest.encryption?.salt ?? "", path: manifest.playbackPath))
  }
}
