import PlayheadCore
import PlayheadEngine
import XCTest

final class LoadControlTests: XCTestCase {
  private func s(_ seconds: Double) -> MediaTime {
    MediaTime(seconds: seconds, preferredTimescale: 1000)
  }

  /// Explicit values with the optimiser off, so that each test sees only what it sets.
  private func control(
    startup: Double = 1, afterRebuffer: Double = 3, low: Double = 20, high: Double = 30,
    maximum: Double = 40, optimizer: BufferOptimizer = .none
  ) -> DefaultLoadControl {
    DefaultLoadControl(
      settings: BufferSettings(
        startupBuffer: s(startup), bufferAfterRebuffer: s(afterRebuffer), lowWaterMark: s(low),
        highWaterMark: s(high), maximumBuffer: s(maximum), optimizer: optimizer))
  }

  private func loads(
    _ control: LoadControl, _ buffered: Double, watched: Double = 0, playing: Bool = true,
    chunk: Double = 0
  ) -> Bool {
    control.shouldContinueLoading(
      bufferedAhead: s(buffered), nextChunkDuration: s(chunk), playbackElapsed: s(watched),
      isPlaying: playing)
  }

  func testStartupBuffer_startsPlaybackOnceItIsHeld() {
    let control = control(startup: 2.5)
    XCTAssertFalse(control.shouldStartPlayback(bufferedAhead: s(2.4), isAfterRebuffer: false))
    XCTAssertTrue(control.shouldStartPlayback(bufferedAhead: s(2.5), isAfterRebuffer: false))
  }

  func testAfterAStall_playbackResumesAtTheRebufferThreshold() {
    let control = control(startup: 0.5, afterRebuffer: 4)
    XCTAssertFalse(control.shouldStartPlayback(bufferedAhead: s(3.9), isAfterRebuffer: true))
    XCTAssertTrue(control.shouldStartPlayback(bufferedAhead: s(4), isAfterRebuffer: true))
  }

  func testLoading_stopsAtTheHighWaterMark_andResumesBelowTheLowWaterMark() {
    let control = control(low: 20, high: 30)
    XCTAssertTrue(loads(control, 10))
    XCTAssertTrue(loads(control, 29.9))
    XCTAssertFalse(loads(control, 30))
    XCTAssertFalse(loads(control, 25), "between the marks, a pause continues")
    XCTAssertFalse(loads(control, 20))
    XCTAssertTrue(loads(control, 19.9))
    XCTAssertTrue(loads(control, 25), "between the marks, loading continues")
  }

  func testMaximumBuffer_refusesAChunkThatWouldOvershootIt() {
    let control = control(low: 40, high: 40, maximum: 40)
    XCTAssertTrue(loads(control, 34, chunk: 6))
    XCTAssertFalse(loads(control, 34.1, chunk: 6))
    XCTAssertTrue(loads(control, 0, chunk: 60), "an empty buffer always takes the next chunk")
    XCTAssertTrue(loads(control, 33, chunk: 6))
  }

  func testProtocolDefault_ignoresTheChunkSize() {
    final class Always: LoadControl {
      var targetBuffer: MediaTime { .zero }
      func shouldContinueLoading(
        bufferedAhead: MediaTime, playbackElapsed: MediaTime, isPlaying: Bool
      ) -> Bool { bufferedAhead < MediaTime(value: 10, timescale: 1) }
      func shouldStartPlayback(bufferedAhead: MediaTime, isAfterRebuffer: Bool) -> Bool { true }
      func playbackDidProgress(elapsed: MediaTime) {}
      func reset() {}
    }
    XCTAssertTrue(loads(Always(), 9, chunk: 100))
    XCTAssertFalse(loads(Always(), 10, chunk: 0))
  }

  func testWhileNotPlaying_loadingContinuesUntilPlaybackCanStart() {
    let control = control(startup: 5, low: 4, high: 30)
    XCTAssertFalse(loads(control, 30))
    // Paused by the hysteresis, but playback needs 5 s to start: loading continues.
    XCTAssertTrue(loads(control, 4.5, playing: false))
    XCTAssertFalse(loads(control, 30, playing: false))
  }

  func testOptimizer_startsSmall_growsWithWatchTime_andStopsAtItsMaximum() {
    let optimizer = BufferOptimizer(
      method: .default, minimumDurationSeconds: 5, maximumDurationSeconds: 20,
      growthPerWatchedSecond: 0.5)
    let control = control(low: 60, high: 60, maximum: 60, optimizer: optimizer)
    XCTAssertEqual(control.targetBuffer.seconds, 5, accuracy: 1e-9)
    XCTAssertFalse(loads(control, 5, watched: 0))
    control.playbackDidProgress(elapsed: s(10))
    XCTAssertEqual(control.targetBuffer.seconds, 10, accuracy: 1e-9)
    XCTAssertTrue(loads(control, 5, watched: 10))
    XCTAssertFalse(loads(control, 10, watched: 10))
    XCTAssertEqual(optimizer.sizeSeconds(afterWatching: 1_000), 20)
    control.playbackDidProgress(elapsed: s(1_000))
    XCTAssertEqual(control.targetBuffer.seconds, 20, accuracy: 1e-9)
  }

  func testOptimizerBelowTheLowWaterMark_resumesAtTheSameShareOfTheStopLevel() {
    let optimizer = BufferOptimizer(
      method: .default, minimumDurationSeconds: 10, maximumDurationSeconds: 50,
      growthPerWatchedSecond: 0)
    let control = control(low: 40, high: 50, maximum: 50, optimizer: optimizer)
    XCTAssertFalse(loads(control, 10))
    XCTAssertFalse(loads(control, 9.9), "resumed as soon as the buffer fell under the stop level")
    XCTAssertFalse(loads(control, 8))
    XCTAssertTrue(loads(control, 7.9), "40 / 50 of the 10 s stop level is 8 s")
    XCTAssertTrue(loads(control, 9.9))
    XCTAssertFalse(loads(control, 10))
  }

  func testOptimizer_isCappedByTheHighWaterMark() {
    let optimizer = BufferOptimizer(minimumDurationSeconds: 10, maximumDurationSeconds: 50)
    let control = control(high: 30, optimizer: optimizer)
    control.playbackDidProgress(elapsed: s(10_000))
    XCTAssertEqual(control.targetBuffer.seconds, 30, accuracy: 1e-9)
  }

  func testOptimizerNone_handsTheSizeToTheEngineDefault() {
    let control = control(high: 30, optimizer: .none)
    XCTAssertEqual(control.targetBuffer.seconds, 30, accuracy: 1e-9)
    XCTAssertNil(BufferOptimizer.none.sizeSeconds(afterWatching: 100))
  }

  func testOptimizer_clampsItsDurationsToAtLeastOneSecond() {
    let tiny = BufferOptimizer(minimumDurationSeconds: 0.2, maximumDurationSeconds: -4)
    XCTAssertEqual(tiny.minimumDurationSeconds, 1)
    XCTAssertEqual(tiny.maximumDurationSeconds, 1)
    let inverted = BufferOptimizer(minimumDurationSeconds: 12, maximumDurationSeconds: 3)
    XCTAssertEqual(inverted.maximumDurationSeconds, 12)
    let odd = BufferOptimizer(
      minimumDurationSeconds: .nan, maximumDurationSeconds: .infinity, growthPerWatchedSecond: -1)
    XCTAssertEqual(odd.minimumDurationSeconds, 1)
    XCTAssertEqual(odd.maximumDurationSeconds, 1e6)
    XCTAssertEqual(odd.growthPerWatchedSecond, 0)
    XCTAssertEqual(odd.sizeSeconds(afterWatching: .nan), 1)
  }

  func testWatchTime_neverGoesBack_andResetForgetsIt() {
    let optimizer = BufferOptimizer(minimumDurationSeconds: 5, maximumDurationSeconds: 40)
    let control = control(low: 60, high: 60, maximum: 60, optimizer: optimizer)
    control.playbackDidProgress(elapsed: s(20))
    control.playbackDidProgress(elapsed: s(2))
    XCTAssertEqual(control.targetBuffer.seconds, 15, accuracy: 1e-9)
    control.reset()
    XCTAssertEqual(control.targetBuffer.seconds, 5, accuracy: 1e-9)
  }

  func testScenePresets_haveTheDocumentedValues() {
    let expected: [(PlayerScene, [Double], (Double, Double)?)] = [
      (.none, [0.5, 3, 40, 50, 50], (10, 50)),
      (.short, [0.5, 1.5, 10, 15, 20], (4, 15)),
      (.medium, [1, 2.5, 20, 30, 40], (8, 30)),
      (.long, [1.5, 3, 45, 60, 90], (10, 60)),
      (.live, [1, 2, 6, 10, 15], nil),
    ]
    for (scene, values, optimizer) in expected {
      let p = scene.parameters
      let actual = [
        p.startupBuffer, p.bufferAfterRebuffer, p.lowWaterMark, p.highWaterMark, p.maximumBuffer,
      ]
      .map(\.seconds)
      XCTAssertEqual(actual, values, "\(scene)")
      if let (minimum, maximum) = optimizer {
        XCTAssertEqual(p.optimizer.method, .default)
        XCTAssertEqual(p.optimizer.minimumDurationSeconds, minimum)
        XCTAssertEqual(p.optimizer.maximumDurationSeconds, maximum)
      } else {
        XCTAssertEqual(p.optimizer.method, .none)
      }
    }
    XCTAssertEqual(PlayerScene.allCases.count, 5)
  }

  func testExplicitSettings_winOverTheScene_whicheverIsSetFirst() {
    let settings = BufferSettings(startupBuffer: s(0.2), highWaterMark: s(12))
    let control = DefaultLoadControl(scene: .long, settings: settings)
    XCTAssertEqual(control.parameters.startupBuffer.seconds, 0.2, accuracy: 1e-9)
    XCTAssertEqual(control.parameters.highWaterMark.seconds, 12, accuracy: 1e-9)
    XCTAssertEqual(control.parameters.bufferAfterRebuffer.seconds, 3, accuracy: 1e-9)
    control.setScene(.short)
    XCTAssertEqual(control.parameters.startupBuffer.seconds, 0.2, accuracy: 1e-9)
    XCTAssertEqual(control.parameters.highWaterMark.seconds, 12, accuracy: 1e-9)
    XCTAssertEqual(control.parameters.bufferAfterRebuffer.seconds, 1.5, accuracy: 1e-9)
    XCTAssertEqual(control.parameters.lowWaterMark.seconds, 10, accuracy: 1e-9)
    control.setSettings(BufferSettings())
    XCTAssertEqual(control.parameters, PlayerScene.short.parameters)
  }

  func testAnExplicitHighWaterMark_raisesTheScenesMaximum() {
    let resolved = BufferSettings(highWaterMark: s(45)).resolved(for: .short)
    XCTAssertEqual(resolved.highWaterMark.seconds, 45, accuracy: 1e-9)
    XCTAssertEqual(resolved.maximumBuffer.seconds, 45, accuracy: 1e-9)
    let startup = BufferSettings(startupBuffer: s(18)).resolved(for: .short)
    XCTAssertEqual(startup.startupBuffer.seconds, 18, accuracy: 1e-9)
    XCTAssertEqual(startup.highWaterMark.seconds, 18, accuracy: 1e-9)
    let maximum = BufferSettings(maximumBuffer: s(8)).resolved(for: .long)
    XCTAssertEqual(maximum.highWaterMark.seconds, 8, accuracy: 1e-9)
    XCTAssertEqual(maximum.lowWaterMark.seconds, 8, accuracy: 1e-9)
  }

  func testParameters_areMadeConsistent() {
    let p = LoadControlParameters(
      startupBuffer: s(90), bufferAfterRebuffer: .invalid, lowWaterMark: s(-5),
      highWaterMark: s(70), maximumBuffer: s(0.2), optimizer: .none)
    XCTAssertEqual(p.maximumBuffer.seconds, 1, accuracy: 1e-9)
    XCTAssertEqual(p.highWaterMark.seconds, 1, accuracy: 1e-9)
    XCTAssertEqual(p.startupBuffer.seconds, 1, accuracy: 1e-9)
    XCTAssertEqual(p.bufferAfterRebuffer, .zero)
    XCTAssertEqual(p.lowWaterMark, .zero)
  }

  func testNonNumericExplicitValues_takeTheScenesValue() {
    let resolved = BufferSettings(startupBuffer: .indefinite, maximumBuffer: .positiveInfinity)
      .resolved(for: .medium)
    XCTAssertEqual(resolved.startupBuffer.seconds, 1, accuracy: 1e-9)
    XCTAssertEqual(resolved.maximumBuffer.seconds, 40, accuracy: 1e-9)
  }

  func testNonNumericBufferedAmounts_countAsEmpty() {
    let control = control()
    XCTAssertTrue(
      control.shouldContinueLoading(
        bufferedAhead: .invalid, playbackElapsed: .indefinite, isPlaying: true))
    XCTAssertFalse(control.shouldStartPlayback(bufferedAhead: .invalid, isAfterRebuffer: false))
  }

  func testDefaultScene_usesTheOptimiserByDefault() {
    let control = DefaultLoadControl()
    XCTAssertEqual(control.parameters.optimizer.method, .default)
    XCTAssertEqual(control.targetBuffer.seconds, 10, accuracy: 1e-9)
    XCTAssertTrue(loads(control, 9.9))
    XCTAssertFalse(loads(control, 10))
  }
}
