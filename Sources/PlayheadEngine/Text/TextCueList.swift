import Foundation
import PlayheadCore
import PlayheadText

/// The cues of one text track and which of them are active; turns moves of the play
/// position into cue enters and exits.
///
/// Rules:
/// - a cue is active at `t` when `start <= t < end`;
/// - a continuous move (normal playback) to a time before the last one changes nothing;
///   a jump (a seek, the first position, a track change) applies in either direction;
/// - a continuous move also reports the cues that started and ended in between (enter
///   then exit), so a cue shorter than one loop step is not lost; a jump does not;
/// - changes come in this order: exits (by end), missed cues, enters (by start).
struct TextCueList {
  /// One change of a cue's state.
  enum Change: Equatable {
    case enter(TimedTextCue)
    case exit(TimedTextCue)
  }

  let track: RenditionInfo
  private(set) var cues: [TimedTextCue] = []
  private(set) var active: [TimedTextCue] = []
  /// The last position applied; nil before the first.
  private(set) var position: MediaTime?
  private var keys = Set<CueKey>()

  init(track: RenditionInfo) {
    self.track = track
  }

  /// Adds `newCues` (item times), dropping repeats and cues that end before they start;
  /// returns how many were added.
  @discardableResult
  mutating func add(_ newCues: [WebVTTCue]) -> Int {
    var added: [TimedTextCue] = []
    for cue in newCues where cue.start.isNumeric && cue.end.isNumeric && cue.end >= cue.start {
      let key = CueKey(
        start: cue.start, end: cue.end, text: cue.text, identifier: cue.identifier,
        settings: String(describing: cue.settings))
      guard keys.insert(key).inserted else { continue }
      added.append(TimedTextCue(id: cues.count + added.count, track: track, cue: cue))
    }
    cues += added
    cues.sort { ($0.start, $0.id) < ($1.start, $1.id) }
    return added.count
  }

  /// Moves the position to `time`; returns the changes (see the type's rules).
  mutating func move(to time: MediaTime, continuous: Bool) -> [Change] {
    guard time.isNumeric else { return [] }
    let last = position
    if continuous, let last, time < last { return [] }
    position = time
    let now = cues.filter { $0.start <= time && time < $0.end }
    let activeIDs = Set(active.map(\.id))
    let nowIDs = Set(now.map(\.id))
    let exits = active.filter { !nowIDs.contains($0.id) }
      .sorted { ($0.end, $0.id) < ($1.end, $1.id) }
    let enters = now.filter { !activeIDs.contains($0.id) }
    var missed: [TimedTextCue] = []
    if continuous, let last, time > last {
      missed = cues.filter { cue in
        !activeIDs.contains(cue.id) && !nowIDs.contains(cue.id) && cue.start >= last
          && cue.start < time && cue.end <= time
      }
    }
    active = now
    return exits.map(Change.exit) + missed.flatMap { [Change.enter($0), Change.exit($0)] }
      + enters.map(Change.enter)
  }

  /// Ends every active cue (the track was deselected); returns their exits.
  mutating func clear() -> [Change] {
    let exits = active.sorted { ($0.end, $0.id) < ($1.end, $1.id) }
    active = []
    return exits.map(Change.exit)
  }

  /// The first cue start or end after `time`; nil when none is left.
  func nextBoundary(after time: MediaTime) -> MediaTime? {
    var next: MediaTime?
    for cue in cues {
      for boundary in [cue.start, cue.end] where boundary > time {
        if next.map({ boundary < $0 }) ?? true { next = boundary }
      }
    }
    return next
  }

  private struct CueKey: Hashable {
    var start: MediaTime
    var end: MediaTime
    var text: String
    var identifier: String
    /// The settings (position, line, size, alignment, region) in a comparable form.
    var settings: String
  }
}
