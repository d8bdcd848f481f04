import Foundation
import PlayheadCore

/// The ad breaks of one content, placed on its timeline, with the state of every ad
/// (the model of Media3's `AdPlaybackState`): what a player consults to know which break
/// comes next, what a seek jumps over, and what has been played.
///
/// A value type: the owner (a session's ad runtime) keeps one and changes it as ads load
/// and play. Breaks whose offset needs the content's duration (`n%`, `end` with
/// `repeatAfter`) wait in `unplacedBreaks` until `place(contentDuration:)`.
public struct AdTimeline: Sendable {
  /// One placed break: where it plays, its ads once known, and each ad's state.
  public struct Slot: Sendable, Equatable {
    /// The break as the schedule gave it.
    public let adBreak: AdBreak
    /// Where it plays.
    public let position: AdBreakPosition
    /// Its id, unique in the timeline (a repeated break gets `#n` appended).
    public let id: String
    /// The pod in play order: ads with a `sequence` by sequence; empty until loaded.
    public internal(set) var ads: [LinearAd]
    /// One state per ad of `ads`.
    public internal(set) var adStates: [AdState]
    /// Whether the ads are known (inline, or the tag was fetched).
    public internal(set) var isLoaded: Bool
    /// The IAB error code that made the break give up (303 no ad, 301 timeout …), if any.
    public internal(set) var errorCode: Int?

    /// Whether nothing is left to play: every ad ended one way or another, or the break
    /// failed (could not load, or had no ad when its time came).
    public var isFinished: Bool {
      if errorCode != nil { return true }
      return isLoaded && !ads.isEmpty
        && adStates.allSatisfy { $0 != .available && $0 != .unavailable }
    }
  }

  /// The placed breaks in play order.
  public internal(set) var slots: [Slot]
  /// Breaks that wait for the content's duration to be placed.
  public private(set) var unplacedBreaks: [AdBreak]
  /// The content duration the timeline was placed with, if known.
  public private(set) var contentDuration: MediaTime?

  /// Places `breaks` on the content timeline.
  ///
  /// `adOpportunities` are the content times of the video's ad cue points, for VMAP's
  /// `#n` offsets (a `#n` beyond them is dropped). A time at or before zero is a pre-roll;
  /// one at or past a known duration is a post-roll.
  public init(
    breaks: [AdBreak], contentDuration: MediaTime? = nil, adOpportunities: [MediaTime] = []
  ) {
    slots = []
    unplacedBreaks = []
    self.contentDuration = nil
    self.adOpportunities = adOpportunities.sorted()
    pendingBreaks = breaks
    place(contentDuration: contentDuration)
  }

  private let adOpportunities: [MediaTime]
  private var pendingBreaks: [AdBreak]

  /// Places the breaks that needed the content's duration; call when it becomes known.
  /// Calling it again has no effect on breaks already placed.
  public mutating func place(contentDuration duration: MediaTime?) {
    if let duration, duration.isNumeric, duration > .zero { contentDuration = duration }
    var waiting: [AdBreak] = []
    for adBreak in pendingBreaks {
      guard let positions = positions(of: adBreak) else {
        waiting.append(adBreak)
        continue
      }
      for (index, position) in positions.enumerated() {
        let id = index == 0 ? adBreak.id : "\(adBreak.id)#\(index + 1)"
        guard !slots.contains(where: { $0.id == id }) else { continue }
        slots.append(Self.slot(for: adBreak, at: position, id: id))
      }
    }
    pendingBreaks = waiting
    unplacedBreaks = waiting
    // Stable: breaks at one place keep the schedule's order.
    slots = slots.enumerated().sorted {
      $0.element.position == $1.element.position
        ? $0.offset < $1.offset : $0.element.position < $1.element.position
    }.map(\.element)
  }

  /// Where `adBreak` plays (several places with `repeatAfter`), or nil while that needs
  /// the duration. An offset that can never be placed gives no place.
  private func positions(of adBreak: AdBreak) -> [AdBreakPosition]? {
    let first: AdBreakPosition
    switch adBreak.offset {
    case .start: first = .preroll
    case .end: first = .postroll
    case .time(let time):
      if time <= .zero {
        first = .preroll
      } else if let contentDuration, time >= contentDuration {
        first = .postroll
      } else {
        first = .midroll(time)
      }
    case .percent(let share):
      guard let contentDuration else { return nil }
      if share <= 0 {
        first = .preroll
      } else if share >= 100 {
        first = .postroll
      } else {
        first = .midroll(VASTOffset.percent(share).time(inAdOf: contentDuration) ?? .zero)
      }
    case .position(let n):
      guard n >= 1, n <= adOpportunities.count else { return [] }
      let time = adOpportunities[n - 1]
      first = time <= .zero ? .preroll : .midroll(time)
    }
    guard let every = adBreak.repeatAfter, every > .zero, first != .postroll else {
      return [first]
    }
    guard let contentDuration else { return nil }
    var placed = [first]
    var next = (first.contentTime ?? .zero) + every
    // Bounded: at most one break per second of content, whatever `repeatAfter` says.
    let limit = max(1, Int(contentDuration.seconds))
    while next < contentDuration, placed.count <= limit {
      placed.append(.midroll(next))
      next = next + every
    }
    return placed
  }

  /// Adds `adBreak` at `position` as it is, whatever its offset says (a break whose place
  /// the caller knows, such as an HLS interstitial on a live timeline, where the content's
  /// duration must not turn a mid-roll into a post-roll). Returns the slot's index, or nil
  /// when a slot with the break's id is already there (nothing changes then).
  @discardableResult
  public mutating func insert(_ adBreak: AdBreak, at position: AdBreakPosition) -> Int? {
    guard !slots.contains(where: { $0.id == adBreak.id }) else { return nil }
    let slot = Self.slot(for: adBreak, at: position, id: adBreak.id)
    // After the slots at the same place or before it: stable, as `place` keeps them.
    let index = slots.firstIndex { $0.position > position } ?? slots.count
    slots.insert(slot, at: index)
    return index
  }

  private static func slot(for adBreak: AdBreak, at position: AdBreakPosition, id: String) -> Slot {
    switch adBreak.source {
    case .ads(let ads):
      let pod = podOrder(ads)
      return Slot(
        adBreak: adBreak, position: position, id: id, ads: pod,
        adStates: Array(repeating: .available, count: pod.count), isLoaded: true,
        errorCode: nil)
    case .tag, .assetList:
      return Slot(
        adBreak: adBreak, position: position, id: id, ads: [], adStates: [], isLoaded: false,
        errorCode: nil)
    }
  }

  /// A pod's play order: ads with a sequence by sequence (document order among equals);
  /// when there are none, the ads as given.
  public static func podOrder(_ ads: [LinearAd]) -> [LinearAd] {
    let sequenced = ads.enumerated().filter { $0.element.sequence != nil }
    guard !sequenced.isEmpty else { return ads }
    return sequenced.sorted {
      ($0.element.sequence!, $0.offset) < ($1.element.sequence!, $1.offset)
    }.map(\.element)
  }
}
