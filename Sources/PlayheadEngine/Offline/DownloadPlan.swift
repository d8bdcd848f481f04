import Foundation
import PlayheadCore

/// One file a download fetches: a whole resource or a byte range of one, stored at `path`.
struct DownloadUnit: Codable, Sendable, Equatable {
  /// Where the bytes come from.
  var source: URL
  /// The byte range of `source`, when the playlist names one (`EXT-X-BYTERANGE`).
  var rangeOffset: Int64?
  var rangeLength: Int64?
  /// The path in the download folder.
  var path: String
  var role: OfflineManifest.Role
  /// The exact length: the range length, or the resource length once a response told it;
  /// nil until then.
  var expectedLength: Int64?
  /// A guess for progress reports while `expectedLength` is unknown.
  var estimatedLength: Int64?

  /// The length to count in progress totals.
  var countedLength: Int64 { expectedLength ?? estimatedLength ?? 0 }
}

/// A playlist the download writes, already rewritten to local relative URIs.
struct LocalPlaylist: Codable, Sendable, Equatable {
  var path: String
  var text: String
}

/// Everything `start` decided, persisted so that a resumed download (even in a new
/// process) fetches the same files into the same places.
struct DownloadPlan: Codable, Sendable, Equatable {
  var kind: OfflineManifest.Kind
  var playbackPath: String
  var durationSeconds: Double?
  var selectionSummary: String
  var units: [DownloadUnit]
  var playlists: [LocalPlaylist]
  /// The key ID of the encryption at rest; nil stores the files as downloaded.
  var encryptionKeyID: String?
  /// The random salt (32 hex digits) the file nonces of this plan derive from; a new plan
  /// (after `cancel`) gets a new one, so a key never reuses a key stream on other bytes.
  var encryptionSalt: String? = nil

  /// Whether the file at `path` is encrypted at rest (media, segments, init sections and
  /// keys; playlists and subtitles stay clear).
  func isEncrypted(_ unit: DownloadUnit) -> Bool {
    encryptionKeyID != nil && unit.role != .subtitle && unit.role != .playlist
  }
}
