import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadHLS
import PlayheadMedia
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
  /// The wall clock a live MPD's availability is read against (the player's clock, carried
  /// from the instant the source was made; see `MediaSourceFactory`).
  private let wallClock: @Sendable () -> Date
  private let state = Locked<State>(State())

  private struct State {
    var translation: DASHTranslation?
    /// Media playlists of a static MPD, made once.
    var playlists: [String: MediaPlaylist] = [:]
    /// When a dynamic MPD is to be loaded again (wall clock, corrected).
    var reloadDue: Date?
    /// Server time minus local time, from the MPD's UTCTiming (else its `Date` header).
    var clockOffsetSeconds: TimeInterval = 0
    /// The first media sequence number of each live playlist last made: when the MPD turns
    /// static (the packager ended the stream), its playlists keep that window's start, as
    /// an HLS live playlist that gains its ENDLIST does.
    var liveWindowStarts: [String: Int] = [:]
  }

  init(manifestURL: URL, wallClock: @escaping @Sendable () -> Date = { Date() }) {
    var bare = URLComponents(url: manifestURL, resolvingAgainstBaseURL: true)
    bare?.fragment = nil
    self.manifestURL = bare?.url ?? manifestURL
    self.wallClock = wallClock
  }

  /// A source for the MPD `data`, already loaded from `manifestURL` (a download planner
  /// that sniffed it): it is translated now, not loaded again.
  convenience init(manifestURL: URL, manifestData data: Data) throws(PlayheadError) {
    self.init(manifestURL: manifestURL)
    let translation = try Self.translate(data, url: manifestURL)
    state.withLock { $0.translation = translation }
  }

  /// The wall-clock time a live MPD is read at: the clock, corrected by the server's.
  var now: Date { wallClock().addingTimeInterval(state.withLock { $0.clockOffsetSeconds }) }

  func playlist(at url: URL, loader: DataLoader) throws(PlayheadError) -> (
    playlist: Playlist, bytes: Int
  )? {
    if url.absoluteString == manifestURL.absoluteString {
      if let loaded = state.withLock({ $0.translation }) { return (.master(loaded.master), 0) }
      let (translation, bytes) = try loadManifest(from: manifestURL, loader: loader)
      return (.master(translation.master), bytes)
    }
    guard let key = DASHTranslation.key(of: url, manifest: manifestURL) else { return nil }
    if let cached = state.withLock({ $0.playlists[key] }) { return (.media(cached), 0) }
    var (translation, reloadDue) = state.withLock { ($0.translation, $0.reloadDue) }
    var bytes = 0
    if translation == nil {
      (translation, bytes) = try loadManifest(from: manifestURL, loader: loader)
    } else if let current = translation, let due = reloadDue, now >= due {
      (translation, bytes) = try loadManifest(
        from: current.mpd.reloadURL, loader: loader, replacing: current)
    }
    guard let translation,
      var media = try translation.mediaPlaylist(
        key,
        indexed: { (representation, period) throws(PlayheadError) in
          try Self.indexedSegments(representation, period: period, loader: loader)
        }, now: now)
    else {
      throw PlayheadError(
        .invalidPlaylist, "the DASH manifest has no playlist \(key) (\(url.absoluteString))",
        url: url)
    }
    let isLive = translation.mpd.type == .dynamic
    let windowStart = state.withLock { state -> Int? in
      if isLive { state.liveWindowStarts[key] = media.mediaSequence }
      return state.liveWindowStarts[key]
    }
    if !isLive, let windowStart {
      media.segments.removeAll { $0.mediaSequence < windowStart }
      media.mediaSequence = media.segments.first?.mediaSequence ?? windowStart
      media.discontinuitySequence =
        media.segments.first?.discontinuitySequence ?? media.discontinuitySequence
      media.playlistType = nil
    }
    if !isLive { state.withLock { $0.playlists[key] = media } }
    return (.media(media), bytes)
  }

  /// The first ClearKey licence server the MPD's ContentProtection names (`Laurl`), once
  /// loaded.
  var clearKeyLicenseURL: URL? {
    state.withLock { $0.translation }?.clearKeyLicenseURL
  }

  /// Every Common Encryption key ID the MPD names (`cenc:default_KID`), once loaded.
  var contentKeyIDs: [[UInt8]] {
    guard let mpd = state.withLock({ $0.translation })?.mpd else { return [] }
    var seen: Set<[UInt8]> = []
    var keyIDs: [[UInt8]] = []
    for period in mpd.periods {
      for set in period.adaptationSets {
        for representation in set.representations {
          for protection in representation.contentProtections {
            guard let hex = protection.defaultKID,
              let keyID = try? SampleKeyID.bytes(fromHex: hex), seen.insert(keyID).inserted
            else { continue }
            keyIDs.append(keyID)
          }
        }
      }
    }
    return keyIDs
  }

  /// Loads and translates the MPD at `url` (the manifest, or a live MPD's `Location`);
  /// returns the translation in use and the bytes loaded. A reload whose MPD is older than
  /// `replacing` (an earlier `publishTime`) keeps the current one.
  private func loadManifest(
    from url: URL, loader: DataLoader, replacing current: DASHTranslation? = nil
  ) throws(PlayheadError) -> (DASHTranslation, Int) {
    let sentAt = wallClock()
    let response = try loader.load(
      DataRequest(url: url, purpose: .playlist, flags: current == nil ? [] : [.bypassesCache]))
    let receivedAt = wallClock()
    var translation = try Self.translate(response.data, url: manifestURL)
    if let current, !current.mpd.isSuperseded(by: translation.mpd) { translation = current }
    if current == nil {
      let offset = clockOffset(
        of: translation.mpd, dateHeader: response.headers["Date"] ?? response.headers["date"],
        sentAt: sentAt, receivedAt: receivedAt, loader: loader)
      state.withLock { $0.clockOffsetSeconds = offset }
    }
    let fetchedAt = receivedAt.addingTimeInterval(state.withLock { $0.clockOffsetSeconds })
    let due = translation.mpd.nextReloadTime(fetchedAt: fetchedAt)
    state.withLock { state in
      state.translation = translation
      state.reloadDue = due
    }
    return (translation, response.data.count)
  }

  /// Server time minus local time: from the first UTCTiming source that answers (direct,
  /// or an http-xsdate / http-iso / http-head request through the stack), else the MPD
  /// response's `Date` header, else zero. Only a dynamic MPD needs it.
  private func clockOffset(
    of mpd: MPD, dateHeader: String?, sentAt: Date, receivedAt: Date, loader: DataLoader
  ) -> TimeInterval {
    guard mpd.type == .dynamic else { return 0 }
    for timing in mpd.utcTimingSources where timing.isSupported {
      if case .direct(let date) = timing {
        return MPDUTCTiming.clockOffsetSeconds(
          serverTime: date, requestSentAt: sentAt, responseReceivedAt: receivedAt)
      }
      for url in timing.urls {
        let asked = wallClock()
        guard
          let response = try? loader.load(
            DataRequest(url: url, purpose: .api, flags: [.bypassesCache])),
          let server = try? timing.serverTime(
            body: response.data, dateHeader: response.headers["Date"] ?? response.headers["date"])
        else { continue }
        return MPDUTCTiming.clockOffsetSeconds(
          serverTime: server, requestSentAt: asked, responseReceivedAt: wallClock())
      }
    }
    if let dateHeader, let server = HTTPDate.parse(dateHeader) {
      return MPDUTCTiming.clockOffsetSeconds(
        serverTime: server, requestSentAt: sentAt, responseReceivedAt: receivedAt)
    }
    return 0
  }

  /// Parses and translates the MPD `data` loaded from `url`.
  private static func translate(_ data: Data, url: URL) throws(PlayheadError) -> DASHTranslation {
    let mpd: MPD
    do {
      mpd = try MPDParser.parse(data, url: url)
    } catch {
      throw PlayheadError(.invalidPlaylist, "bad MPD \(url.absoluteString): \(error)", url: url)
    }
    return try DASHTranslation(mpd: mpd, manifestURL: url)
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
    // A file with neither an index nor an initialization range (a WebVTT file, a whole
    // MP4) is one segment.
    guard base.indexRange != nil || base.initialization != nil else { return nil }
    let isGuess = base.indexRange == nil
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
        if isGuess { return nil }
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
          if isGuess { return nil }
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
