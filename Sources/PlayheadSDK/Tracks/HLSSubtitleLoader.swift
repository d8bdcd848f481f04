import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadText

/// Fetches the WebVTT segments of an HLS subtitle rendition on a thread of its own and
/// hands their cues, on the item timeline, to its owner.
///
/// Order: the segment at the play position first, then the ones after it (up to the
/// look-ahead, when there is one), then, without a look-ahead, the ones before it; a new
/// position (a seek) changes what comes next. A VOD playlist is read once; an `EVENT`
/// playlist is reloaded every target duration; a sliding-window live playlist is refused
/// (the item timeline of its segments is the engine's, see docs/tracks.md).
///
/// Cue times: a segment's cues are moved to the media timeline by its `X-TIMESTAMP-MAP`
/// (unwrapped near the segment's expected media time), then by the timeline origin: the
/// start time of the variant's first segment, or, when it cannot be read, the first
/// segment map's offset (so that local cue time 0 is item time 0). A segment without a
/// map has cue time 0 at MPEG-2 time 0 (RFC 8216 3.5).
final class HLSSubtitleLoader: @unchecked Sendable {
  // Unchecked Sendable: `position`, `positionChanged` and `cancelled` are guarded by
  // `lock`; the rest is immutable or used only by the loader thread.
  /// Where the loader reports; called on the loader thread.
  struct Handlers: Sendable {
    /// Cues of one segment, on the item timeline.
    var cues: @Sendable ([WebVTTCue]) -> Void
    /// Every segment up to the horizon has been fetched (once).
    var caughtUp: @Sendable () -> Void
    /// The playlist or a segment failed.
    var failed: @Sendable (PlayheadError) -> Void
  }

  private struct Entry {
    var segment: MediaSegment
    var start: MediaTime
    var end: MediaTime
    var fetched = false
  }

  private let playlistURL: URL
  private let variantURL: URL?
  private let fetcher: TextTrackFetcher
  private let lookAhead: MediaTime?
  private let waitClock: any Clock
  private let handlers: Handlers
  private let lock = NSLock()
  private let wake = WakeSignal()
  private var position: MediaTime = .zero
  private var cancelled = false
  // Loader thread only.
  private var origin: MediaTime?
  private var fallbackOrigin: MediaTime?

  init(
    playlistURL: URL, variantURL: URL?, fetcher: TextTrackFetcher, lookAhead: MediaTime?,
    waitClock: any Clock, handlers: Handlers
  ) {
    self.playlistURL = playlistURL
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
    lock.lock()
    let changed = newPosition != position
    position = newPosition
    lock.unlock()
    if changed { wake.raise() }
  }

  /// Stops the loader; a load in progress finishes and its result is dropped.
  func cancel() {
    lock.lock()
    cancelled = true
    lock.unlock()
    wake.raise()
  }

  private var isCancelled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled
  }

  private var currentPosition: MediaTime {
    lock.lock()
    defer { lock.unlock() }
    return position
  }

  private func run() {
    var playlist: MediaPlaylist
    do {
      playlist = try fetcher.mediaPlaylist(at: playlistURL)
    } catch {
      if !isCancelled { handlers.failed(error) }
      return
    }
    guard playlist.endList || playlist.playlistType == .event else {
      handlers.failed(
        PlayheadError(
          .unsupportedFormat,
          "subtitle rendition \(playlistURL.absoluteString) is a sliding-window live playlist; "
            + "only VOD and EVENT subtitle playlists are read", url: playlistURL))
      return
    }
    if let variantURL {
      origin = try? HLSTimelineOrigin.measure(variantURL: variantURL, fetcher: fetcher)
    }
    var entries = Self.entries(of: playlist, after: nil, startingAt: .zero)
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
      if playlist.endList {
        if entries.allSatisfy(\.fetched) { return }
        wake.waitUntilRaised()
        continue
      }
      guard waitClock.wait(until: nextReload, orUntil: wake) else { continue }
      if let reloaded = try? fetcher.mediaPlaylist(at: playlistURL) {
        let end = entries.last?.end ?? .zero
        let lastSequence = entries.last?.segment.mediaSequence
        let added = Self.entries(of: reloaded, after: lastSequence, startingAt: end)
        entries += added
        playlist = reloaded
      }
      nextReload = waitClock.now + Self.reloadInterval(playlist)
    }
  }

  /// How long an `EVENT` playlist is left before it is read again: its target duration.
  private static func reloadInterval(_ playlist: MediaPlaylist) -> MediaTime {
    MediaTime(value: Int64(max(1, playlist.targetDuration)), timescale: 1)
  }

  /// The segments of `playlist` after media sequence `after`, timed from `start`.
  private static func entries(of playlist: MediaPlaylist, after: Int?, startingAt start: MediaTime)
    -> [Entry]
  {
    var time = start
    var result: [Entry] = []
    for segment in playlist.segments where after.map({ segment.mediaSequence > $0 }) ?? true {
      let end = time + segment.duration
      result.append(Entry(segment: segment, start: time, end: end, fetched: segment.gap))
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
      document = try fetcher.webVTT(at: entry.segment.uri)
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
      let chosen = origin ?? fallbackOrigin ?? map.offset(near: nil)
      if origin == nil && fallbackOrigin == nil { fallbackOrigin = chosen }
      base = chosen
      media = document.cuesOnMediaTimeline(near: chosen + segmentStart)
    } else {
      base = origin ?? .zero
      media = document.cues
    }
    return media.map { cue in
      WebVTTCue(
        identifier: cue.identifier, start: cue.start - base, end: cue.end - base,
        settings: cue.settings, text: cue.text)
    }
  }
}
