import PlayheadCore

/// What one `HLSPlaybackSimulator` run did: the segments it played, the downloads it
/// abandoned, its stalls and its buffer over time.
///
/// Clock values are the simulation clock's (`startClock` is where the run began); item
/// times are positions on the stream's timeline. Levels are indices into `levels`, the
/// variants from the lowest bandwidth up.
public struct HLSSimulationReport: Sendable {
  /// One segment that was loaded and played.
  public struct Segment: Sendable, Equatable {
    /// The segment's media sequence number.
    public var mediaSequence: Int
    /// The level it was played at.
    public var level: Int
    /// Where it starts on the item timeline.
    public var itemStart: MediaTime
    /// Its declared (EXTINF) duration: how long it plays.
    public var duration: MediaTime
    /// When the request that delivered it was sent.
    public var requestClock: MediaTime
    /// When its last byte arrived.
    public var arrivalClock: MediaTime
    /// Bytes received for it.
    public var bytes: Int
    /// The media buffered ahead of the play position once it had arrived.
    public var bufferAfterArrival: MediaTime
  }

  /// A download the ABR controller abandoned for a lower level.
  public struct Abandonment: Sendable, Equatable {
    /// The media sequence number of the segment.
    public var mediaSequence: Int
    /// The level that was being loaded.
    public var level: Int
    /// The level the controller chose instead (the segment is loaded again there).
    public var targetLevel: Int
    /// When its request was sent.
    public var requestClock: MediaTime
    /// When it was abandoned.
    public var abandonClock: MediaTime
    /// Bytes received before it was abandoned (wasted).
    public var bytes: Int
  }

  /// A time the buffer ran empty while playing (after playback had started).
  public struct Stall: Sendable, Equatable {
    /// When playback stopped.
    public var startClock: MediaTime
    /// How long it stayed stopped.
    public var duration: MediaTime
    /// The item time it stopped at.
    public var itemTime: MediaTime
  }

  /// The buffer ahead of the play position at one clock time.
  public struct BufferSample: Sendable, Equatable {
    /// The clock time of the sample.
    public var clock: MediaTime
    /// The media downloaded ahead of the play position then.
    public var buffered: MediaTime
  }

  /// The variants, from the lowest bandwidth up (index = level).
  public var levels: [VariantInfo]
  /// The clock when the run began (before the first playlist request).
  public var startClock: MediaTime
  /// The clock when playback started (the first segment was in).
  public var playbackStartClock: MediaTime
  /// The clock when the last segment had played out.
  public var endClock: MediaTime
  /// Every segment played, in play order.
  public var segments: [Segment]
  /// Every abandoned download, in time order.
  public var abandonments: [Abandonment]
  /// Every stall, in time order.
  public var stalls: [Stall]
  /// The buffer at every sample interval from `startClock`.
  public var bufferSamples: [BufferSample]

  /// From the first request to the start of playback.
  public var startupDuration: MediaTime { playbackStartClock - startClock }
  /// From the first request to the end of playback: startup, content and stalls.
  public var sessionDuration: MediaTime { endClock - startClock }
  /// The time spent stalled after playback started.
  public var totalStallDuration: MediaTime {
    stalls.reduce(MediaTime.zero) { $0 + $1.duration }
  }
  /// How many consecutive played segments differ in level.
  public var levelSwitchCount: Int {
    zip(segments, segments.dropFirst()).filter { $0.level != $1.level }.count
  }
}
