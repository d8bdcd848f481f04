import Foundation

/// Measures the download speed of a streamed response (SPEC S9): the body bytes that
/// arrived and the monotonic time they took, in samples of at least `sampleBytes`.
///
/// A sample starts when the request is sent (so its first sample includes the time to the
/// first byte, as the speed of an HLS segment does) or where the previous sample of the
/// same response ended, and closes once it holds `sampleBytes`, or when the response ends,
/// stops or fails with at least `minimumSampleBytes` in it. The speed is the sample's bits
/// divided by its seconds; a sample that took no measurable time is dropped. Not
/// thread-safe: its owner guards it.
struct TransferSpeedSampler {
  /// A sample closes once it holds this many bytes.
  static let sampleBytes = 256 * 1024
  /// A response that ends with fewer bytes in its open sample gives no sample.
  static let minimumSampleBytes = 16 * 1024

  /// Every body byte received, over all responses.
  private(set) var totalBytes: Int64 = 0
  /// The speed of the last closed sample, in bits per second.
  private(set) var lastBitsPerSecond: Double?
  /// How many samples have closed (a new value is then in `lastBitsPerSecond`).
  private(set) var sampleCount = 0
  private var sampleStartNanoseconds: UInt64?
  private var sampleBytes = 0

  /// A request was sent at `now`: a new sample starts (an open one is dropped).
  mutating func requestStarted(at now: UInt64) {
    sampleStartNanoseconds = now
    sampleBytes = 0
  }

  /// `count` body bytes arrived at `now`.
  mutating func received(_ count: Int, at now: UInt64) {
    totalBytes += Int64(count)
    guard sampleStartNanoseconds != nil else { return }
    sampleBytes += count
    if sampleBytes >= Self.sampleBytes { close(at: now) }
  }

  /// The response ended, stopped or failed at `now`: the open sample closes when it holds
  /// enough bytes, and no sample is open afterwards.
  mutating func responseEnded(at now: UInt64) {
    if sampleBytes >= Self.minimumSampleBytes { close(at: now) }
    sampleStartNanoseconds = nil
    sampleBytes = 0
  }

  private mutating func close(at now: UInt64) {
    if let start = sampleStartNanoseconds, now > start {
      lastBitsPerSecond = Double(sampleBytes) * 8 / (Double(now - start) / 1e9)
      sampleCount += 1
    }
    sampleStartNanoseconds = now
    sampleBytes = 0
  }
}
