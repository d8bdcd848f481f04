import Foundation
import PlayheadCore

/// Where a break plays: before, during or after the content.
///
/// Ordered as they play: pre-roll, mid-rolls by time, post-roll.
public enum AdBreakPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Before the first content frame.
  case preroll
  /// When the content reaches this time.
  case midroll(MediaTime)
  /// After the last content frame, before the content's end is reported.
  case postroll

  /// The content time the break belongs to: zero for a pre-roll, nil for a post-roll
  /// (the content's end).
  public var contentTime: MediaTime? {
    switch self {
    case .preroll: return .zero
    case .midroll(let time): return time
    case .postroll: return nil
    }
  }

  /// VAST 4.x's `[BREAKPOSITION]`: 1 pre-roll, 2 mid-roll, 3 post-roll.
  public var macroValue: Int {
    switch self {
    case .preroll: return 1
    case .midroll: return 2
    case .postroll: return 3
    }
  }

  public static func < (lhs: AdBreakPosition, rhs: AdBreakPosition) -> Bool {
    switch (lhs, rhs) {
    case (.preroll, .preroll), (.postroll, _): return false
    case (.preroll, _), (.midroll, .postroll): return true
    case (.midroll(let a), .midroll(let b)): return a < b
    case (.midroll, .preroll): return false
    }
  }

  public var description: String {
    switch self {
    case .preroll: return "pre-roll"
    case .midroll(let time): return "mid-roll at \(time.seconds) s"
    case .postroll: return "post-roll"
    }
  }
}
