import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// A completed offline download: a folder with local playlists (or one media file) and
/// its `playhead-offline.json` manifest, playable with no network.
///
/// `Player(url: folderURL)` plays it: an `Asset` whose URL is such a folder reads its
/// manifest and plays `playbackURL`, decrypting files encrypted at rest with the key
/// registered in `OfflineKeyRegistry.shared`. Opening a folder without a manifest throws
/// `.fileNotFound`; a manifest that does not decode throws `.unsupportedFormat`.
///
/// Example:
/// ```swift
/// let asset = try OfflineAsset(folderURL: folder)
/// try asset.verify()
/// let player = Player(url: asset.folderURL)
/// ```
public struct OfflineAsset: Sendable, Equatable {
  /// Whether a key can open an encrypted download.
  public enum KeyCheck: Sendable, Equatable {
    /// The download is stored as downloaded; no key is needed.
    case notEncrypted
    /// The key is the download's key.
    case matches
    /// No key was given (or none is registered).
    case missing
    /// The key is not the download's key.
    case wrong
  }

  /// The download folder.
  public let folderURL: URL
  /// The folder's manifest.
  public let manifest: OfflineManifest

  /// Reads the manifest of the download in `folderURL`.
  public init(folderURL: URL) throws(PlayheadError) {
    let folder = folderURL.standardizedFileURL
    let manifestURL = folder.appendingPathComponent(OfflineManifest.fileName)
    guard let data = FileManager.default.contents(atPath: manifestURL.path) else {
      throw PlayheadError(
        .fileNotFound,
        "\(folder.path) is not a completed offline download (no \(OfflineManifest.fileName))",
        url: folder)
    }
    self.folderURL = folder
    self.manifest = try OfflineManifest.decode(data, url: manifestURL)
    guard Self.isSafeRelativePath(manifest.playbackPath) else {
      throw PlayheadError(
        .unsupportedFormat,
        "the offline manifest names an unsafe playback path '\(manifest.playbackPath)'",
        url: manifestURL)
    }
  }

  /// The completed download in `url` when `url` is a local folder holding a manifest;
  /// nil for anything else (a file, a remote URL, a folder without a manifest).
  public static func resolve(_ url: URL) -> OfflineAsset? {
    guard url.isFileURL else { return nil }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return nil }
    return try? OfflineAsset(folderURL: url)
  }

  /// The local file the player opens: the rewritten master playlist or the media file.
  public var playbackURL: URL {
    folderURL.appendingPathComponent(manifest.playbackPath)
  }

  /// Whether the files are encrypted at rest.
  public var isEncrypted: Bool { manifest.encryption != nil }

  /// Whether `key` opens this download.
  public func check(key: [UInt8]?) -> KeyCheck {
    guard let encryption = manifest.encryption else { return .notEncrypted }
    guard let key else { return .missing }
    guard let id = try? OfflineKeyRegistry.keyID(for: key) else { return .wrong }
    return id == encryption.keyID ? .matches : .wrong
  }

  /// Checks every file of the manifest: present, of its recorded length and, with
  /// `checksums`, of its recorded SHA-256. Throws `.ioError` naming the first bad file.
  public func verify(checksums: Bool = true) throws(PlayheadError) {
    for file in manifest.files {
      guard Self.isSafeRelativePath(file.path) else {
        throw PlayheadError(.ioError, "the manifest names an unsafe path '\(file.path)'")
      }
      let url = folderURL.appendingPathComponent(file.path)
      guard let size = AtomicFile.size(of: url) else {
        throw PlayheadError(.ioError, "offline file \(file.path) is missing", url: url)
      }
      guard size == file.length else {
        throw PlayheadError(
          .ioError, "offline file \(file.path) has \(size) bytes, expected \(file.length)",
          url: url)
      }
      if checksums {
        let digest = SHA256.hex(try SHA256.digest(ofFileAt: url))
        guard digest == file.sha256 else {
          throw PlayheadError(
            .ioError, "offline file \(file.path) fails its SHA-256 check", url: url)
        }
      }
    }
  }

  /// The key for this download from `registry`: nil when it is not encrypted; throws
  /// `.decryptionFailed` when the key is missing or wrong.
  func key(from registry: OfflineKeyRegistry) throws(PlayheadError) -> [UInt8]? {
    guard let encryption = manifest.encryption else { return nil }
    guard encryption.scheme == OfflineFileCipher.scheme else {
      throw PlayheadError(
        .unsupportedFormat,
        "the offline download uses encryption scheme '\(encryption.scheme)', unknown to this build",
        url: folderURL)
    }
    if let key = registry.key(forKeyID: encryption.keyID) { return key }
    if registry.count == 0 {
      throw PlayheadError(
        .decryptionFailed,
        "the offline download \(folderURL.path) is encrypted at rest and no offline key is registered (missing key)",
        url: folderURL)
    }
    throw PlayheadError(
      .decryptionFailed,
      "no registered offline key matches the download \(folderURL.path) (wrong key; key ID \(encryption.keyID))",
      url: folderURL)
  }

  /// The paths (relative to the folder) of the files encrypted at rest.
  var encryptedPaths: Set<String> {
    Set(manifest.files.filter(\.isEncrypted).map(\.path))
  }

  /// Whether `path` stays inside the folder: relative, no `..`, not empty.
  static func isSafeRelativePath(_ path: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    return !path.isEmpty && !path.hasPrefix("/") && !parts.contains("..")
      && !parts.contains("")
  }
}
