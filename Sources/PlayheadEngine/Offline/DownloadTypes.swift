import Foundation
import PlayheadCore

/// Identifies one download of a `DownloadManager`; stable across restarts.
public struct DownloadID: Hashable, Codable, Sendable, CustomStringConvertible {
  /// The identifier's text (a lowercase UUID for the manager's own IDs).
  public let rawValue: String

  public init(_ rawValue: String) {
    self.rawValue = rawValue
  }

  /// A new random ID.
  public static func make() -> DownloadID { DownloadID(UUID().uuidString.lowercased()) }

  public var description: String { rawValue }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// Where a download stands (the seed's states).
public enum DownloadState: String, Codable, Sendable, CaseIterable {
  /// Prepared (media info known), not started yet.
  case requested
  /// Files are being fetched or processed.
  case downloading
  /// Paused by the application, or interrupted by a restart; `resume` continues it.
  case suspended
  /// Cancelled: the partial files are removed; `resume` starts it again from nothing.
  case cancelled
  /// Every file is on disk and verified; the folder plays offline.
  case completed
  /// Stopped by an error; the files fetched so far are kept and `resume` continues.
  case error
}

/// Which renditions to download from an HLS stream; progressive files ignore it.
///
/// The variant is `variantIndex` when given, else the highest bandwidth at or below
/// `maxBitrate` (the lowest variant when none is that low), else the highest bandwidth.
/// The audio rendition is the one of the variant's `AUDIO` group in `audioLanguage` (an
/// error when there is none), else its default, else its first. Subtitles are downloaded
/// only with `subtitleLanguage` (an error when the variant's `SUBTITLES` group has none in
/// that language).
public struct DownloadSelection: Codable, Sendable, Equatable {
  /// The index of the variant in the master playlist (`EXT-X-STREAM-INF` order).
  public var variantIndex: Int?
  /// The highest `BANDWIDTH` to choose, in bits per second.
  public var maxBitrate: Int?
  /// The audio rendition's language (`en`, `fr`, `pt-BR`; matched on the primary subtag).
  public var audioLanguage: String?
  /// The subtitle rendition's language; nil downloads no subtitles.
  public var subtitleLanguage: String?

  public init(
    variantIndex: Int? = nil, maxBitrate: Int? = nil, audioLanguage: String? = nil,
    subtitleLanguage: String? = nil
  ) {
    self.variantIndex = variantIndex
    self.maxBitrate = maxBitrate
    self.audioLanguage = audioLanguage
    self.subtitleLanguage = subtitleLanguage
  }
}

/// One track a prepared download offers (the seed's `AVPTrackInfo`).
public struct DownloadTrack: Codable, Sendable, Equatable {
  /// What the track is.
  public enum Kind: String, Codable, Sendable {
    /// An HLS variant (video, with its muxed or grouped audio).
    case video
    /// An HLS alternative audio rendition.
    case audio
    /// An HLS subtitle rendition.
    case subtitles
    /// A progressive file, downloaded whole.
    case file
  }

  /// The index to pass to `DownloadManager.selectTrack(_:for:)`: the position in
  /// `DownloadMediaInfo.tracks`.
  public var trackIndex: Int
  public var kind: Kind
  /// For `.video`: the variant's index in the master playlist.
  public var variantIndex: Int?
  /// `BANDWIDTH` (video) in bits per second.
  public var bandwidth: Int?
  /// The width and height in pixels (video), when known.
  public var width: Int?
  public var height: Int?
  /// `CODECS`, or the codec names of a progressive file.
  public var codecs: String?
  /// The language tag (audio, subtitles).
  public var language: String?
  /// The rendition's name.
  public var name: String?
  /// Whether the rendition is its group's default.
  public var isDefault: Bool
  /// The estimated download size in bytes: exact for progressive files and byte-range
  /// playlists, else `AVERAGE-BANDWIDTH` (or `BANDWIDTH`) × duration; nil when unknown.
  public var estimatedSizeBytes: Int64?

  public init(
    trackIndex: Int, kind: Kind, variantIndex: Int? = nil, bandwidth: Int? = nil,
    width: Int? = nil, height: Int? = nil, codecs: String? = nil, language: String? = nil,
    name: String? = nil, isDefault: Bool = false, estimatedSizeBytes: Int64? = nil
  ) {
    self.trackIndex = trackIndex
    self.kind = kind
    self.variantIndex = variantIndex
    self.bandwidth = bandwidth
    self.width = width
    self.height = height
    self.codecs = codecs
    self.language = language
    self.name = name
    self.isDefault = isDefault
    self.estimatedSizeBytes = estimatedSizeBytes
  }
}

/// What `prepare` found: the tracks to choose from (the seed's `AVPMediaInfo`).
public struct DownloadMediaInfo: Codable, Sendable, Equatable {
  public var id: DownloadID
  public var sourceURL: URL
  /// HLS or progressive.
  public var kind: OfflineManifest.Kind
  /// The duration in seconds, when known.
  public var durationSeconds: Double?
  /// Variants first (master order), then audio and subtitle renditions; one `.file` track
  /// for a progressive file.
  public var tracks: [DownloadTrack]

  public init(
    id: DownloadID, sourceURL: URL, kind: OfflineManifest.Kind, durationSeconds: Double?,
    tracks: [DownloadTrack]
  ) {
    self.id = id
    self.sourceURL = sourceURL
    self.kind = kind
    self.durationSeconds = durationSeconds
    self.tracks = tracks
  }
}

/// How far a download has come.
public struct DownloadProgress: Codable, Sendable, Equatable {
  /// Bytes on disk so far.
  public var downloadedBytes: Int64
  /// The expected total: exact once every file's length is known, an estimate before.
  public var expectedBytes: Int64
  /// Files complete on disk.
  public var completedFiles: Int
  /// Files in the download (0 before `start`).
  public var totalFiles: Int

  public init(
    downloadedBytes: Int64 = 0, expectedBytes: Int64 = 0, completedFiles: Int = 0,
    totalFiles: Int = 0
  ) {
    self.downloadedBytes = downloadedBytes
    self.expectedBytes = expectedBytes
    self.completedFiles = completedFiles
    self.totalFiles = totalFiles
  }

  /// Whole percent done, 0 to 100 (100 only when every file is complete).
  public var percent: Int {
    if totalFiles > 0 && completedFiles == totalFiles { return 100 }
    guard expectedBytes > 0 else { return 0 }
    return min(99, Int(downloadedBytes * 100 / expectedBytes))
  }
}

/// An error kept with a download record (the code and message of a `PlayheadError`).
public struct DownloadFailure: Codable, Sendable, Equatable {
  public var code: PlayheadError.Code
  public var message: String
  public var httpStatusCode: Int?

  public init(_ error: PlayheadError) {
    code = error.code
    message = error.message
    httpStatusCode = error.httpStatusCode
  }

  /// The failure as an error again.
  public var error: PlayheadError {
    PlayheadError(code, message, httpStatusCode: httpStatusCode)
  }
}

/// One download as the manager lists it (persisted in the root directory).
public struct DownloadRecord: Codable, Sendable, Equatable {
  public var id: DownloadID
  public var sourceURL: URL
  /// The folder the download fills (and plays from once completed).
  public var folderURL: URL
  public var state: DownloadState
  /// The selection `start` will use (or used).
  public var selection: DownloadSelection
  /// What `prepare` found.
  public var mediaInfo: DownloadMediaInfo?
  public var progress: DownloadProgress
  /// Why the download stopped, in state `.error`.
  public var failure: DownloadFailure?
  /// The key ID of the encryption at rest, when the download is encrypted.
  public var encryptionKeyID: String?

  public init(
    id: DownloadID, sourceURL: URL, folderURL: URL, state: DownloadState,
    selection: DownloadSelection = DownloadSelection(), mediaInfo: DownloadMediaInfo? = nil,
    progress: DownloadProgress = DownloadProgress(), failure: DownloadFailure? = nil,
    encryptionKeyID: String? = nil
  ) {
    self.id = id
    self.sourceURL = sourceURL
    self.folderURL = folderURL
    self.state = state
    self.selection = selection
    self.mediaInfo = mediaInfo
    self.progress = progress
    self.failure = failure
    self.encryptionKeyID = encryptionKeyID
  }
}

/// What a download manager tells its observers, in order, on its event queue.
public enum DownloadEvent: Sendable {
  /// `prepare` finished: the tracks to choose from (the seed's `onPrepared`).
  case prepared(DownloadID, DownloadMediaInfo)
  /// The state changed.
  case stateChanged(DownloadID, DownloadState)
  /// More bytes are on disk (the seed's `onDownloadingProgress`).
  case downloadingProgress(DownloadID, DownloadProgress)
  /// Verification and playlist writing, in whole percent (the seed's
  /// `onProcessingProgress`).
  case processingProgress(DownloadID, percent: Int)
  /// Every file is on disk and verified (the seed's `onCompletion`).
  case completed(DownloadID, OfflineAsset)
  /// The download stopped on an error; it is resumable (the seed's `onError`).
  case failed(DownloadID, PlayheadError)

  /// The download the event is about.
  public var id: DownloadID {
    switch self {
    case .prepared(let id, _), .stateChanged(let id, _), .downloadingProgress(let id, _),
      .processingProgress(let id, _), .completed(let id, _), .failed(let id, _):
      return id
    }
  }
}
