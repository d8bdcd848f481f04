import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadText

/// What a text track's cues are read from.
enum TextSourcePlan: Sendable {
  /// A whole WebVTT file (a sidecar track); its cue times are item times.
  case file(URL)
  /// The segments of a subtitle rendition: WebVTT ones placed with their
  /// `X-TIMESTAMP-MAP` and `origin`, the media time of item time 0 (nil when unknown);
  /// fMP4 text (`wvtt`, `stpp`) from each segment's first sample time and its item start.
  case segments(SubtitleSegmentList, origin: MediaTime?)
}

/// Where a text renderer's cues come from: a `TextCueSource` reading files or segments on
/// a thread of its own, or an `EmbeddedTextFeed` over the streams the loader demuxes.
/// `take()` and `covers(_:)` are called on the playback loop.
protocol TextCueFeed: AnyObject, Sendable {
  /// Starts reading (once).
  func start()
  /// Stops reading; what arrives afterwards is dropped.
  func stop()
  /// The play position moved (a seek).
  func update(position: MediaTime)
  /// Takes what arrived since the last call.
  func take() -> TextSourceOutput
  /// Whether the cues at `position` are in (or their load failed, or none will come).
  func covers(_ position: MediaTime) -> Bool
}

/// What a text cue feed has for the renderer, taken on the playback loop.
struct TextSourceOutput {
  /// Cues on the item timeline, in arrival order.
  var cues: [WebVTTCue] = []
  /// Loads that failed, in order.
  var failures: [PlayheadError] = []
  /// Set once, when everything up to the horizon has been fetched.
  var caughtUp = false
}

/// Reads one text track's cues on a thread of its own (one of the clock's workers, so a
/// fast-mode clock schedules it with the player's other threads) and hands them to the
/// text renderer, waking the playback loop.
///
/// Segments are fetched in this order: the one at the play position first, then the ones
/// after it (up to the look-ahead, when there is one), then, without a look-ahead, the ones
/// before it; a new position (a seek) changes what comes next. An incomplete list is
/// completed from the playlist: an `EVENT` playlist is reloaded every target duration and
/// its new segments follow the last one; a sliding-window live playlist is refused.
final class TextCueSource: TextCueFeed {
  private struct State: Sendable {
    var position: MediaTime
    var stopped = false
    var output = TextSourceOutput()
    /// Whether the plan's segments are known (the playlist of an incomplete list read).
    var planned = false
    /// The item times not fetched yet (a sidecar file: everything until it is read).
    var pending: [MediaTimeRange] = []
    var wholeFilePending = false
  }

  /// One segment to fetch.
  private struct Entry {
    var segment: SubtitleSegment
    var fetched = false
    var range: MediaTimeRange { segment.timeRange }
  }

  private let plan: TextSourcePlan
  private let fetcher: TextFetcher
  private let lookAhead: MediaTime?
  private let clock: any Clock
  private let loopWake: WakeSignal
  private let wake = WakeSignal()
  private let state: Locked<State>
  /// The first segment map's offset, when no origin is known (loader thread only).
  private let fallbackOrigin = Locked<MediaTime?>(nil)
  /// Reads and places fMP4 text segments.
  private let mp4 = MP4TextPlacement()

  init(
    plan: TextSourcePlan, fetcher: TextFetcher, lookAhead: MediaTime?, clock: any Clock,
    loopWake: WakeSignal, position: MediaTime
  ) {
    self.plan = plan
    self.fetcher = fetcher
    self.lookAhead = lookAhead
    self.clock = clock
    self.loopWake = loopWake
    var initial = State(position: position)
    if case .file = plan { initial.wholeFilePending = true }
    state = Locked(initial)
  }

  /// Starts the reading thread.
  func start() {
    clock.startThread(named: "playhead.text") { [self] in run() }
  }

  /// Stops reading; a load in progress finishes and its result is dropped.
  func stop() {
    state.withLock { $0.stopped = true }
    wake.raise()
  }

  /// The play position moved (a seek); the next segment is picked from there.
  func update(position: MediaTime) {
    guard position.isNumeric else { return }
    let changed = state.withLock { state in
      defer { state.position = position }
      return state.position != position
    }
    if changed { wake.raise() }
  }

  /// Takes what arrived since the last call.
  func take() -> TextSourceOutput {
    state.withLock { state in
      defer {
        state.output.cues = []
        state.output.failures = []
        state.output.caughtUp = false
      }
      return state.output
    }
  }

  /// Whether the cues at `position` are in (or their load failed, or none will come).
  func covers(_ position: MediaTime) -> Bool {
    state.withLock { state in
      if state.wholeFilePending { return false }
      guard state.planned || state.stopped else { return false }
      return !state.pending.contains { $0.start <= position && position < $0.end }
    }
  }

  private var isStopped: Bool { state.withLock { $0.stopped } }
  private var position: MediaTime { state.withLock { $0.position } }

  private func publish(_ body: (inout State) -> Void) {
    state.withLock { body(&$0) }
    loopWake.raise()
  }

  private func run() {
    switch plan {
    case .file(let url):
      do {
        let document = try fetcher.webVTT(at: url)
        guard !isStopped else { return }
        publish { state in
          state.output.cues += document.cues
          state.output.caughtUp = true
          state.wholeFilePending = false
          state.planned = true
        }
      } catch {
        publish { state in
          state.output.failures.append(error)
          state.wholeFilePending = false
          state.planned = true
        }
      }
    case .segments(let list, let origin):
      runSegments(list, origin: origin)
    }
  }

  private func runSegments(_ list: SubtitleSegmentList, origin: MediaTime?) {
    var entries = list.segments.map { Entry(segment: $0) }
    var playlist: MediaPlaylist?
    if !list.isComplete {
      do throws(PlayheadError) {
        let fetched = try fetcher.mediaPlaylist(at: list.playlistURL)
        guard fetched.endList || fetched.playlistType == .event else {
          throw PlayheadError(
            .unsupportedFormat,
            "subtitle rendition \(list.playlistURL.absoluteString) is a sliding-window live "
              + "playlist; only VOD and EVENT subtitle playlists are read",
            url: list.playlistURL)
        }
        entries += Self.entries(of: fetched, after: entries)
        playlist = fetched
      } catch {
        publish { state in
          state.output.failures.append(error)
          state.planned = true
        }
        return
      }
    }
    publishPending(entries)
    var caughtUp = false
    var nextReload = clock.now + Self.reloadInterval(playlist)
    while !isStopped {
      if let index = nextIndex(in: entries, at: position) {
        entries[index].fetched = true
        fetch(entries[index], origin: origin, pending: entries)
        continue
      }
      if !caughtUp {
        caughtUp = true
        publish { $0.output.caughtUp = true }
      }
      guard let current = playlist, !current.endList else {
        if entries.allSatisfy(\.fetched) { return }
        clock.wait(for: wake)
        continue
      }
      guard clock.wait(until: nextReload, orUntil: wake) else { continue }
      if let reloaded = try? fetcher.mediaPlaylist(at: list.playlistURL) {
        entries += Self.entries(of: reloaded, after: entries)
        playlist = reloaded
        publishPending(entries)
      }
      nextReload = clock.now + Self.reloadInterval(playlist ?? current)
    }
  }

  private func publishPending(_ entries: [Entry]) {
    publish { state in
      state.planned = true
      state.pending = entries.filter { !$0.fetched }.map(\.range)
    }
  }

  /// How long an `EVENT` playlist is left before it is read again: its target duration.
  private static func reloadInterval(_ playlist: MediaPlaylist?) -> MediaTime {
    MediaTime(value: Int64(max(1, playlist?.targetDuration ?? 1)), timescale: 1)
  }

  /// The segments of an `EVENT` playlist beyond the `known` ones (such a playlist only
  /// grows at its end), timed on from the last known one.
  private static func entries(of playlist: MediaPlaylist, after known: [Entry]) -> [Entry] {
    var time = known.last?.range.end ?? .zero
    var result: [Entry] = []
    for segment in playlist.segments.dropFirst(known.count) {
      result.append(Entry(segment: SubtitleSegment(segment, start: time), fetched: segment.gap))
      time = time + segment.duration
    }
    return result
  }

  /// The next segment to fetch at `position` (see the type's order); nil when none is due.
  private func nextIndex(in entries: [Entry], at position: MediaTime) -> Int? {
    let horizon = lookAhead.map { position + $0 }
    if let ahead = entries.indices.first(where: { index in
      let entry = entries[index]
      return !entry.fetched && entry.range.end > position
        && (horizon.map { entry.range.start <= $0 } ?? true)
    }) {
      return ahead
    }
    guard lookAhead == nil else { return nil }
    return entries.indices.last { !entries[$0].fetched }
  }

  /// Fetches one segment and hands over its cues (or its failure).
  private func fetch(_ entry: Entry, origin: MediaTime?, pending entries: [Entry]) {
    let remaining = entries.filter { !$0.fetched }.map(\.range)
    do {
      let cues: [WebVTTCue]
      switch entry.segment.format {
      case .webVTT:
        let document = try fetcher.webVTT(at: entry.segment.url)
        cues = place(document, segmentStart: entry.range.start, origin: origin)
      case .fragmentedMP4:
        cues = try mp4.cues(of: entry.segment, fetcher: fetcher)
      }
      guard !isStopped else { return }
      publish { state in
        state.output.cues += cues
        state.pending = remaining
      }
    } catch {
      guard !isStopped else { return }
      publish { state in
        state.output.failures.append(error)
        state.pending = remaining
      }
    }
  }

  /// A segment's cues on the item timeline: its `X-TIMESTAMP-MAP` moves them to the media
  /// timeline (unwrapped near the segment's expected media time), and the origin is
  /// subtracted; without an origin the first segment map's offset stands for it (so that
  /// local cue time 0 is item time 0). A segment without a map has cue time 0 at MPEG-2
  /// time 0 (RFC 8216 3.5).
  private func place(_ document: WebVTTDocument, segmentStart: MediaTime, origin: MediaTime?)
    -> [WebVTTCue]
  {
    let base: MediaTime
    let media: [WebVTTCue]
    if let map = document.timestampMap {
      let chosen =
        origin
        ?? fallbackOrigin.withLock { fallback in
          let chosen = fallback ?? map.offset(near: nil)
          fallback = chosen
          return chosen
        }
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
