import Foundation
import PlayheadCore
import PlayheadText

/// The cues of a progressive file's text subtitle streams, as the item's loader demuxes
/// them: every text stream is decoded as it is read (a few bytes a cue), so that the
/// selected one can change during playback without reading the file again.
///
/// The loader adds events and says how far it has demuxed; the text renderer of the
/// selected stream takes the cues that arrived (`EmbeddedTextFeed`) and asks whether
/// the cues at a position are in. Cues read again (after a seek back or an audio
/// stream switch) are kept once. A cue that starts before the keyframe a seek lands on is
/// not read again by that seek (as in other players that demux subtitles in-band).
final class EmbeddedTextStore: Sendable {
  private struct CueKey: Hashable {
    var start: MediaTime
    var end: MediaTime
    var text: String
  }

  private struct State: Sendable {
    var cues: [Int: [WebVTTCue]] = [:]
    var keys: [Int: Set<CueKey>] = [:]
    /// The item time ranges demuxed, one per stretch of reading (a seek starts one).
    var stretches: [MediaTimeRange] = []
    /// The stretch being read, and whether it reached the end of the file.
    var current: Int?
    var currentReachedEnd = false
    var reachedEnd = false
    /// Where each stretch that reached the end started.
    var endedStretchStarts: [MediaTime] = []
  }

  private let state = Locked(State())

  /// Adds decoded events (the loader's thread).
  func add(_ events: [EmbeddedTextEvent]) {
    guard !events.isEmpty else { return }
    state.withLock { state in
      for event in events where event.end >= event.start {
        let key = CueKey(start: event.start, end: event.end, text: event.text)
        guard state.keys[event.streamIndex, default: []].insert(key).inserted else { continue }
        state.cues[event.streamIndex, default: []].append(
          WebVTTCue(start: event.start, end: event.end, text: event.text))
      }
    }
  }

  /// Reading starts (again) at `time`: at the open and after each seek.
  func beginStretch(at time: MediaTime) {
    state.withLock { state in
      state.stretches.append(MediaTimeRange(start: time, duration: .zero))
      state.current = state.stretches.count - 1
      state.currentReachedEnd = false
    }
  }

  /// The demuxer has read everything up to `time` in the current stretch.
  func demuxed(upTo time: MediaTime) {
    state.withLock { state in
      guard let current = state.current, time > state.stretches[current].end else { return }
      state.stretches[current] = MediaTimeRange(start: state.stretches[current].start, end: time)
    }
  }

  /// The current stretch reached the end of the file (or reading failed there): nothing
  /// after its start is missing any more.
  func reachedEnd() {
    state.withLock { state in
      guard let current = state.current, !state.currentReachedEnd else { return }
      state.currentReachedEnd = true
      state.reachedEnd = true
      state.endedStretchStarts.append(state.stretches[current].start)
    }
  }

  /// Whether the file has been read to its end at least once.
  var hasReachedEnd: Bool { state.withLock { $0.reachedEnd } }

  /// The cues of `streamIndex` from the `index`-th one on, in arrival order, and the
  /// count so far.
  func cues(of streamIndex: Int, from index: Int) -> (cues: [WebVTTCue], count: Int) {
    state.withLock { state in
      let all = state.cues[streamIndex] ?? []
      return (index < all.count ? Array(all[index...]) : [], all.count)
    }
  }

  /// Whether the cues that start at or before `position` have been read: a stretch holds
  /// it, or one that reached the end started at or before it.
  func covers(_ position: MediaTime) -> Bool {
    state.withLock { state in
      state.endedStretchStarts.contains { $0 <= position }
        || state.stretches.contains { $0.start <= position && position < $0.end }
    }
  }
}

/// Feeds the text renderer the cues of one stream of an `EmbeddedTextStore`.
///
/// It counts as caught up (the renderer's `textTrackLoaded`) once the cues at the play
/// position are in: the rest arrive as the media is read, as far ahead as it is buffered.
final class EmbeddedTextFeed: TextCueFeed {
  private let store: EmbeddedTextStore
  private let streamIndex: Int
  private struct Progress: Sendable {
    var taken = 0
    var caughtUpSent = false
    var stopped = false
    var position: MediaTime
  }
  private let progress: Locked<Progress>

  init(store: EmbeddedTextStore, streamIndex: Int, position: MediaTime) {
    self.store = store
    self.streamIndex = streamIndex
    progress = Locked(Progress(position: position))
  }

  func start() {}

  func stop() { progress.withLock { $0.stopped = true } }

  func update(position: MediaTime) {
    guard position.isNumeric else { return }
    progress.withLock { $0.position = position }
  }

  /// The cues that arrived since the last call.
  func take() -> TextSourceOutput {
    progress.withLock { progress in
      guard !progress.stopped else { return TextSourceOutput() }
      let (cues, count) = store.cues(of: streamIndex, from: progress.taken)
      progress.taken = count
      var output = TextSourceOutput(cues: cues)
      if !progress.caughtUpSent && store.covers(progress.position) {
        progress.caughtUpSent = true
        output.caughtUp = true
      }
      return output
    }
  }

  func covers(_ position: MediaTime) -> Bool { store.covers(position) }
}
