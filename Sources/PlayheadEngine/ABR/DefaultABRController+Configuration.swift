extension DefaultABRController {
  /// The tunable numbers of the default controller; the defaults are the benchmarked ones.
  ///
  /// Out-of-range values are clamped when the controller is built: factors to 0.05...1,
  /// durations to at least zero, and `bufferRuleHighSeconds` to at least
  /// `bufferRuleLowSeconds`.
  public struct Configuration: Sendable, Equatable {
    /// How the first level is chosen.
    public var startPreference: ABRStartPreference
    /// The bandwidth assumed before any measurement, in bits per second (1 Mbit/s).
    public var defaultBandwidthEstimate: Int
    /// The fraction of the estimated throughput a level may use.
    public var safetyFactor: Double
    /// Below this much buffer the throughput rule decides; above it the buffer rule may
    /// pick a higher level.
    public var bufferRuleLowSeconds: Double
    /// The buffer at which the buffer rule picks the highest level (capped at the
    /// maximum buffer minus one segment).
    public var bufferRuleHighSeconds: Double
    /// The fraction of the buffer one download may take at the estimated throughput.
    public var insufficientBufferFactor: Double
    /// Whether downloads that would empty the buffer are abandoned for a lower level.
    public var abandonsDownloads: Bool
    /// The time a download must have run before it can be abandoned.
    public var abandonGraceSeconds: Double

    /// Creates a configuration; every argument has the benchmarked default.
    public init(
      startPreference: ABRStartPreference = .automatic,
      defaultBandwidthEstimate: Int = 1_000_000,
      safetyFactor: Double = 0.9,
      bufferRuleLowSeconds: Double = 10,
      bufferRuleHighSeconds: Double = 20,
      insufficientBufferFactor: Double = 0.5,
      abandonsDownloads: Bool = true,
      abandonGraceSeconds: Double = 0.5
    ) {
      self.startPreference = startPreference
      self.defaultBandwidthEstimate = defaultBandwidthEstimate
      self.safetyFactor = safetyFactor
      self.bufferRuleLowSeconds = bufferRuleLowSeconds
      self.bufferRuleHighSeconds = bufferRuleHighSeconds
      self.insufficientBufferFactor = insufficientBufferFactor
      self.abandonsDownloads = abandonsDownloads
      self.abandonGraceSeconds = abandonGraceSeconds
    }

    /// The same configuration with every number in range.
    var clamped: Configuration {
      var copy = self
      copy.defaultBandwidthEstimate = max(1, defaultBandwidthEstimate)
      copy.safetyFactor = Self.clampFactor(safetyFactor)
      copy.insufficientBufferFactor = Self.clampFactor(insufficientBufferFactor)
      copy.bufferRuleLowSeconds = Self.clampDuration(bufferRuleLowSeconds)
      copy.bufferRuleHighSeconds = max(
        copy.bufferRuleLowSeconds, Self.clampDuration(bufferRuleHighSeconds))
      copy.abandonGraceSeconds = Self.clampDuration(abandonGraceSeconds)
      return copy
    }

    private static func clampFactor(_ value: Double) -> Double {
      value.isNaN ? 1 : min(1, max(0.05, value))
    }

    private static func clampDuration(_ value: Double) -> Double {
      value.isNaN ? 0 : min(1e6, max(0, value))
    }
  }
}
