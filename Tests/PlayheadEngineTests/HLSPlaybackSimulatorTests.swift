import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// The playback simulator on a synthetic ladder, and the same inputs played through the
/// driver's own downloader thread on a stepped clock, as `HLSAdaptiveTests` does.
final class HLSPlaybackSimulatorTests: XCTestCase {
  private let base = URL(string: "http://ladder.test/")!
  /// 400 kbit/s, 1.2 Mbit/s, 3 Mbit/s; 2 s segments.
  private let bitrates = [400_000, 1_200_000, 3_000_000]
  private let segmentCount = 60
  private let segmentSeconds = 2.0

  private var master: URL { base.appendingPathComponent("master.m3u8") }

  /// The ladder's playlists and zero-filled segments of each level's size (±10 % by
  /// segment, so sizes differ).
  private func resources() -> [URL: Data] {
    SyntheticLadder.resources(
      base: base, bitrates: bitrates, segmentCount: segmentCount, segmentSeconds: segmentSeconds,
      scale: { 0.9 + 0.2 * Double(($0 * 7) % 11) / 10 })
  }

  /// 5 Mbit/s for 30 s, then 0.5 Mbit/s.
  private func stepTrace() throws -> NetworkTrace {
    try NetworkTrace(periods: [
      .init(durationMs: 30_000, bandwidthKbps: 5_000, latencyMs: 40),
      .init(durationMs: 3_600_000, bandwidthKbps: 500, latencyMs: 40),
    ])
  }

  /// No retries: the requests every run of the ladder makes.
  private let noRetries = RequestConfiguration(retryCount: 0)

  private func configuration() -> HLSConfiguration {
    var configuration = HLSConfiguration()
    configuration.bufferSettings = BufferSettings(
      lowWaterMark: MediaTime(value: 20, timescale: 1),
      highWaterMark: MediaTime(value: 20, timescale: 1),
      maximumBuffer: MediaTime(value: 20, timescale: 1), optimizer: BufferOptimizer.none)
    return configuration
  }

  private func simulate() throws -> HLSSimulationReport {
    let clock = ManualClock(advancesOnWait: true)
    let source = SimulatedNetwork(
      resources: resources(), trace: try stepTrace(), clock: clock, progressIntervalMs: 100)
    return try HLSPlaybackSimulator.run(
      url: master, configuration: configuration(), request: noRetries, network: source,
      clock: clock)
  }

  func testBandwidthDropSwitchesDownBeforeTheBufferEmpties() throws {
    let report = try simulate()
    XCTAssertEqual(report.segments.map(\.mediaSequence), Array(0..<segmentCount))
    let drop = report.startClock + MediaTime(value: 30, timescale: 1)
    let beforeDrop = report.segments.filter { $0.arrivalClock < drop }
    XCTAssertEqual(beforeDrop.last?.level, 2, "5 Mbit/s sustains 3 Mbit/s: \(beforeDrop)")
    let topBefore = try XCTUnwrap(beforeDrop.last?.level)
    // The first lower request (or abandonment) after the drop comes while media is still
    // buffered: before any stall.
    let firstLower = try XCTUnwrap(
      (report.segments.filter { $0.requestClock >= drop && $0.level < topBefore }.map(
        \.requestClock)
        + report.abandonments.filter { $0.abandonClock >= drop }.map(\.abandonClock)).min(),
      "never went down: \(report.segments.map(\.level))")
    if let stall = report.stalls.first {
      XCTAssertLessThan(firstLower, stall.startClock, "went down only after the buffer emptied")
    }
    let bufferThen = report.bufferSamples.last { $0.clock <= firstLower }?.buffered ?? .zero
    XCTAssertGreaterThan(bufferThen, .zero, "the buffer was empty when the level went down")
    // 0.5 Mbit/s sustains only the lowest level: reached within 10 requests of the drop.
    let afterDrop = report.segments.filter { $0.requestClock >= drop }
    XCTAssertTrue(
      afterDrop.prefix(10).contains { $0.level == 0 },
      "not at the lowest level within 10 requests: \(report.segments.map(\.level))")
    XCTAssertEqual(report.stalls, [], "no stall at all")
    XCTAssertGreaterThan(report.startupDuration, .zero)
    XCTAssertEqual(
      report.sessionDuration,
      report.startupDuration + MediaTime(value: Int64(segmentCount) * 2, timescale: 1)
        + report.totalStallDuration)
  }

  func testSimulationMatchesTheDriverThreadOnASteppedClock() throws {
    let simulated = try simulate()
    let stepped = try playOnSteppedClock()
    XCTAssertEqual(
      simulated.segments.map(\.level), stepped.map(\.level), "the same level for every segment")
    XCTAssertEqual(
      simulated.segments.map(\.arrivalClock), stepped.map(\.arrivalClock),
      "the same download times")
    XCTAssertTrue(Set(simulated.segments.map(\.level)).count > 1, "the run adapted")
  }

  func testAbandonsADownloadThatWouldEmptyTheBuffer() throws {
    // 5 Mbit/s for 30 s, then an outage of 20 s: the download running into it is
    // abandoned for the lowest level.
    let clock = ManualClock(advancesOnWait: true)
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 30_000, bandwidthKbps: 5_000, latencyMs: 40),
      .init(durationMs: 20_000, bandwidthKbps: 0, latencyMs: 40),
      .init(durationMs: 3_600_000, bandwidthKbps: 5_000, latencyMs: 40),
    ])
    var request = RequestConfiguration(timeoutMs: 60_000)
    request.retryCount = 0
    let source = SimulatedNetwork(
      resources: resources(), trace: trace, clock: clock, configuration: request,
      progressIntervalMs: 100)
    let report = try HLSPlaybackSimulator.run(
      url: master, configuration: configuration(), request: request, network: source, clock: clock)
    let abandoned = try XCTUnwrap(report.abandonments.first, "nothing abandoned")
    XCTAssertLessThan(abandoned.targetLevel, abandoned.level)
    let replacement = try XCTUnwrap(
      report.segments.first { $0.mediaSequence == abandoned.mediaSequence })
    XCTAssertEqual(replacement.level, abandoned.targetLevel)
    XCTAssertGreaterThanOrEqual(replacement.requestClock, abandoned.abandonClock)
  }

  /// The pass-through consumer starts and resumes as the player does: at the load
  /// control's startup buffer (5 s: three 2 s segments) and, after a stall, at its buffer
  /// after a rebuffer (7 s: four segments), not at the first segment.
  func testStartAndResume_waitForTheLoadControlsBuffers() throws {
    let clock = ManualClock(advancesOnWait: true)
    // 5 Mbit/s for 20 s, then 100 kbit/s (the lowest level's segment takes 8 s) for 60 s.
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 20_000, bandwidthKbps: 5_000, latencyMs: 40),
      .init(durationMs: 60_000, bandwidthKbps: 100, latencyMs: 40),
      .init(durationMs: 3_600_000, bandwidthKbps: 5_000, latencyMs: 40),
    ])
    let source = SimulatedNetwork(
      resources: resources(), trace: trace, clock: clock, progressIntervalMs: 100)
    var hls = configuration()
    hls.bufferSettings?.startupBuffer = MediaTime(value: 5, timescale: 1)
    hls.bufferSettings?.bufferAfterRebuffer = MediaTime(value: 7, timescale: 1)
    let report = try HLSPlaybackSimulator.run(
      url: master, configuration: hls, request: noRetries, network: source, clock: clock)
    let started = try XCTUnwrap(
      report.segments.first { $0.arrivalClock == report.playbackStartClock })
    XCTAssertGreaterThanOrEqual(started.bufferAfterArrival.seconds, 5)
    XCTAssertLessThan(started.bufferAfterArrival.seconds, 7, "waited past the startup buffer")
    XCTAssertEqual(report.segments.firstIndex { $0 == started }, 2, "started on the third segment")
    XCTAssertFalse(report.stalls.isEmpty, "the slow stretch never stalled")
    for stall in report.stalls {
      let resumed = stall.startClock + stall.duration
      let segment = try XCTUnwrap(report.segments.first { $0.arrivalClock == resumed })
      XCTAssertGreaterThanOrEqual(
        segment.bufferAfterArrival.seconds, 7, "resumed at \(resumed.seconds) with less")
    }
  }

  func testRejectsAClockThatDoesNotAdvanceOnWait() throws {
    let clock = ManualClock()
    let source = SimulatedNetwork(resources: resources(), trace: try stepTrace(), clock: clock)
    XCTAssertThrowsError(
      try HLSPlaybackSimulator.run(url: master, network: source, clock: clock)
    ) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
    }
  }

  // MARK: The driver's own thread on a stepped clock

  /// A segment as the stepped run saw it arrive.
  struct SteppedSegment {
    var level: Int
    var arrivalClock: MediaTime
  }

  /// Plays the same inputs through `startDownloading` (the downloader thread playback
  /// uses) on a clock the test moves only while that thread waits on it. Playback is
  /// modelled here independently of the simulator's consumer: it starts and resumes once
  /// a segment is buffered, and the position handed to the driver before each move of
  /// the clock is where playback will be when the driver wakes.
  private func playOnSteppedClock() throws -> [SteppedSegment] {
    let clock = ManualClock()
    let source = SimulatedNetwork(
      resources: resources(), trace: try stepTrace(), clock: clock, progressIntervalMs: 100)
    let box = DriverBox()
    var hls = configuration()
    // The test moves the clock once one wait is blocked on it, which must be the
    // downloader's: the stall checks' "playhead.load-watch" thread, which lives while a
    // segment loads, would be a second waiter that the move races with. No download of the
    // step trace receives nothing for 100 ms, so the checks change nothing in the
    // simulator's run (it keeps them on), and the runs still match.
    hls.stalledDownloadCheckIntervalMs = nil
    let stack = DataSourceStack(request: noRetries, clock: clock, network: source)
    let opener = Thread { [master, hls] in
      box.set(
        Result(catching: { () throws(PlayheadError) -> HLSDriver in
          try HLSDriver(url: master, configuration: hls, clock: clock, stack: stack)
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
    let driver = try XCTUnwrap(try box.value?.get())
    defer { driver.stop() }
    let generation = driver.queue.generation
    // Positions are set without waking the downloader (a wake would race with the test's
    // next move of the clock), so it re-checks a full buffer as the simulator's does.
    driver.bufferRecheckInterval = HLSPlaybackSimulator.positionReportInterval
    driver.startDownloading()

    var arrived: [SteppedSegment] = []
    var bufferedEnd = MediaTime.zero
    var position = MediaTime.zero
    var playing = false
    let hostLimit = Date(timeIntervalSinceNow: 120)
    while arrived.count < segmentCount {
      XCTAssertLessThan(Date(), hostLimit, "the stepped run does not end")
      guard Date() < hostLimit else { break }
      // Segments appended since the last move arrived now.
      while let segment = driver.queue.segmentIfLoaded(
        ordinal: arrived.count, generation: generation)
      {
        arrived.append(SteppedSegment(level: segment.level, arrivalClock: segment.arrivalClock))
        bufferedEnd = segment.end
      }
      if arrived.count == segmentCount { break }
      guard clock.waitForBlockedWaits(count: 1, hostTimeoutMs: 50),
        let deadline = clock.nextBlockedDeadline
      else { continue }
      // The driver may have appended before blocking again.
      if driver.queue.segmentIfLoaded(ordinal: arrived.count, generation: generation) != nil {
        continue
      }
      if !playing && bufferedEnd > position { playing = true }
      if playing {
        let elapsed = deadline - clock.now
        if elapsed <= bufferedEnd - position {
          position = position + elapsed
        } else {
          position = bufferedEnd
          playing = false
        }
      }
      driver.setPlaybackPosition(position)
      clock.advance(to: deadline)
    }
    return arrived
  }
}
