/// What the ABR controller chose for the next segment, and why.
///
/// The reason is what a track-changed event reports when the level differs from the
/// previous one.
public struct ABRDecision: Sendable, Equatable {
  /// Why a level was chosen.
  public enum Reason: Sendable, Equatable {
    /// The first level of an item: from the start preference or the estimate.
    case initial
    /// The viewer selected this level by hand.
    case manual
    /// Caps no longer allow the level being loaded (a new cap), so selection moved off it.
    case constrained
    /// The throughput rule decided (little buffer, so bandwidth governs).
    case throughput
    /// The buffer rule decided (enough buffer to trade it for quality).
    case buffer
    /// The buffer could not absorb the download at the wanted level; a lower one was taken.
    case insufficientBuffer
    /// A download in progress was abandoned for this lower level.
    case abandoned
    /// There are no levels; the level index is -1.
    case noLevels
  }

  /// The chosen `BitrateLevel.index`, or -1 when there were no levels.
  public var level: Int
  /// Why it was chosen.
  public var reason: Reason

  /// Creates a decision.
  public init(level: Int, reason: Reason) {
    self.level = level
    self.reason = reason
  }
}
