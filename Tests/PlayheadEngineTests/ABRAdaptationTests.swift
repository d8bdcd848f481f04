import Foundation
import PlayheadCore
import PlayheadEngine
import XCTest

/// Deterministic ABR scenarios on `ABRTestSimulator` (2-second segments, bandwidth as a
/// function of simulated time, 30 s maximum buffer).
final class ABRAdaptationTests: XCTestCase {
  let ladder = ABRTestLadder.levels
  static let dropTime = 60.0
  static let riseTime = 60.0

  private func dropSimulator(
    constraints: @escaping @Sendable (Int) -> ABRConstraints = { _ in .none }
  )
    -> ABRTestSimulator
  {
    ABRTestSimulator(
      levels: ladder, bandwidth: { $0 < Self.dropTime ? 5_000_000 : 500_000 },
      constraints: constraints)
  }

  private func riseSimulator(
    constraints: @escaping @Sendable (Int) -> ABRConstraints = { _ in .none }
  )
    -> ABRTestSimulator
  {
    ABRTestSimulator(
      levels: ladder, bandwidth: { $0 < Self.riseTime ? 500_000 : 5_000_000 },
      constraints: constraints)
  }

  private func bitrate(_ level: Int) -> Int { ladder[level].bandwidth }

  func testDropFrom5To0_5Mbps_switchesDownBeforeTheBufferEmpties() {
    let outcome = dropSimulator().run(controller: DefaultABRController(), segments: 80)
    let before = outcome.steps.filter { $0.requestTime < Self.dropTime }
    XCTAssertEqual(before.last?.level, 4, "5 Mbit/s carries the 4 Mbit/s level before the drop")
    // The first request after the drop at a lower level (an abandonment counts) is made
    // while media is still buffered, and playback never stalls.
    let firstDown = outcome.steps.first {
      $0.requestTime >= Self.dropTime && ($0.level < 4 || $0.abandonedTo != nil)
    }
    XCTAssertNotNil(firstDown)
    XCTAssertGreaterThan(firstDown?.bufferAtRequest ?? 0, 0)
    XCTAssertEqual(outcome.stallSeconds, 0, "stalls at \(outcome.stallStarts)")
    // Within 10 requests of the drop it plays a level that 0.5 Mbit/s sustains.
    let afterDrop = outcome.steps.filter { $0.requestTime >= Self.dropTime }
    XCTAssertTrue(
      afterDrop.prefix(10).contains { $0.abandonedTo == nil && bitrate($0.level) <= 500_000 })
  }

  func testRiseFrom0_5To5Mbps_switchesUpWithinThreeSegments_andReachesTheTopWithinSixteen() {
    let outcome = riseSimulator().run(controller: DefaultABRController(), segments: 90)
    XCTAssertEqual(outcome.stallSeconds, 0)
    let before = outcome.steps.filter { $0.requestTime < Self.riseTime }
    let highestBefore = before.map(\.level).max() ?? 0
    XCTAssertLessThanOrEqual(bitrate(highestBefore), 600_000)
    let after = outcome.steps.filter { $0.requestTime >= Self.riseTime }
    XCTAssertTrue(after.prefix(3).contains { $0.level > highestBefore })
    XCTAssertTrue(after.prefix(16).contains { $0.level == 4 })
    XCTAssertEqual(outcome.playedLevels.suffix(10), Array(repeating: 4, count: 10))
  }

  func testPeakBitRateCap_isRespectedInEveryDecision() {
    let cap = ABRConstraints(preferredPeakBitRate: 1_200_000)
    for simulator in [dropSimulator { _ in cap }, riseSimulator { _ in cap }] {
      let outcome = simulator.run(controller: DefaultABRController(), segments: 60)
      XCTAssertTrue(outcome.requestedLevels.allSatisfy { bitrate($0) <= 1_200_000 })
      XCTAssertTrue(outcome.steps.compactMap(\.abandonedTo).allSatisfy { bitrate($0) <= 1_200_000 })
      XCTAssertTrue(outcome.requestedLevels.contains(2), "the cap is reached, not undershot")
    }
  }

  func testPixelCountCap_isRespectedInEveryDecision() {
    let cap = ABRConstraints(maxPixelCount: 854 * 480)
    for simulator in [dropSimulator { _ in cap }, riseSimulator { _ in cap }] {
      let outcome = simulator.run(controller: DefaultABRController(), segments: 60)
      XCTAssertTrue(
        outcome.requestedLevels.allSatisfy { (ladder[$0].pixelCount ?? 0) <= 854 * 480 })
    }
  }

  func testResolutionCap_isRespectedInEveryDecision() {
    let cap = ABRConstraints(preferredMaximumResolution: VideoResolution(width: 1280, height: 720))
    let outcome = dropSimulator { _ in cap }.run(controller: DefaultABRController(), segments: 60)
    XCTAssertFalse(outcome.requestedLevels.contains(4))
    XCTAssertTrue(outcome.requestedLevels.contains(3))
  }

  func testManualSelection_isRespectedInEveryDecision_andNeverAbandoned() {
    let manual = ABRConstraints(preferredPeakBitRate: 300_000, manualLevel: 3)
    for simulator in [dropSimulator { _ in manual }, riseSimulator { _ in manual }] {
      let outcome = simulator.run(controller: DefaultABRController(), segments: 50)
      XCTAssertEqual(Set(outcome.requestedLevels), [3])
      XCTAssertTrue(outcome.steps.allSatisfy { $0.abandonedTo == nil })
      XCTAssertTrue(outcome.steps.dropFirst().allSatisfy { $0.reason == .manual })
    }
  }

  func testManualThenAutomatic_adaptsAgainAfterTheViewerGoesBackToAuto() {
    let simulator = ABRTestSimulator(
      levels: ladder, bandwidth: { _ in 5_000_000 },
      constraints: { $0 < 20 ? ABRConstraints(manualLevel: 0) : .none })
    let outcome = simulator.run(controller: DefaultABRController(), segments: 40)
    let manual = outcome.steps.filter { $0.segment < 20 }
    let automatic = outcome.steps.filter { $0.segment >= 25 }
    XCTAssertEqual(Set(manual.map(\.level)), [0])
    XCTAssertEqual(Set(automatic.map(\.level)), [4])
  }

  func testCapAddedMidSession_movesOffTheLevel_withTheConstrainedReason() {
    let simulator = ABRTestSimulator(
      levels: ladder, bandwidth: { _ in 5_000_000 },
      constraints: { $0 < 15 ? .none : ABRConstraints(preferredPeakBitRate: 700_000) })
    let outcome = simulator.run(controller: DefaultABRController(), segments: 25)
    let switchStep = outcome.steps.first { $0.segment == 15 }
    XCTAssertEqual(outcome.steps.first { $0.segment == 14 }?.level, 4)
    XCTAssertEqual(switchStep?.level, 1)
    XCTAssertEqual(switchStep?.reason, .constrained)
    XCTAssertTrue(outcome.steps.filter { $0.segment >= 15 }.allSatisfy { $0.level <= 1 })
  }

  func testHealthyBuffer_letsTheBufferRuleSpendTheSafetyMargin() {
    // 4.2 Mbit/s: 0.9 × 4.2 is below the 4 Mbit/s level, the estimate itself above it.
    let controller = DefaultABRController()
    let low = controller.selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 4_200_000, buffer: 4, current: 3))
    let high = controller.selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 4_200_000, buffer: 25, current: 3))
    XCTAssertEqual(low, ABRDecision(level: 3, reason: .throughput))
    XCTAssertEqual(high, ABRDecision(level: 4, reason: .buffer))
  }

  func testNoBuffer_picksALevelTheLinkDoesNotCarry() {
    // 3 Mbit/s never carries the 4 Mbit/s level, however full the buffer: it would drain
    // it and be left again.
    let controller = DefaultABRController()
    for buffer in [10.0, 20, 28] {
      let decision = controller.selectLevel(
        levels: ladder,
        context: ABRTestLadder.context(throughput: 3_000_000, buffer: buffer, current: 3))
      XCTAssertEqual(decision.level, 3, "at \(buffer) s of buffer")
    }
  }

  func testHealthyBuffer_holdsALevelTheEstimateStillCarries() {
    // 2.6 Mbit/s: 0.9 × 2.6 is under the 2.5 Mbit/s level being loaded; with a healthy
    // buffer the level stays (no step down for a dip inside the safety margin), with
    // little buffer the throughput rule steps down.
    let controller = DefaultABRController()
    let healthy = controller.selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 2_600_000, buffer: 15, current: 3))
    XCTAssertEqual(healthy.level, 3)
    let low = DefaultABRController().selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 2_600_000, buffer: 3, current: 3))
    XCTAssertEqual(low.level, 2)
  }

  func testALevelJustLeft_needsTheRecoveryMarginToBeTriedAgain() {
    let controller = DefaultABRController()
    // Left 2.5 Mbit/s for 1.2 Mbit/s on a 1.5 Mbit/s link.
    let down = controller.selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 1_500_000, buffer: 12, current: 3))
    XCTAssertEqual(down.level, 2)
    // 3 Mbit/s carries 2.5 Mbit/s at 0.9 but not at 0.9 / 1.25: not yet.
    let early = controller.selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 3_000_000, buffer: 12, current: 2))
    XCTAssertEqual(early.level, 2)
    // 3.6 Mbit/s does: back up, and the mark is forgotten.
    let recovered = controller.selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 3_600_000, buffer: 12, current: 2))
    XCTAssertEqual(recovered.level, 3)
    // A fresh controller takes 2.5 Mbit/s at 3 Mbit/s at once.
    let fresh = DefaultABRController().selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 3_000_000, buffer: 12, current: 2))
    XCTAssertEqual(fresh.level, 3)
  }

  func testALevelJustLeft_isRetriedOnADeepBuffer_withoutTheRecoveryMargin() {
    // Left 2.5 Mbit/s for 1.2 Mbit/s on a 1.5 Mbit/s link, as above.
    func leaving(_ controller: DefaultABRController) {
      let down = controller.selectLevel(
        levels: ladder,
        context: ABRTestLadder.context(throughput: 1_500_000, buffer: 12, current: 3))
      XCTAssertEqual(down.level, 2)
    }
    // 3 Mbit/s with 27 s of a 30 s buffer (past the buffer rule's high threshold and
    // four segments): the buffer absorbs a retry that turns out too high.
    let deep = ABRTestLadder.context(throughput: 3_000_000, buffer: 27, current: 2)
    let controller = DefaultABRController()
    leaving(controller)
    XCTAssertEqual(controller.selectLevel(levels: ladder, context: deep).level, 3)
    // Asked for more segments than the buffer holds, the margin applies at any buffer.
    let strict = DefaultABRController(configuration: .init(deepRetrySegments: 20))
    leaving(strict)
    XCTAssertEqual(strict.selectLevel(levels: ladder, context: deep).level, 2)
  }

  func testADeepBuffer_holdsALevelTheLinkCarriesHalfOf_butNotLess() {
    // The 4 Mbit/s level's last segment came in at 2.4 Mbit/s (60 %, under the 70 % that
    // is evidence against it): with 20 s buffered, one more such segment leaves 18.7 s.
    func decide(last: Double, buffer: Double, _ configuration: DefaultABRController.Configuration)
      -> Int
    {
      var context = ABRTestLadder.context(throughput: 2_400_000, buffer: buffer, current: 4)
      context.lastTransferBitsPerSecond = last
      return DefaultABRController(configuration: configuration).selectLevel(
        levels: ladder, context: context
      ).level
    }
    XCTAssertEqual(decide(last: 2_400_000, buffer: 20, .init()), 4)
    // Off (only a level the link carries is held): the throughput rule steps down, and
    // the step floor, bounded by the same share, does not stop it at 2.5 Mbit/s.
    XCTAssertEqual(decide(last: 2_400_000, buffer: 20, .init(deepHoldSpeedShare: 1)), 2)
    // A link under half the level is a fall, not a wobble (and 64 % of 2.5 Mbit/s).
    XCTAssertEqual(decide(last: 1_600_000, buffer: 20, .init()), 2)
    // A buffer the next segment would take under the low threshold steps down too.
    XCTAssertEqual(decide(last: 2_400_000, buffer: 5, .init()), 2)
  }

  func testADeepBuffer_stopsAStepDownAtALevelTheLinkNearlyCarries() {
    // The 4 Mbit/s level's last segment came in at under half its bitrate, so the hold
    // lets go; with 20 s buffered the step stops at 2.5 Mbit/s when the link carries 70 %
    // of it, where the throughput rule alone (0.9 × the link) would go to 1.2 Mbit/s.
    func decide(
      link: Double, buffer: Double, _ configuration: DefaultABRController.Configuration = .init()
    ) -> ABRDecision {
      var context = ABRTestLadder.context(throughput: link, buffer: buffer, current: 4)
      context.lastTransferBitsPerSecond = link
      return DefaultABRController(configuration: configuration).selectLevel(
        levels: ladder, context: context)
    }
    // 1.9 Mbit/s is 76 % of 2.5 Mbit/s; one such segment leaves 19.4 s.
    XCTAssertEqual(decide(link: 1_900_000, buffer: 20), ABRDecision(level: 3, reason: .throughput))
    // 1.6 Mbit/s is 64 %: a level the link does not nearly carry is skipped.
    XCTAssertEqual(decide(link: 1_600_000, buffer: 20).level, 2)
    // A shallow buffer takes the throughput rule's level.
    XCTAssertEqual(decide(link: 1_900_000, buffer: 4).level, 2)
    // A one-level step is the throughput rule's own: 3.1 Mbit/s carries 2.5 Mbit/s.
    XCTAssertEqual(decide(link: 3_100_000, buffer: 4).level, 3)
    // With slow transfers never evidence, the floor still asks for the hold's half:
    // 1.2 Mbit/s is 48 % of 2.5 Mbit/s, so it stops at 1.2 Mbit/s (the rule: 0.6).
    XCTAssertEqual(decide(link: 1_200_000, buffer: 20, .init(slowTransferFactor: 0)).level, 2)
  }

  func testLowBuffer_guardsAgainstADownloadThatWouldDrainIt() {
    let decision = DefaultABRController().selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 5_000_000, buffer: 1, current: 4))
    XCTAssertEqual(decision.reason, .insufficientBuffer)
    // 0.5 × 1 s of buffer at 5 Mbit/s is 2.5 Mbit: a 2-second segment of at most 1.25 Mbit/s.
    XCTAssertEqual(decision.level, 2)
  }

  func testAfterASeek_theThroughputRuleDecides_butAStallGetsTheLowestLevel() {
    let controller = DefaultABRController()
    var context = ABRTestLadder.context(throughput: 3_000_000, buffer: 0, current: 1)
    context.phase = .seeking
    XCTAssertEqual(
      controller.selectLevel(levels: ladder, context: context),
      ABRDecision(level: 3, reason: .throughput))
    context.phase = .stalled
    XCTAssertEqual(
      controller.selectLevel(levels: ladder, context: context),
      ABRDecision(level: 0, reason: .insufficientBuffer))
  }

  func testNearTheEnd_theBufferIsSpentOnQuality() {
    let controller = DefaultABRController()
    let open = controller.selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 1_500_000, buffer: 8, current: 2))
    let twoLeft = controller.selectLevel(
      levels: ladder,
      context: ABRTestLadder.context(throughput: 1_500_000, buffer: 8, current: 2, remaining: 2))
    let last = controller.selectLevel(
      levels: ladder,
      context: ABRTestLadder.context(throughput: 1_500_000, buffer: 8, current: 2, remaining: 0))
    XCTAssertEqual(open.level, 2)
    // Two segments at 2.5 Mbit/s take 2 × 3.7 s at 1.35 Mbit/s: within 8 s − 2 s reserve + 2 s.
    XCTAssertEqual(twoLeft, ABRDecision(level: 3, reason: .buffer))
    // The last one at 4 Mbit/s takes 5.9 s: within the 6 s the buffer gives after the reserve.
    XCTAssertEqual(last, ABRDecision(level: 4, reason: .buffer))
  }

  func testFullBuffer_stepsUpRatherThanLetTheLinkIdle_toWhatTheLinkCarries() {
    // 1.25 Mbit/s: the throughput rule keeps 600 kbit/s (0.9 × 1.25 < 1.2); the link
    // carries 1.2 Mbit/s, so a full buffer steps up to it.
    let decision = DefaultABRController().selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 1_250_000, buffer: 28, current: 1))
    XCTAssertEqual(decision, ABRDecision(level: 2, reason: .buffer))
    let short = DefaultABRController().selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 900_000, buffer: 28, current: 1))
    XCTAssertEqual(short.level, 1, "stepped up to a level the link does not carry")
  }

  func testConcurrentCalls_fromManyThreads_areSafe() {
    let controller = DefaultABRController()
    let levels = ladder
    DispatchQueue.concurrentPerform(iterations: 64) { iteration in
      let context = ABRTestLadder.context(
        throughput: Double(500_000 + iteration * 100_000), buffer: Double(iteration % 30))
      let decision = controller.selectLevel(levels: levels, context: context)
      XCTAssertTrue((0...4).contains(decision.level))
      controller.didCompleteDownload(
        CompletedDownload(
          level: decision.level, bytes: 100_000, duration: MediaTime(value: 1, timescale: 1),
          timeToFirstByte: nil, segmentDuration: MediaTime(value: 2, timescale: 1)))
    }
  }

  func testRuns_areDeterministic() {
    let first = dropSimulator().run(controller: DefaultABRController(), segments: 60)
    let second = dropSimulator().run(controller: DefaultABRController(), segments: 60)
    XCTAssertEqual(first.requestedLevels, second.requestedLevels)
    XCTAssertEqual(first.steps.map(\.requestTime), second.steps.map(\.requestTime))
  }

  func testPlaybackRate_aboveOne_isMoreCautious() {
    let controller = DefaultABRController()
    var context = ABRTestLadder.context(throughput: 3_000_000, buffer: 4, current: 3)
    let normal = controller.selectLevel(levels: ladder, context: context)
    context.playbackRate = 2
    let fast = controller.selectLevel(levels: ladder, context: context)
    XCTAssertLessThan(fast.level, normal.level)
  }

  func testConfiguration_clampsOutOfRangeValues() {
    let wild = DefaultABRController.Configuration(
      defaultBandwidthEstimate: -5, safetyFactor: 7, calmLowFraction: 0.9, calmHighFraction: 0.1,
      cautiousLowFraction: .nan, cautiousHighFraction: -1, riskyHeadroom: 20, calmHeadroom: 2,
      outageShareForCaution: 0, networkMemorySeconds: -3, overshootHorizonSeconds: 0,
      insufficientBufferFactor: 0, endgameReserveSeconds: .nan, abandonGraceSeconds: -1,
      abandonBufferShare: 3)
    let clamped = DefaultABRController(configuration: wild).configuration
    XCTAssertEqual(clamped.defaultBandwidthEstimate, 1)
    XCTAssertEqual(clamped.safetyFactor, 1)
    XCTAssertEqual(clamped.calmHighFraction, 0.9)
    XCTAssertEqual(clamped.cautiousLowFraction, 0)
    XCTAssertEqual(clamped.cautiousHighFraction, 0)
    XCTAssertEqual(clamped.calmHeadroom, 20)
    XCTAssertGreaterThan(clamped.outageShareForCaution, 0)
    XCTAssertEqual(clamped.networkMemorySeconds, 1)
    XCTAssertGreaterThan(clamped.overshootHorizonSeconds, 0)
    XCTAssertEqual(clamped.insufficientBufferFactor, 0.05)
    XCTAssertEqual(clamped.endgameReserveSeconds, 0)
    XCTAssertEqual(clamped.abandonGraceSeconds, 0)
    XCTAssertEqual(clamped.abandonBufferShare, 1)
    let deep = DefaultABRController(
      configuration: .init(deepHoldBandShare: -1, deepHoldSpeedShare: 4, deepRetrySegments: .nan)
    ).configuration
    XCTAssertEqual(deep.deepHoldBandShare, 0)
    XCTAssertEqual(deep.deepHoldSpeedShare, 1)
    XCTAssertEqual(deep.deepRetrySegments, 0)
    // A controller built from it still decides without trapping.
    let decision = DefaultABRController(configuration: wild).selectLevel(
      levels: ladder, context: ABRTestLadder.context(throughput: 2e6, buffer: 10))
    XCTAssertTrue((0...4).contains(decision.level))
  }

  func testNonNumericContextValues_areReadSafely() {
    let context = ABRContext(
      throughputBitsPerSecond: -1, lastTransferBitsPerSecond: .infinity,
      requestLatency: .invalid, bufferLevel: .indefinite, maximumBuffer: .negativeInfinity,
      currentLevel: 99, segmentDuration: .invalid, remainingContent: .positiveInfinity,
      playbackRate: .nan)
    let decision = DefaultABRController().selectLevel(levels: ladder, context: context)
    XCTAssertEqual(decision.level, 0)
  }
}
