import Foundation
import PlayheadCore
import PlayheadText

/// The cues of one selected track and which of them are active; turns moves of the play
/// position into cue enters and exits.
///
/// Rules:
/// - a cue is active at `t` when `start <= t < end`;
/// - a move in normal playback (`continuous`) to a time before the last one is stale (a
///   callback that arrived late) and changes nothing; a jump (seek, first position, cues
///   added) applies whatever the direction;
/// - a continuous move of at most `maximumStep` also reports the cues that started and
///   ended in between (enter then exit), so a short cue is not lost between two updates;
/// - changes come in this order: exits (by end), missed cues, enters (by start).
struct TextCueTimeline {
  /// One change of a cue's state.
  enum Change: Equatable {
    case enter(TextCue)
    case exit(TextCue)
  }

  let trackID: String
  let language: String?
  private(set) var cues: [TextCue] = []
  private(set) var active: [TextCue] = []
  /// The last position applied; nil before the first.
  private(set) var position: MediaTime?
  private var keys = Set<CueKey>()

  init(trackID: String, language: String?) {
    self.trackID = trackID
    self.language = language
  }

  /// Adds `newCues` (item times), dropping cues already present and cues that end before
  /// they start; returns the cues added.
  ///
  /// A cue is already present when its times, text, identifier and settings (region
  /// included) all equal another's: a cue repeated in two subtitle segments is one cue,
  /// while cues that share times and text but are placed differently (positioned captions)
  /// stay apart all the way to the consumer.
  mutating func add(_ newCues: [WebVTTCue]) -> [TextCue] {
    var added: [TextCue] = []
    for cue in newCues where cue.start.isNumeric && cue.end.isNumeric && cue.end >= cue.start {
      let key = CueKey(
        start: cue.start, end: cue.end, text: cue.text, identifier: cue.identifier,
        settings: String(describing: cue.settings))
      guard keys.insert(key).inserted else { continue }
      let textCue = TextCue(
        id: cues.count + added.count, trackID: trackID, language: language, cue: cue)
      added.append(textCue)
    }
    cues += added
    cues.sort { ($0.start, $0.id) < ($1.start, $1.id) }
    return added
  }

  /// Moves the position to `time`; returns the changes (see the type's rules).
  mutating func move(to time: MediaTime, continuous: Bool, maximumStep: MediaTime) -> [Change] {
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
    var missed: [TextCue] = []
    if continuous, let last, time > last, time - last <= maximumStep {
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

  /// The distinct start and end times of `cues`, sorted.
  static func boundaries(of cues: [TextCue]) -> [MediaTime] {
    var seen = Set<MediaTime>()
    var times: [MediaTime] = []
    for cue in cues {
      for time in [cue.start, cue.end] where seen.insert(time).inserted { times.append(time) }
    }
    return times.sorted()
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
