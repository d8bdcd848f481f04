import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTesting
import XCTest

/// The estimates of `BandwidthMeter`.
final class BandwidthMeterTests: XCTestCase {
  private let segment = DataRequest(
    url: URL(string: "https://cdn.example/s.ts")!, purpose: .segment)

  /// Reports a transfer of `bitsPerSecond` for `seconds`.
  private func transfer(
    _ meter: BandwidthMeter, bitsPerSecond: Double, seconds: Double, purpose: DataPurpose = .segment
  ) {
    let bytes = Int(bitsPerSecond * seconds / 8)
    meter.transferEnded(
      request: DataRequest(url: segment.url, purpose: purpose), bytes: bytes,
      duration: MediaTime(seconds: seconds, preferredTimescale: 1_000_000_000))
  }

  func testEstimate_beforeEnoughBytes_isTheDefault() {
    let meter = BandwidthMeter(configuration: .init(defaultEstimateBitsPerSecond: 2_000_000))
    XCTAssertEqual(meter.estimateBitsPerSecond, 2_000_000)
    XCTAssertFalse(meter.hasEstimate)
    XCTAssertNil(meter.lastTransferBitsPerSecond)
    // 100 KB sampled: still under the 128 KB needed.
    transfer(meter, bitsPerSecond: 800_000, seconds: 1)
    XCTAssertFalse(meter.hasEstimate)
    XCTAssertEqual(meter.estimateBitsPerSecond, 2_000_000)
    XCTAssertEqual(meter.lastTransferBitsPerSecond ?? 0, 800_000, accuracy: 1)
  }

  func testEstimate_steadyThroughput_convergesToIt() {
    let meter = BandwidthMeter()
    for _ in 0..<5 { transfer(meter, bitsPerSecond: 4_000_000, seconds: 2) }
    XCTAssertTrue(meter.hasEstimate)
    // The zero-start correction makes a constant input come out exactly.
    XCTAssertEqual(meter.estimateBitsPerSecond, 4_000_000, accuracy: 1)
  }

  /// The bias-corrected average, half-life `halfLife` s, after a steady `before` bps for
  /// `beforeSeconds` and then `after` bps for `afterSeconds`.
  private func expectedAverage(
    halfLife: Double, before: Double, beforeSeconds: Double, after: Double, afterSeconds: Double
  ) -> Double {
    let alpha = pow(0.5, 1 / halfLife)
    let raw = before * (1 - pow(alpha, beforeSeconds))
    let updated = after * (1 - pow(alpha, afterSeconds)) + pow(alpha, afterSeconds) * raw
    return updated / (1 - pow(alpha, beforeSeconds + afterSeconds))
  }

  func testEstimate_afterADrop_followsTheFastAverageDown() {
    let meter = BandwidthMeter()
    for _ in 0..<10 { transfer(meter, bitsPerSecond: 5_000_000, seconds: 2) }
    transfer(meter, bitsPerSecond: 500_000, seconds: 3)
    let fast = expectedAverage(
      halfLife: 3, before: 5_000_000, beforeSeconds: 20, after: 500_000, afterSeconds: 3)
    let slow = expectedAverage(
      halfLife: 8, before: 5_000_000, beforeSeconds: 20, after: 500_000, afterSeconds: 3)
    XCTAssertLessThan(fast, slow)
    XCTAssertEqual(meter.estimateBitsPerSecond, fast, accuracy: 1)
    XCTAssertLessThan(meter.estimateBitsPerSecond, 3_000_000)
  }

  func testEstimate_afterARise_followsTheSlowAverageUp() {
    let meter = BandwidthMeter()
    for _ in 0..<10 { transfer(meter, bitsPerSecond: 1_000_000, seconds: 2) }
    transfer(meter, bitsPerSecond: 9_000_000, seconds: 1)
    let fast = expectedAverage(
      halfLife: 3, before: 1_000_000, beforeSeconds: 20, after: 9_000_000, afterSeconds: 1)
    let slow = expectedAverage(
      halfLife: 8, before: 1_000_000, beforeSeconds: 20, after: 9_000_000, afterSeconds: 1)
    XCTAssertLessThan(slow, fast)
    XCTAssertEqual(meter.estimateBitsPerSecond, slow, accuracy: 1)
    XCTAssertLessThan(meter.estimateBitsPerSecond, 2_000_000)
  }

  func testSmallTransfersAndOtherPurposes_countBytesButNotTheEstimate() {
    let meter = BandwidthMeter()
    for _ in 0..<3 { transfer(meter, bitsPerSecond: 8_000_000, seconds: 1) }
    let settled = meter.estimateBitsPerSecond
    // 10 KB in 1 s: too small to sample, but it is the latest speed.
    meter.transferEnded(request: segment, bytes: 10_000, duration: ms(1_000))
    transfer(meter, bitsPerSecond: 100_000, seconds: 10, purpose: .playlist)
    XCTAssertEqual(meter.estimateBitsPerSecond, settled)
    XCTAssertEqual(meter.lastTransferBitsPerSecond ?? 0, 100_000, accuracy: 1)
    XCTAssertEqual(meter.totalBytes, 3 * 1_000_000 + 10_000 + 125_000)
  }

  func testZeroDurationTransfer_countsBytesOnly() {
    let meter = BandwidthMeter()
    meter.transferEnded(request: segment, bytes: 1_000_000, duration: .zero)
    XCTAssertEqual(meter.totalBytes, 1_000_000)
    XCTAssertNil(meter.lastTransferBitsPerSecond)
    XCTAssertFalse(meter.hasEstimate)
  }

  func testReset_forgetsEverything() {
    let meter = BandwidthMeter()
    for _ in 0..<3 { transfer(meter, bitsPerSecond: 8_000_000, seconds: 1) }
    meter.reset()
    XCTAssertEqual(meter.totalBytes, 0)
    XCTAssertNil(meter.lastTransferBitsPerSecond)
    XCTAssertEqual(meter.estimateBitsPerSecond, 1_000_000)
  }

  func testMeter_asTheListenerOfALoaderOverASimulatedNetwork_measuresTheTrace() throws {
    let meter = BandwidthMeter()
    let clock = ManualClock(advancesOnWait: true)
    let url = segment.url
    let network = SimulatedNetwork(
      resources: [url: Data(count: 500_000)], trace: .constant(bandwidthKbps: 4_000), clock: clock)
    let loader = DataLoader(factory: network, clock: clock, transferListener: meter)
    for _ in 0..<4 { _ = try loader.load(DataRequest(url: url, purpose: .segment)) }
    XCTAssertEqual(meter.estimateBitsPerSecond, 4_000_000, accuracy: 1)
    XCTAssertEqual(meter.lastTransferBitsPerSecond ?? 0, 4_000_000, accuracy: 1)
    XCTAssertEqual(meter.totalBytes, 2_000_000)
  }

  func testMeter_fromManyThreads_countsEveryTransfer() {
    let meter = BandwidthMeter()
    let segment = self.segment
    DispatchQueue.concurrentPerform(iterations: 200) { _ in
      meter.transferEnded(request: segment, bytes: 20_000, duration: ms(10))
    }
    XCTAssertEqual(meter.totalBytes, 4_000_000)
    XCTAssertEqual(meter.estimateBitsPerSecond, 16_000_000, accuracy: 1)
  }
}
