import PlayheadCore

/// Where playback stands when the ABR controller is asked, in the engine's own numbers.
///
/// Throughputs are in bits per second and nil until the engine has measured one. Times are
/// `MediaTime`s; a non-numeric time is read as zero (buffer level, time to first byte) or as
/// unknown (remaining content). The ABR controller never measures anything itself.
public struct ABRContext: Sendable {
  /// The bandwidth estimate from the engine's meter, in bits per second; nil before the
  /// first measurement.
  public var throughputBitsPerSecond: Double?
  /// The speed of the last finished transfer, in bits per second; nil before the first.
  public var lastTransferBitsPerSecond: Double?
  /// The usual time from request to first byte; nil when unknown (taken as zero).
  public var requestLatency: MediaTime?
  /// How much media is buffered ahead of the play position.
  public var bufferLevel: MediaTime
  /// The most the load control will ever buffer ahead.
  public var maximumBuffer: MediaTime
  /// The level being loaded now (a `BitrateLevel.index`); nil before the first segment.
  public var currentLevel: Int?
  /// The duration of the next segment to load.
  public var segmentDuration: MediaTime
  /// Media still to load after the next segment; nil for live or unknown.
  public var remainingContent: MediaTime?
  /// The playback rate (1 is normal speed); rates of zero or less are read as 1.
  public var playbackRate: Double
  /// Whether playback is starting, resuming after a seek, stalled, or running.
  public var phase: ABRPhase
  /// Caps and manual selection.
  public var constraints: ABRConstraints

  /// Creates a context; only the buffer and segment duration are required.
  public init(
    throughputBitsPerSecond: Double? = nil, lastTransferBitsPerSecond: Double? = nil,
    requestLatency: MediaTime? = nil, bufferLevel: MediaTime,
    maximumBuffer: MediaTime = MediaTime(value: 30, timescale: 1),
    currentLevel: Int? = nil, segmentDuration: MediaTime, remainingContent: MediaTime? = nil,
    playbackRate: Double = 1, phase: ABRPhase = .playing, constraints: ABRConstraints = .none
  ) {
    self.throughputBitsPerSecond = throughputBitsPerSecond
    self.lastTransferBitsPerSecond = lastTransferBitsPerSecond
    self.requestLatency = requestLatency
    self.bufferLevel = bufferLevel
    self.maximumBuffer = maximumBuffer
    self.currentLevel = currentLevel
    self.segmentDuration = segmentDuration
    self.remainingContent = remainingContent
    self.playbackRate = playbackRate
    self.phase = phase
    self.constraints = constraints
  }
}

/// The playback situation an ABR decision is made in.
public enum ABRPhase: Sendable, Equatable {
  /// Nothing has played yet for this item.
  case starting
  /// A seek emptied the buffer and playback waits for it to refill.
  case seeking
  /// Playback ran out of buffer and waits (rebuffering).
  case stalled
  /// Playback is running (or paused with a buffer).
  case playing
}
