import PlayheadCore

/// A segment download that is still running, as offered to `ABRController.shouldAbandon`.
///
/// Sizes are in bytes. `expectedBytes` is nil when the server sent no length; the
/// controller then estimates it from the level's bitrate and the segment duration.
public struct InProgressDownload: Sendable {
  /// The level being downloaded (a `BitrateLevel.index`).
  public var level: Int
  /// The segment's size in bytes, when known.
  public var expectedBytes: Int64?
  /// How many bytes have arrived so far.
  public var loadedBytes: Int64
  /// Time since the request was sent.
  public var elapsed: MediaTime
  /// Time from request to first byte; nil while no byte has arrived.
  public var timeToFirstByte: MediaTime?
  /// The media duration of the segment.
  public var segmentDuration: MediaTime

  /// Creates a progress report.
  public init(
    level: Int, expectedBytes: Int64?, loadedBytes: Int64, elapsed: MediaTime,
    timeToFirstByte: MediaTime?, segmentDuration: MediaTime
  ) {
    self.level = level
    self.expectedBytes = expectedBytes
    self.loadedBytes = loadedBytes
    self.elapsed = elapsed
    self.timeToFirstByte = timeToFirstByte
    self.segmentDuration = segmentDuration
  }
}

/// A segment download that ended, reported to `ABRController.didCompleteDownload(_:)`.
public struct CompletedDownload: Sendable {
  /// The level that was downloaded (a `BitrateLevel.index`).
  public var level: Int
  /// Bytes received.
  public var bytes: Int64
  /// Time from request to last byte.
  public var duration: MediaTime
  /// Time from request to first byte; nil when unknown.
  public var timeToFirstByte: MediaTime?
  /// The media duration of the segment.
  public var segmentDuration: MediaTime
  /// Whether the download was abandoned (its bytes are not played).
  public var wasAbandoned: Bool

  /// Creates a report.
  public init(
    level: Int, bytes: Int64, duration: MediaTime, timeToFirstByte: MediaTime?,
    segmentDuration: MediaTime, wasAbandoned: Bool = false
  ) {
    self.level = level
    self.bytes = bytes
    self.duration = duration
    self.timeToFirstByte = timeToFirstByte
    self.segmentDuration = segmentDuration
    self.wasAbandoned = wasAbandoned
  }
}
