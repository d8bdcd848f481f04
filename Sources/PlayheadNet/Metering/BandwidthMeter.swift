import Foundation
import PlayheadCore

/// Estimates the network's throughput from the engine's own transfers, and reports the
/// current download speed to the application (SPEC S9).
///
/// Each transfer of at least `minimumSampleBytes` is a sample of its throughput
/// (bits ÷ seconds) weighted by its duration in seconds, fed into two exponentially
/// weighted moving averages: a fast one (half-life 3 s) and a slow one (half-life 8 s).
/// The estimate is the lower of the two, so that it drops quickly and rises slowly. Until
/// `minimumTotalBytes` have been sampled, the estimate is `defaultEstimateBitsPerSecond`.
/// Smaller transfers (playlists, keys) and transfers of a purpose not in `countedPurposes`
/// count toward `totalBytes` but not toward the estimate; a transfer that took no time has
/// no throughput and is not sampled.
///
/// Thread-safe: give one meter to several data sources as their `transferListener`.
///
/// Example:
/// ```swift
/// let meter = BandwidthMeter()
/// let source = HTTPDataSource(transferListener: meter)
/// _ = try source.load(DataRequest(url: segmentURL, purpose: .segment))
/// print(meter.estimateBitsPerSecond)
/// ```
public final class BandwidthMeter: TransferListener, Sendable {
  /// The meter's constants.
  public struct Configuration: Sendable, Equatable {
    /// The fast average's half-life, in seconds of transfer time.
    public var fastHalfLifeSeconds: Double
    /// The slow average's half-life, in seconds of transfer time.
    public var slowHalfLifeSeconds: Double
    /// The estimate before enough bytes were sampled, in bits per second.
    public var defaultEstimateBitsPerSecond: Double
    /// Transfers smaller than this are not sampled.
    public var minimumSampleBytes: Int
    /// The sampled bytes needed before the averages replace the default estimate.
    public var minimumTotalBytes: Int
    /// The purposes whose transfers are sampled.
    public var countedPurposes: Set<DataPurpose>

    /// Creates a configuration; the defaults are half-lives of 3 s and 8 s, a 1 Mbit/s
    /// default estimate, samples of at least 16 KB and 128 KB before the first estimate,
    /// counting segments, initialization sections and progressive media.
    public init(
      fastHalfLifeSeconds: Double = 3, slowHalfLifeSeconds: Double = 8,
      defaultEstimateBitsPerSecond: Double = 1_000_000, minimumSampleBytes: Int = 16_000,
      minimumTotalBytes: Int = 128_000,
      countedPurposes: Set<DataPurpose> = [.segment, .initializationSection, .media]
    ) {
      self.fastHalfLifeSeconds = fastHalfLifeSeconds
      self.slowHalfLifeSeconds = slowHalfLifeSeconds
      self.defaultEstimateBitsPerSecond = defaultEstimateBitsPerSecond
      self.minimumSampleBytes = minimumSampleBytes
      self.minimumTotalBytes = minimumTotalBytes
      self.countedPurposes = countedPurposes
    }
  }

  /// The constants this meter uses.
  public let configuration: Configuration
  private let state: Locked<State>

  private struct State: Sendable {
    var fast: WeightedAverage
    var slow: WeightedAverage
    var sampledBytes = 0
    var allBytes: Int64 = 0
    var lastBitsPerSecond: Double?

    init(_ configuration: Configuration) {
      fast = WeightedAverage(halfLife: configuration.fastHalfLifeSeconds)
      slow = WeightedAverage(halfLife: configuration.slowHalfLifeSeconds)
    }
  }

  /// Creates a meter with no samples.
  public init(configuration: Configuration = .init()) {
    self.configuration = configuration
    state = Locked(State(configuration))
  }

  /// The bandwidth estimate in bits per second: the lower of the two averages, or the
  /// default estimate until enough bytes were sampled.
  public var estimateBitsPerSecond: Double {
    let configuration = configuration
    return state.withLock { state in
      guard state.sampledBytes >= configuration.minimumTotalBytes,
        let fastValue = state.fast.value, let slowValue = state.slow.value
      else { return configuration.defaultEstimateBitsPerSecond }
      return min(fastValue, slowValue)
    }
  }

  /// True once enough bytes were sampled for the estimate to come from the averages.
  public var hasEstimate: Bool {
    state.value.sampledBytes >= configuration.minimumTotalBytes
  }

  /// The throughput of the most recent transfer that took time, whatever its size or
  /// purpose, in bits per second: the current download speed; nil before the first.
  public var lastTransferBitsPerSecond: Double? {
    state.withLock { $0.lastBitsPerSecond }
  }

  /// The bytes of every transfer reported so far.
  public var totalBytes: Int64 {
    state.withLock { $0.allBytes }
  }

  /// Forgets every sample, as for a new session.
  public func reset() {
    let fresh = State(configuration)
    state.withLock { $0 = fresh }
  }

  /// Records a finished transfer; see the type for which transfers are sampled.
  public func transferEnded(request: DataRequest, bytes: Int, duration: MediaTime) {
    let seconds = duration.seconds
    let count = max(0, bytes)
    let counted =
      count >= configuration.minimumSampleBytes
      && configuration.countedPurposes.contains(request.purpose)
    state.withLock { state in
      state.allBytes += Int64(count)
      guard seconds.isFinite, seconds > 0 else { return }
      let bitsPerSecond = Double(count) * 8 / seconds
      state.lastBitsPerSecond = bitsPerSecond
      guard counted else { return }
      state.fast.add(bitsPerSecond, weight: seconds)
      state.slow.add(bitsPerSecond, weight: seconds)
      state.sampledBytes += count
    }
  }
}

/// An exponentially weighted moving average whose samples carry weights (here, seconds),
/// corrected for its zero start so that early values are not pulled toward zero.
struct WeightedAverage: Sendable {
  /// The decay per unit of weight: 0.5 after `halfLife` units.
  private let alpha: Double
  private var raw = 0.0
  private var totalWeight = 0.0

  init(halfLife: Double) {
    let safeHalfLife = halfLife.isFinite && halfLife > 0 ? halfLife : 1
    alpha = exp(log(0.5) / safeHalfLife)
  }

  mutating func add(_ sample: Double, weight: Double) {
    let decay = pow(alpha, weight)
    raw = sample * (1 - decay) + decay * raw
    totalWeight += weight
  }

  /// The bias-corrected average; nil before the first sample.
  var value: Double? {
    guard totalWeight > 0 else { return nil }
    let correction = 1 - pow(alpha, totalWeight)
    return correction > 0 ? raw / correction : nil
  }
}
