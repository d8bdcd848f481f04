import Foundation

/// The engine's bandwidth meter as the harness models it: a fast and a slow exponentially
/// weighted moving average of throughput (half-lives 3 s and 8 s of download time), and
/// the lower of the two; request latency likewise averaged per download, the higher one.
/// Both averages are corrected for their zero start.
struct ThroughputEstimator {
  private let halfLives = [3.0, 8.0]
  private var averages = [0.0, 0.0]
  private var weight = 0.0
  private var latencyAverages = [0.0, 0.0]
  private var latencyWeight = 0.0
  private let segmentSeconds: Double

  /// The throughput estimate in bits per second; nil before the first sample.
  private(set) var throughput: Double?
  /// The latency estimate in seconds; nil before the first sample.
  private(set) var latency: Double?
  /// The last sample's throughput.
  private(set) var lastThroughput: Double?

  init(segmentSeconds: Double) {
    self.segmentSeconds = segmentSeconds
  }

  /// Adds one download: `bits` moved in `seconds` after a first byte at `latency`.
  mutating func add(bits: Double, seconds: Double, latency sampleLatency: Double) {
    guard seconds > 0 else { return }
    let sample = bits / seconds
    weight += seconds
    latencyWeight += 1
    var estimate = Double.infinity
    var latencyEstimate = 0.0
    for slot in 0..<halfLives.count {
      let alpha = pow(0.5, seconds / halfLives[slot])
      averages[slot] = alpha * averages[slot] + (1 - alpha) * sample
      estimate = min(estimate, averages[slot] / (1 - pow(0.5, weight / halfLives[slot])))
      // Latency half-lives count downloads: a half-life of h seconds is h / segment.
      let perDownload = halfLives[slot] / segmentSeconds
      let beta = pow(0.5, 1 / perDownload)
      latencyAverages[slot] = beta * latencyAverages[slot] + (1 - beta) * sampleLatency
      latencyEstimate = max(
        latencyEstimate, latencyAverages[slot] / (1 - pow(0.5, latencyWeight / perDownload)))
    }
    throughput = estimate
    latency = latencyEstimate
    lastThroughput = sample
  }
}
