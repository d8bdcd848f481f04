import Foundation
import PlayheadCore

/// The small JSON file (`playhead-offline.json`) that makes a folder a completed offline
/// download: what was downloaded, which file to play, and every file with its length and
/// SHA-256.
///
/// The download manager writes it last, after every file is on disk and verified, so a
/// folder without it is never played as an offline download. See docs/offline.md.
public struct OfflineManifest: Codable, Sendable, Equatable {
  /// The manifest's file name inside a download folder.
  public static let fileName = "playhead-offline.json"
  /// The format version this build writes and reads.
  public static let currentFormatVersion = 1

  /// What kind of media the folder holds.
  public enum Kind: String, Codable, Sendable {
    /// An HLS stream rewritten to local playlists.
    case hls
    /// One progressive file (MP4, MP3, WebM…).
    case progressive
  }

  /// What one file holds.
  public enum Role: String, Codable, Sendable {
    case playlist, segment, initializationSection, key, subtitle, media
  }

  /// One file of the download.
  public struct File: Codable, Sendable, Equatable {
    /// The path relative to the folder, with `/` separators.
    public var path: String
    /// The length on disk in bytes.
    public var length: Int64
    /// The SHA-256 of the bytes on disk, as 64 lowercase hex digits.
    public var sha256: String
    /// What the file holds.
    public var role: Role
    /// Whether the bytes on disk are encrypted at rest (see `Encryption`).
    public var isEncrypted: Bool

    public init(path: String, length: Int64, sha256: String, role: Role, isEncrypted: Bool) {
      self.path = path
      self.length = length
      self.sha256 = sha256
      self.role = role
      self.isEncrypted = isEncrypted
    }
  }

  /// How the files marked `isEncrypted` are encrypted at rest.
  public struct Encryption: Codable, Sendable, Equatable {
    /// The scheme: `aes-128-ctr-v1` (see docs/decisions/0015).
    public var scheme: String
    /// The key's ID (`OfflineKeyRegistry.keyID(for:)`), to tell a wrong key from the right
    /// one without storing the key.
    public var keyID: String
    /// The download's random salt (32 hex digits) that every file's nonce derives from.
    public var salt: String

    public init(scheme: String, keyID: String, salt: String) {
      self.scheme = scheme
      self.keyID = keyID
      self.salt = salt
    }
  }

  /// The format version (`currentFormatVersion` when written by this build).
  public var formatVersion: Int
  /// The URL the download came from.
  public var sourceURL: String
  /// HLS or progressive.
  public var kind: Kind
  /// The file to play, relative to the folder (`master.m3u8`, `media.mp4`…).
  public var playbackPath: String
  /// The playable duration in seconds, when known.
  public var durationSeconds: Double?
  /// A short human-readable description of what was chosen (variant, audio, subtitles).
  public var selectionSummary: String
  /// Every file, playlists included.
  public var files: [File]
  /// Encryption at rest; nil when the files are stored as downloaded.
  public var encryption: Encryption?
  /// When the download completed, in seconds since 1970.
  public var completedAtSeconds: Double

  public init(
    sourceURL: String, kind: Kind, playbackPath: String, durationSeconds: Double?,
    selectionSummary: String, files: [File], encryption: Encryption?, completedAtSeconds: Double
  ) {
    self.formatVersion = Self.currentFormatVersion
    self.sourceURL = sourceURL
    self.kind = kind
    self.playbackPath = playbackPath
    self.durationSeconds = durationSeconds
    self.selectionSummary = selectionSummary
    self.files = files
    self.encryption = encryption
    self.completedAtSeconds = completedAtSeconds
  }

  /// The total length of the files in bytes.
  public var totalBytes: Int64 { files.reduce(0) { $0 + $1.length } }

  /// Decodes a manifest with `JSONReader` (64 levels of nesting, linear time); throws
  /// `.unsupportedFormat` for bytes that are not one (the message says why and where), or a
  /// format version this build does not know.
  public static func decode(_ data: Data, url: URL? = nil) throws(PlayheadError) -> OfflineManifest
  {
    let manifest: OfflineManifest
    do {
      manifest = try JSONReader.decode(OfflineManifest.self, from: data, limits: .localState)
    } catch {
      let name = url.map { "the offline manifest \($0.path)" } ?? "the offline manifest"
      throw PlayheadError(
        .unsupportedFormat, "\(name) does not decode: \(error.message)", url: url)
    }
    guard manifest.formatVersion == currentFormatVersion else {
      throw PlayheadError(
        .unsupportedFormat,
        "the offline manifest has format version \(manifest.formatVersion); this build reads \(currentFormatVersion)",
        url: url)
    }
    return manifest
  }

  /// The manifest as sorted, pretty-printed JSON.
  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return (try? encoder.encode(self)) ?? Data()
  }
}
