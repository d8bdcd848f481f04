extension DefaultABRController {
  /// The tunable numbers of the default controller; the defaults are the benchmarked ones
  /// (see `docs/abr.md`).
  ///
  /// Out-of-range values are clamped when the controller is built: factors to 0.05...1
  /// (the ceiling factor to at least the safety factor, the recovery margin to at least 1),
  /// shares and fractions to 0...1, durations and headrooms to at least zero, each high
  /// fraction to at least its low fraction, and the calm headroom to at least the risky one.
  public struct Configuration: Sendable, Equatable {
    /// How the first level is chosen.
    public var startPreference: ABRStartPreference
    /// The bandwidth assumed before any measurement, in bits per second (1 Mbit/s).
    public var defaultBandwidthEstimate: Int
    /// The fraction of the estimated throughput a level may use.
    public var safetyFactor: Double
    /// On a calm network, the share of the usable buffer (maximum buffer minus one
    /// segment) below which only the throughput rule decides.
    public var calmLowFraction: Double
    /// On a calm network, the share of the usable buffer from which the buffer rule picks
    /// the highest level.
    public var calmHighFraction: Double
    /// `calmLowFraction` on a risky network.
    public var cautiousLowFraction: Double
    /// `calmHighFraction` on a risky network.
    public var cautiousHighFraction: Double
    /// Long-term throughput over the lowest level's bitrate at or below which the network
    /// counts as risky.
    public var riskyHeadroom: Double
    /// Long-term throughput over the lowest level's bitrate at or above which the network
    /// counts as calm (in between, caution is interpolated).
    public var calmHeadroom: Double
    /// The share of download time spent below the lowest level's bitrate at which the
    /// network counts as fully risky (in between, caution is interpolated).
    public var outageShareForCaution: Double
    /// The half-life, in seconds of download time, of the long-term throughput and of the
    /// outage share.
    public var networkMemorySeconds: Double
    /// Above the low threshold, a calm network's throughput rule may exceed the discounted
    /// throughput by (buffer − low threshold) / this many seconds.
    public var overshootHorizonSeconds: Double
    /// The fraction of the buffer one download may take at the estimated throughput.
    public var insufficientBufferFactor: Double
    /// Buffer kept in reserve when the end of the content lets the rest be spent on quality.
    public var endgameReserveSeconds: Double
    /// Whether downloads that would drain the buffer are abandoned for a lower level.
    public var abandonsDownloads: Bool
    /// How long a download's bytes must have been flowing (or failing to) before its
    /// speed is trusted for abandonment.
    public var abandonGraceSeconds: Double
    /// The share of the buffer's play time that a running download's rest, plus one
    /// lowest-level segment at its speed, may take before it is abandoned.
    public var abandonBufferShare: Double
    /// How long (seconds of the download) the abandonment condition must hold before the
    /// download is abandoned (0: at once): for a few seconds after a link falls, a TCP
    /// transfer recovering from the losses is slower than the rate it settles at.
    public var abandonConfirmSeconds: Double
    /// Below this many segments of buffer, decisions plan with the lower of the estimate
    /// and the last transfer's speed, so that a link that has just fallen is believed at
    /// once while little is buffered (0: always the estimate). At any buffer they do so
    /// when the last transfer was slower than the level it loaded, by so much that one
    /// more segment at its speed would leave less than `slowTransferBufferShare` of the
    /// buffer.
    public var lowBufferSegments: Double
    /// See `lowBufferSegments`: 0 never believes a slow transfer for that reason, 1
    /// believes every transfer slower than its level.
    public var slowTransferBufferShare: Double
    /// How many downloads in a row that took longer than their segment plays make a slow
    /// last transfer evidence at any buffer (0: never).
    public var slowTransferRun: Int
    /// A last transfer below this share of the level it loaded is evidence at any buffer
    /// (0: never): a shortfall that large is the link, not noise. A step down of more
    /// than one level on a deep buffer stops at a level the link carries at this share
    /// (or `deepHoldSpeedShare`, the larger).
    public var slowTransferFactor: Double
    /// The share of a running download's speed that the level it is abandoned for must
    /// fit in (0: any level that arrives in time).
    public var abandonTargetFactor: Double
    /// A running download's recent speed (its last 2 s) under this share of its average
    /// speed is a collapse: its rest is then judged at that speed (0: always the average).
    public var abandonCollapseShare: Double
    /// How far above what the link has shown (the estimate or the last transfer, the
    /// faster) the buffer rules may pick a level (the endgame aside); 1 when the last
    /// transfer came in slower than its level. A level the link does not carry drains
    /// the buffer and must be left again, which is the flapping a viewer sees.
    public var ceilingFactor: Double
    /// How many levels above the current one a last transfer faster than the estimate may
    /// lift the throughput rule in one decision (0: the estimate alone), so that a link
    /// that has risen is used before the smoothed estimate, weighted by download time,
    /// follows it up.
    public var riseStepLevels: Int
    /// How far the estimate must clear a level that was left for a lower one before it is
    /// tried again: it must sustain the level at `safetyFactor / recoveryMargin`.
    public var recoveryMargin: Double
    /// Where the deep-buffer hold starts, as a share of the buffer rule's band (0 at its
    /// low threshold, 1 at its high one): no step down while the buffer left after one
    /// more segment of the current level, fetched at the slower of the estimate and the
    /// last transfer, stays at or above it. A deep buffer absorbs a slower link for
    /// several segments, where stepping down at once costs quality and a switch.
    public var deepHoldBandShare: Double
    /// The deep-buffer hold keeps a level only while the slower of the estimate and the
    /// last transfer is at least this share of its bitrate (0: at any speed; 1: only a
    /// level the link carries, which the plain hold keeps anyway). A link far below the
    /// level is a fall, and one more such segment would take most of the buffer.
    public var deepHoldSpeedShare: Double
    /// From the buffer rule's high threshold, and at least this many segments of buffer,
    /// the recovery rule is waived: a level left may be tried again within the ceiling,
    /// since the buffer absorbs a retry that turns out too high.
    public var deepRetrySegments: Double

    /// Creates a configuration; every argument has the benchmarked default.
    public init(
      startPreference: ABRStartPreference = .automatic,
      defaultBandwidthEstimate: Int = 1_000_000,
      safetyFactor: Double = 0.9,
      calmLowFraction: Double = 0.2,
      calmHighFraction: Double = 0.6,
      cautiousLowFraction: Double = 0.64,
      cautiousHighFraction: Double = 1.0,
      riskyHeadroom: Double = 8,
      calmHeadroom: Double = 15,
      outageShareForCaution: Double = 0.03,
      networkMemorySeconds: Double = 120,
      overshootHorizonSeconds: Double = 10,
      insufficientBufferFactor: Double = 0.7,
      endgameReserveSeconds: Double = 2,
      abandonsDownloads: Bool = true,
      abandonGraceSeconds: Double = 1,
      abandonBufferShare: Double = 1.0,
      abandonConfirmSeconds: Double = 2,
      lowBufferSegments: Double = 3,
      slowTransferBufferShare: Double = 0.5,
      slowTransferRun: Int = 0,
      slowTransferFactor: Double = 0.7,
      abandonTargetFactor: Double = 0.9,
      abandonCollapseShare: Double = 0.5,
      ceilingFactor: Double = 1.3,
      recoveryMargin: Double = 1.1,
      riseStepLevels: Int = 3,
      deepHoldBandShare: Double = 0,
      deepHoldSpeedShare: Double = 0.5,
      deepRetrySegments: Double = 4
    ) {
      self.startPreference = startPreference
      self.defaultBandwidthEstimate = defaultBandwidthEstimate
      self.safetyFactor = safetyFactor
      self.calmLowFraction = calmLowFraction
      self.calmHighFraction = calmHighFraction
      self.cautiousLowFraction = cautiousLowFraction
      self.cautiousHighFraction = cautiousHighFraction
      self.riskyHeadroom = riskyHeadroom
      self.calmHeadroom = calmHeadroom
      self.outageShareForCaution = outageShareForCaution
      self.networkMemorySeconds = networkMemorySeconds
      self.overshootHorizonSeconds = overshootHorizonSeconds
      self.insufficientBufferFactor = insufficientBufferFactor
      self.endgameReserveSeconds = endgameReserveSeconds
      self.abandonsDownloads = abandonsDownloads
      self.abandonGraceSeconds = abandonGraceSeconds
      self.abandonBufferShare = abandonBufferShare
      self.abandonConfirmSeconds = abandonConfirmSeconds
      self.lowBufferSegments = lowBufferSegments
      self.slowTransferBufferShare = slowTransferBufferShare
      self.slowTransferRun = slowTransferRun
      self.slowTransferFactor = slowTransferFactor
      self.abandonTargetFactor = abandonTargetFactor
      self.abandonCollapseShare = abandonCollapseShare
      self.ceilingFactor = ceilingFactor
      self.recoveryMargin = recoveryMargin
      self.riseStepLevels = riseStepLevels
      self.deepHoldBandShare = deepHoldBandShare
      self.deepHoldSpeedShare = deepHoldSpeedShare
      self.deepRetrySegments = deepRetrySegments
    }

    /// The same configuration with every number in range.
    var clamped: Configuration {
      var copy = self
      copy.defaultBandwidthEstimate = max(1, defaultBandwidthEstimate)
      copy.safetyFactor = Self.factor(safetyFactor)
      copy.calmLowFraction = Self.share(calmLowFraction)
      copy.calmHighFraction = max(copy.calmLowFraction, Self.share(calmHighFraction))
      copy.cautiousLowFraction = Self.share(cautiousLowFraction)
      copy.cautiousHighFraction = max(copy.cautiousLowFraction, Self.share(cautiousHighFraction))
      copy.riskyHeadroom = Self.nonNegative(riskyHeadroom)
      copy.calmHeadroom = max(copy.riskyHeadroom, Self.nonNegative(calmHeadroom))
      copy.outageShareForCaution = max(1e-6, Self.share(outageShareForCaution))
      copy.networkMemorySeconds = max(1, Self.nonNegative(networkMemorySeconds))
      copy.overshootHorizonSeconds = max(0.1, Self.nonNegative(overshootHorizonSeconds))
      copy.insufficientBufferFactor = Self.factor(insufficientBufferFactor)
      copy.endgameReserveSeconds = Self.nonNegative(endgameReserveSeconds)
      copy.abandonGraceSeconds = Self.nonNegative(abandonGraceSeconds)
      copy.abandonBufferShare = Self.factor(abandonBufferShare)
      copy.abandonConfirmSeconds = Self.nonNegative(abandonConfirmSeconds)
      copy.lowBufferSegments = Self.nonNegative(lowBufferSegments)
      copy.slowTransferBufferShare = Self.share(slowTransferBufferShare)
      copy.slowTransferRun = max(0, slowTransferRun)
      copy.slowTransferFactor = Self.share(slowTransferFactor)
      copy.abandonTargetFactor = Self.share(abandonTargetFactor)
      copy.abandonCollapseShare = Self.share(abandonCollapseShare)
      copy.ceilingFactor = max(copy.safetyFactor, Self.nonNegative(ceilingFactor))
      copy.recoveryMargin = max(1, Self.nonNegative(recoveryMargin))
      copy.riseStepLevels = max(0, riseStepLevels)
      copy.deepHoldBandShare = Self.nonNegative(deepHoldBandShare)
      copy.deepHoldSpeedShare = Self.share(deepHoldSpeedShare)
      copy.deepRetrySegments = Self.nonNegative(deepRetrySegments)
      return copy
    }

    private static func factor(_ value: Double) -> Double {
      value.isNaN ? 1 : min(1, max(0.05, value))
    }

    private static func share(_ value: Double) -> Double {
      value.isNaN ? 0 : min(1, max(0, value))
    }

    private static func nonNegative(_ value: Double) -> Double {
      value.isNaN ? 0 : min(1e6, max(0, value))
    }
  }
}
