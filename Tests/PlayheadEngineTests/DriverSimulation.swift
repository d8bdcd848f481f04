import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// The segment engine's driver on a manual clock over a simulated network, with a
/// simulated viewer: the clock moves only when the driver's threads all wait on it, so
/// every run is the same to the nanosecond. Shared by the HLS and DASH adaptation tests.
enum DriverSimulation {
  /// Opens the driver for `url` over `network` on another thread while the playlist loads
  /// run on the clock.
  static func open(
    _ url: URL, configuration: HLSConfiguration, network: SimulatedNetwork,
    request: RequestConfiguration = RequestConfiguration(), clock: ManualClock
  ) throws -> HLSDriver {
    let stack = DataSourceStack(request: request, clock: clock, network: network)
    let box = DriverBox()
    let opener = Thread {
      box.set(
        Result(catching: { () throws(PlayheadError) -> HLSDriver in
          try HLSDriver(url: url, configuration: configuration, clock: clock, stack: stack)
        }))
    }
    opener.start()
    while box.value == nil {
      if clock.waitForBlockedWaits(count: 1, hostTimeoutMs: 50),
        let next = clock.nextBlockedDeadline
      {
        clock.advance(to: next)
      }
    }
    return try XCTUnwrap(try box.value?.get())
  }

  /// What the simulated viewer saw.
  struct Outcome {
    /// (clock seconds when the download finished, level) for every segment.
    var segments: [(time: Double, level: Int)] = []
    var stalls = 0
    var stallTimes: [Double] = []
  }

  /// Plays `url` from `resources` over `trace` for `seconds` of clock time, consuming
  /// media in real (clock) time once 2 s are buffered. A segment's level is the index of
  /// the first of `levels` its URL path contains (`/144p/`).
  static func simulate(
    _ url: URL, resources: [URL: Data], trace: NetworkTrace, seconds: Double,
    startBandwidth: Int = 1_000_000, levels: [String],
    configure: (inout HLSConfiguration) -> Void = { _ in }
  ) throws -> Outcome {
    let clock = ManualClock()
    let source = SimulatedNetwork(resources: resources, trace: trace, clock: clock)
    var configuration = HLSConfiguration()
    configuration.forwardBufferDuration = MediaTime(value: 20, timescale: 1)
    configuration.defaultBandwidthEstimate = startBandwidth
    // The loop below moves the clock once one wait is blocked on it, which must be the
    // downloader's: no stall checks, whose "playhead.load-watch" thread would be a second
    // waiter while a segment loads, racing with the move.
    configuration.stalledDownloadCheckIntervalMs = nil
    configure(&configuration)
    let driver = try open(
      url, configuration: configuration, network: source,
      request: RequestConfiguration(retryCount: 0), clock: clock)
    defer { driver.stop() }
    driver.startDownloading()

    var outcome = Outcome()
    var position = MediaTime.zero
    var playing = false
    let end = MediaTime(seconds: seconds, preferredTimescale: 1000)
    while clock.now < end {
      XCTAssertTrue(clock.waitForBlockedWaits(count: 1), "the driver stopped waiting on the clock")
      let step = MediaTime(value: 1, timescale: 10)
      let target = min(clock.nextBlockedDeadline ?? (clock.now + step), clock.now + step)
      let before = clock.now
      clock.advance(to: target)
      let buffered = driver.queue.bufferedEnd ?? .zero
      if playing {
        position = position + (clock.now - before)
        if position >= buffered && buffered < driver.duration {
          outcome.stalls += 1
          outcome.stallTimes.append(clock.now.seconds)
          position = buffered
          playing = false
        }
      } else if buffered - position >= MediaTime(value: 2, timescale: 1) {
        playing = true
      }
      driver.setPlaybackPosition(position)
    }
    for entry in source.requestLog where entry.request.purpose == .segment && entry.error == nil {
      guard let finished = entry.endClock else { continue }
      let level = levels.firstIndex { entry.request.url.path.contains("/\($0)/") } ?? -1
      outcome.segments.append((finished.seconds, level))
    }
    return outcome
  }
}

/// Hands a driver (or its opening error) from the opening thread to the test.
final class DriverBox: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<HLSDriver, PlayheadError>?
  func set(_ value: Result<HLSDriver, PlayheadError>) {
    lock.lock()
    result = value
    lock.unlock()
  }
  var value: Result<HLSDriver, PlayheadError>? {
    lock.lock()
    defer { lock.unlock() }
    return result
  }
}

extension Result where Failure == PlayheadError {
  init(catching body: () throws(PlayheadError) -> Success) {
    do { self = .success(try body()) } catch { self = .failure(error) }
  }
}
