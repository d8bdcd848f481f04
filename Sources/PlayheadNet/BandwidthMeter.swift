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
public final class BandwidthMeter: TransferListener, @unchecked Sendable {
  // Unchecked Sendable: the mutable fields are guarded by `lock`; `configuration` never
  // changes.

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
  private let lock = NSLock()
  private var fast: WeightedAverage
  private var slow: WeightedAverage
  private var sampledBytes = 0
  private var allBytes: Int64 = 0
  private var lastBitsPerSecond: Double?

  /// Creates a meter with no samples.
  public init(configuration: Configuration = .init()) {
    self.configuration = configuration
    fast = WeightedAverage(halfLife: configuration.fastHalfLifeSeconds)
    slow = WeightedAverage(halfLife: configuration.slowHalfLifeSeconds)
  }

  /// The bandwidth estimate in bits per second: the lower of the two averages, or the
  /// default estimate until enough bytes were sampled.
  public var estimateBitsPerSecond: Double {
    lock.lock()
    defer { lock.unlock() }
    guard sampledBytes >= configuration.minimumTotalBytes,
      let fastValue = fast.value, let slowValue = slow.value
    else { return configuration.defaultEstimateBitsPerSecond }
    return min(fastValue, slowValue)
  }

  /// True once enough bytes were sampled for the estimate to come from the averages.
  public var hasEstimate: Bool {
    lock.lock()
    defer { lock.unlock() }
    return sampledBytes >= configuration.minimumTotalBytes
  }

  /// The throughput of the most recent transfer that took time, whatever its size or
  /// purpose, in bits per second: the current download speed; nil before the first.
  public var lastTransferBitsPerSecond: Double? {
    lock.lock()
    defer { lock.unlock() }
    return lastBitsPerSecond
  }

  /// The bytes of every transfer reported so far.
  public var totalBytes: Int64 {
    lock.lock()
    defer { lock.unlock() }
    return allBytes
  }

  /// Forgets every sample, as for a new session.
  public func reset() {
    lock.lock()
    fast = WeightedAverage(halfLife: configuration.fastHalfLifeSeconds)
    slow = WeightedAverage(halfLife: configuration.slowHalfLifeSeconds)
    sampledBytes = 0
    allBytes = 0
    lastBitsPerSecond = nil
    lock.unlock()
  }

  /// Records a finished transfer; see the type for which transfers are sampled.
  public func transferEnded(request: DataRequest, bytes: Int, duration: MediaTime) {
    let seconds = duration.seconds
    let count = max(0, bytes)
    lock.lock()
    defer { lock.unlock() }
    allBytes += Int64(count)
    guard seconds.isFinite, seconds > 0 else { return }
    let bitsPerSecond = Double(count) * 8 / seconds
    lastBitsPerSecond = bitsPerSecond
    guard count >= configuration.minimumSampleBytes,
      configuration.countedPurposes.contains(request.purpose)
    else { return }
    fast.add(bitsPerSecond, weight: seconds)
    slow.add(bitsPerSecond, weight: seconds)
    sampledBytes += count
  }
}

/// An exponentially weighted moving average whose samples carry weights (here, seconds),
/// corrected for its zero start so that early values are not pulled toward zero.
struct WeightedAverage {
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
