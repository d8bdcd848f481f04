import Foundation
import PlayheadCore

/// A video's cue points, ordered by position (`.before`, then by time, then `.after`); cue
/// points at the same position keep the order they were given in.
///
/// An immutable value compared by value; `update` returns a changed, re-sorted copy.
public struct CuePointCollection: Sendable, Equatable, Hashable, RandomAccessCollection {
  /// The cue points in position order.
  public let cuePoints: [CuePoint]

  /// Creates a collection, sorting `cuePoints` by position (stable).
  public init(_ cuePoints: [CuePoint] = []) {
    self.cuePoints = cuePoints.enumerated().sorted { lhs, rhs in
      if lhs.element.position != rhs.element.position {
        return lhs.element.position < rhs.element.position
      }
      return lhs.offset < rhs.offset
    }.map(\.element)
  }

  /// A copy whose cue points `body` changed, sorted again; this value stays as it is.
  public func update<E: Error>(_ body: (inout [CuePoint]) throws(E) -> Void) throws(E)
    -> CuePointCollection
  {
    var mutable = cuePoints
    try body(&mutable)
    return CuePointCollection(mutable)
  }

  public var startIndex: Int { cuePoints.startIndex }
  public var endIndex: Int { cuePoints.endIndex }
  public subscript(position: Int) -> CuePoint { cuePoints[position] }

  /// The cue points at position `.before`.
  public var beforeCuePoints: [CuePoint] { cuePoints.filter { $0.position == .before } }

  /// The cue points at position `.after`.
  public var afterCuePoints: [CuePoint] { cuePoints.filter { $0.position == .after } }

  /// The timed cue points with `start < time <= end`, in order: those passed when playback
  /// moves from `start` to `end`.
  ///
  /// Empty when `end <= start`. Use `includingStart: true` to also take cue points at exactly
  /// `start` (as on the first progress from zero).
  public func cuePoints(
    after start: MediaTime, through end: MediaTime, includingStart: Bool = false
  )
    -> [CuePoint]
  {
    cuePoints.filter { cuePoint in
      guard let time = cuePoint.position.time else { return false }
      return (includingStart ? time >= start : time > start) && time <= end
    }
  }

  /// The cue points whose `type` equals `type`, in order.
  public func cuePoints(ofType type: String) -> [CuePoint] {
    cuePoints.filter { $0.type == type }
  }
}
