import Foundation
import PlayheadCore

/// Quality-of-experience figures of one session (SPEC K10).
///
/// Bit rates are in bits per second. For HLS they are the declared bandwidths of the
/// renditions played; for progressive media, the media's declared bit rate. Values that
/// are not known yet are nil (or `.invalid` for times).
public struct SessionQoE: Sendable, Equatable {
  /// Clock time from the first play request to the first frame shown; `.invalid` before.
  public var timeToFirstFrame: MediaTime = .invalid
  /// Stalls during normal playback (not at start or after seeks).
  public var stallCount = 0
  /// Clock time spent stalled.
  public var totalStallTime: MediaTime = .zero
  /// Rendition changes after the first choice.
  public var bitrateSwitchCount = 0
  /// The mean of the bit rates of the renditions played, each counted once per period in
  /// which it played (not weighted by time); nil before anything played.
  public var averageBitrate: Double?
  /// The bit rate averaged over the content time played at each rendition; nil before.
  public var timeWeightedBitrate: Double?
  /// Video frames dropped because they were late.
  public var droppedFrames = 0
  /// Video frames shown.
  public var renderedFrames = 0
  /// Errors logged by the player (retried requests, failed segments, fatal errors).
  public var errorCount = 0
  /// Bytes read from the network or disk for this session.
  public var bytesTransferred: Int64 = 0
  /// Content time played.
  public var playedTime: MediaTime = .zero

  public init() {}
}
