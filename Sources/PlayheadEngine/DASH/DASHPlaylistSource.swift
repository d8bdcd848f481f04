import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadHLS
import PlayheadNet

/// Answers the segment engine's playlist loads for a DASH manifest: the manifest's own URL
/// gives the translated master playlist, the `#dash:` names under it their media
/// playlists (`DASHTranslation`).
///
/// The MPD is loaded once, through the player's data-source stack, when the engine first
/// asks; a `SegmentBase` Representation's `sidx` is loaded when its playlist is first
/// asked for. Thread-safe: the main stream and its renditions ask from their own threads.
final class DASHPlaylistSource: HLSPlaylistSource {
  let manifestURL: URL
  private let state = Locked<State>(State())

  private struct State {
    var translation: DASHTranslation?
    var playlists: [String: MediaPlaylist] = [:]
  }

  init(manifestURL: URL) {
    var bare = URLComponents(url: manifestURL, resolvingAgainstBaseURL: true)
    bare?.fragment = nil
    self.manifestURL = bare?.url ?? manifestURL
  }

  /// A source for the MPD `data`, already loaded from `manifestURL` (a download planner
  /// that sniffed it): it is translated now, not loaded again.
  convenience init(manifestURL: URL, manifestData data: Data) throws(PlayheadError) {
    self.init(manifestURL: manifestURL)
    _ = try translate(data)
  }

  func playlist(at url: URL, loader: DataLoader) throws(PlayheadError) -> (
    playlist: Playlist, bytes: Int
  )? {
    if url.absoluteString == manifestURL.absoluteString {
      if let loaded = state.withLock({ $0.translation }) { return (.master(loaded.master), 0) }
      let (translation, bytes) = try loadManifest(loader: loader)
      return (.master(translation.master), bytes)
    }
    guard let key = DASHTranslation.key(of: url, manifest: manifestURL) else { return nil }
    if let cached = state.withLock({ $0.playlists[key] }) { return (.media(cached), 0) }
    let translation: DASHTranslation
    var bytes = 0
    if let loaded = state.withLock({ $0.translation }) {
      translation = loaded
    } else {
      (translation, bytes) = try loadManifest(loader: loader)
    }
    guard
      let media = try translation.mediaPlaylist(
        key,
        indexed: { (representation, period) throws(PlayheadError) in
          try Self.indexedSegments(representation, period: period, loader: loader)
        })
    else {
      throw PlayheadError(
        .invalidPlaylist, "the DASH manifest has no playlist \(key) (\(url.absoluteString))",
        url: url)
    }
    state.withLock { $0.playlists[key] = media }
    return (.media(media), bytes)
  }

  /// The first ClearKey licence server the MPD's ContentProtection names (`Laurl`), once
  /// loaded.
  var clearKeyLicenseURL: URL? {
    state.withLock { $0.translation }?.clearKeyLicenseURL
  }

  /// Loads and translates the MPD; returns it with its size in bytes.
  private func loadManifest(loader: DataLoader) throws(PlayheadError) -> (DASHTranslation, Int) {
    let data = try loader.load(DataRequest(url: manifestURL, purpose: .playlist)).data
    return (try translate(data), data.count)
  }

  /// Parses and translates the MPD `data` and keeps the translation.
  private func translate(_ data: Data) throws(PlayheadError) -> DASHTranslation {
    let mpd: MPD
    do {
      mpd = try MPDParser.parse(data, url: manifestURL)
    } catch {
      throw PlayheadError(
        .invalidPlaylist, "bad MPD \(manifestURL.absoluteString): \(error)", url: manifestURL)
    }
    let translation = try DASHTranslation(mpd: mpd, manifestURL: manifestURL)
    state.withLock { $0.translation = translation }
    return translation
  }

  /// The segments of a `SegmentBase` Representation, read from its `sidx` (loaded through
  /// the stack: `@indexRange`, else a guess after the initialization range, widened as
  /// the index says, up to `maximumIndexBytes`); nil when the file has no `sidx` where
  /// one would be (the whole file then plays as one segment).
  ///
  /// Throws the load's error, or `.invalidPlaylist` for an index that is malformed or
  /// larger than the limit.
  static func indexedSegments(
    _ representation: MPDRepresentation, period: MPDPeriod, loader: DataLoader
  ) throws(PlayheadError) -> [MPDSegmentReference]? {
    guard case .base(let base) = representation.addressing else { return nil }
    var range = base.indexFetchRange
    while true {
      let data = try loader.load(
        DataRequest(url: base.media, range: range, purpose: .initializationSection)
      ).data
      let parsed: MPDSegmentIndex.Parsed
      do {
        parsed = try MPDSegmentIndex.parse(data, offset: range.offset)
      } catch {
        // A guessed range that holds no index: the file has none where it was looked for.
        if base.indexRange == nil { return nil }
        throw PlayheadError(
          .invalidPlaylist,
          "the sidx of Representation \(representation.id) (\(base.media.absoluteString)) "
            + "is malformed: \(error)", url: base.media)
      }
      switch parsed {
      case .index(let index):
        return base.segments(from: index, in: period)
      case .needsBytes(let end):
        guard end - range.offset < maximumIndexBytes else {
          throw PlayheadError(
            .invalidPlaylist,
            "the sidx of Representation \(representation.id) needs \(end - range.offset) "
              + "bytes, more than \(maximumIndexBytes)", url: base.media)
        }
        range = ByteRange(offset: range.offset, length: end - range.offset)
      }
    }
  }

  /// The most bytes a `sidx` (with its sub-indexes) may take: 8 MiB.
  static let maximumIndexBytes: Int64 = 8 << 20
}
