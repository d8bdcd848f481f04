import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadHLS
import PlayheadText

/// Fetches the WebVTT segments of an HLS subtitle rendition on a thread of its own and
/// hands their cues, on the item timeline, to its owner.
///
/// The segments and their item times come from the engine (`SubtitleSegmentList`, loaded
/// when the rendition is selected). Order: the segment at the play position first, then the
/// ones after it (up to the look-ahead, when there is one), then, without a look-ahead, the
/// ones before it; a new position (a seek) changes what comes next. A complete (VOD) list
/// is read as it is; for an incomplete one the playlist is read: an `EVENT` playlist is
/// reloaded every target duration and its new segments follow the last one; a
/// sliding-window live playlist is refused (see docs/tracks.md).
///
/// Cue times: a segment's cues are moved to the media timeline by its `X-TIMESTAMP-MAP`
/// (unwrapped near the segment's expected media time), then by the timeline origin: the
/// start time of the variant's first segment, or, when it cannot be read, the first
/// segment map's offset (so that local cue time 0 is item time 0). A segment without a
/// map has cue time 0 at MPEG-2 time 0 (RFC 8216 3.5).
final class HLSSubtitleLoader: Sendable {
  /// Where the loader reports; called on the loader thread.
  struct Handlers: Sendable {
    /// Cues of one segment, on the item timeline.
    var cues: @Sendable ([WebVTTCue]) -> Void
    /// Every segment up to the horizon has been fetched (once).
    var caughtUp: @Sendable () -> Void
    /// The playlist or a segment failed.
    var failed: @Sendable (PlayheadError) -> Void
  }

  private struct State: Sendable {
    var position: MediaTime = .zero
    var cancelled = false
    /// The timeline origin measured from the variant (loader thread only).
    var origin: MediaTime?
    /// The first segment map's offset, when no origin could be measured (loader thread
    /// only).
    var fallbackOrigin: MediaTime?
  }

  private struct Entry {
    var url: URL
    var start: MediaTime
    var end: MediaTime
    var fetched = false
  }

  private let list: SubtitleSegmentList
  private let variantURL: URL?
  private let fetcher: TextTrackFetcher
  private let lookAhead: MediaTime?
  private let waitClock: any Clock
  private let handlers: Handlers
  private let wake = WakeSignal()
  private let state = Locked(State())

  init(
    list: SubtitleSegmentList, variantURL: URL?, fetcher: TextTrackFetcher, lookAhead: MediaTime?,
    waitClock: any Clock, handlers: Handlers
  ) {
    self.list = list
    self.variantURL = variantURL
    self.fetcher = fetcher
    self.lookAhead = lookAhead
    self.waitClock = waitClock
    self.handlers = handlers
  }

  /// Starts the loader thread at `position`.
  func start(at position: MediaTime) {
    update(position: position)
    Thread.detachNewThread { [self] in run() }
  }

  /// The play position moved; the loader picks its next segment from there.
  func update(position newPosition: MediaTime) {
    guard newPosition.isNumeric else { return }
    let changed = state.withLock { state in
      defer { state.position = newPosition }
      return newPosition != state.position
    }
    if changed { wake.raise() }
  }

  /// Stops the loader; a load in progress finishes and its result is dropped.
  func cancel() {
    state.withLock { $0.cancelled = true }
    wake.raise()
  }

  private var isCancelled: Bool { state.withLock { $0.cancelled } }

  private var currentPosition: MediaTime { state.withLock { $0.position } }

  private func run() {
    var entries = list.segments.map { segment in
      Entry(url: segment.url, start: segment.timeRange.start, end: segment.timeRange.end)
    }
    var playlist: MediaPlaylist?
    if !list.isComplete {
      do {
        let fetched = try fetcher.mediaPlaylist(at: list.playlistURL)
        guard fetched.endList || fetched.playlistType == .event else {
          handlers.failed(
            PlayheadError(
              .unsupportedFormat,
              "subtitle rendition \(list.playlistURL.absoluteString) is a sliding-window live "
                + "playlist; only VOD and EVENT subtitle playlists are read",
              url: list.playlistURL))
          return
        }
        entries += Self.entries(of: fetched, after: entries)
        playlist = fetched
      } catch {
        if !isCancelled { handlers.failed(error) }
        return
      }
    }
    if let variantURL {
      let measured = try? HLSTimelineOrigin.measure(variantURL: variantURL, fetcher: fetcher)
      state.withLock { $0.origin = measured }
    }
    var caughtUp = false
    var nextReload = waitClock.now + Self.reloadInterval(playlist)
    while !isCancelled {
      if let index = nextIndex(in: entries, at: currentPosition) {
        entries[index].fetched = true
        fetch(entries[index])
        continue
      }
      if !caughtUp {
        caughtUp = true
        handlers.caughtUp()
      }
      guard let current = playlist, !current.endList else {
        if entries.allSatisfy(\.fetched) { return }
        wake.waitUntilRaised()
        continue
      }
      guard waitClock.wait(until: nextReload, orUntil: wake) else { continue }
      if let reloaded = try? fetcher.mediaPlaylist(at: list.playlistURL) {
        entries += Self.entries(of: reloaded, after: entries)
        playlist = reloaded
      }
      nextReload = waitClock.now + Self.reloadInterval(playlist ?? current)
    }
  }

  /// How long an `EVENT` playlist is left before it is read again: its target duration.
  private static func reloadInterval(_ playlist: MediaPlaylist?) -> MediaTime {
    MediaTime(value: Int64(max(1, playlist?.targetDuration ?? 1)), timescale: 1)
  }

  /// The segments of an `EVENT` playlist beyond the `known` ones (such a playlist only
  /// grows at its end), timed on from the last known one.
  private static func entries(of playlist: MediaPlaylist, after known: [Entry]) -> [Entry] {
    var time = known.last?.end ?? .zero
    var result: [Entry] = []
    for segment in playlist.segments.dropFirst(known.count) {
      let end = time + segment.duration
      result.append(Entry(url: segment.uri, start: time, end: end, fetched: segment.gap))
      time = end
    }
    return result
  }

  /// The next segment to fetch at `position` (see the type's order); nil when none is due.
  private func nextIndex(in entries: [Entry], at position: MediaTime) -> Int? {
    let horizon = lookAhead.map { position + $0 }
    if let ahead = entries.indices.first(where: { index in
      let entry = entries[index]
      return !entry.fetched && entry.end > position && (horizon.map { entry.start <= $0 } ?? true)
    }) {
      return ahead
    }
    guard lookAhead == nil else { return nil }
    return entries.indices.last { !entries[$0].fetched }
  }

  /// Fetches one segment and reports its cues (or its failure).
  private func fetch(_ entry: Entry) {
    let document: WebVTTDocument
    do {
      document = try fetcher.webVTT(at: entry.url)
    } catch {
      if !isCancelled { handlers.failed(error) }
      return
    }
    guard !isCancelled else { return }
    handlers.cues(itemCues(of: document, segmentStart: entry.start))
  }

  /// The cues of a segment on the item timeline (see the type).
  private func itemCues(of document: WebVTTDocument, segmentStart: MediaTime) -> [WebVTTCue] {
    let base: MediaTime
    let media: [WebVTTCue]
    if let map = document.timestampMap {
      let chosen = state.withLock { state in
        let chosen = state.origin ?? state.fallbackOrigin ?? map.offset(near: nil)
        if state.origin == nil && state.fallbackOrigin == nil { state.fallbackOrigin = chosen }
        return chosen
      }
      base = chosen
      media = document.cuesOnMediaTimeline(near: chosen + segmentStart)
    } else {
      base = state.withLock { $0.origin } ?? .zero
      media = document.cues
    }
    return media.map { cue in
      WebVTTCue(
        identifier: cue.identifier, start: cue.start - base, end: cue.end - base,
        settings: cue.settings, text: cue.text)
    }
  }
}
