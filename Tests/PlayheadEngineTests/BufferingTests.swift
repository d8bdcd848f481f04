import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// Buffering that means what the API says (decision 0025), through the public API on a
/// driven clock over a simulated network: loaded time ranges count what is downloaded
/// ahead, playback starts at the load control's startup buffer and resumes after a stall
/// at its buffer after a rebuffer, every player has a `DefaultLoadControl`,
/// `preferredForwardBufferDuration` is the forward target, the buffer is full at the
/// high-water mark, and nothing loads past the forward end.
final class BufferingTests: XCTestCase {
  /// Slack for comparisons of media times that went through a frame's timestamp.
  private let slack = 0.05

  private func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }

  /// A fast link: a 0.5 s part (about 76 kbit) takes about 25 ms.
  private let fastLink = NetworkTrace.constant(bandwidthKbps: 4_000, latencyMs: 5)

  // MARK: Start and resume

  func testSceneLong_startsOnceTheStartupBufferIsLoaded_andResumesAtTheRebufferLevel() throws {
    // 120 kbit/s carries the 150 kbit/s media slower than it plays: stalls follow.
    let run = try FineCutRun(
      cycles: 1, trace: .constant(bandwidthKbps: 120, latencyMs: 20),
      configure: { $0.scene = .long })
    defer { run.close() }
    run.playToEnd()
    XCTAssertEqual(run.recorder.waitForEnd()?.name, "didPlayToEnd", "\(run.recorder.names)")
    let first = try XCTUnwrap(run.sink.samples.first, "no frame shown")
    XCTAssertGreaterThanOrEqual(
      first.aheadSeconds + slack, 1.5, "the first frame came before the 1.5 s startup buffer")
    XCTAssertLessThan(first.aheadSeconds, 2.5, "the start waited far past the startup buffer")
    let recoveries = run.recoveryTimes.filter { $0.seconds < run.stream.durationSeconds - 3 }
    XCTAssertFalse(recoveries.isEmpty, "the slow link never stalled: \(run.recorder.names)")
    for time in recoveries {
      let sample = try XCTUnwrap(run.sink.firstSample(atOrAfter: time))
      XCTAssertGreaterThanOrEqual(
        sample.aheadSeconds + slack, 3, "resumed at \(time.seconds) s with less than 3 s ahead")
    }
    XCTAssertTrue(first.isLikelyToKeepUp)
  }

  func testCustomLoadControl_decidesTheStart() throws {
    let control = CountingLoadControl(startupSeconds: 2)
    let run = try FineCutRun(
      cycles: 1, trace: .constant(bandwidthKbps: 300, latencyMs: 20),
      configure: { $0.makeLoadControl = { control } })
    defer { run.close() }
    run.playToEnd()
    XCTAssertEqual(run.recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertGreaterThan(control.startQuestions, 0, "the player never asked the load control")
    XCTAssertGreaterThan(control.loadQuestions, 0, "the downloader never asked the load control")
    let first = try XCTUnwrap(run.sink.samples.first)
    XCTAssertGreaterThanOrEqual(first.aheadSeconds + slack, 2)
  }

  func testShortMedia_startsOnceAllOfItIsLoaded_thoughTheStartupBufferIsLonger() throws {
    // A startup buffer of 30 s with the optimiser off: the 12 s item can never hold it.
    let run = try FineCutRun(
      cycles: 1, trace: fastLink,
      configure: {
        $0.bufferSettings = BufferSettings(
          startupBuffer: self.seconds(30), optimizer: BufferOptimizer.none)
      })
    defer { run.close() }
    run.playToEnd()
    XCTAssertEqual(run.recorder.waitForEnd()?.name, "didPlayToEnd", "\(run.recorder.names)")
    let first = try XCTUnwrap(run.sink.samples.first)
    XCTAssertEqual(
      first.aheadSeconds + first.itemTime.seconds, 12, accuracy: 0.001,
      "started before the end was loaded")
  }

  func testLocalFile_isLoadedWhole_andStartsAtOnce() throws {
    var configuration = PlayerConfiguration.fast()
    configuration.scene = .long
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    let (player, recorder) = EventRecorder.recordingPlayer(item, configuration: configuration)
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    recorder.waitFor("the whole file loaded") { _ in
      item.loadedTimeRanges == [MediaTimeRange(start: .zero, end: item.duration)]
    }
    XCTAssertTrue(item.isPlaybackBufferFull)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
  }

  // MARK: Loaded time ranges

  func testPlainPlayer_fastLink_loadsAheadToTheDefaultTarget_longBeforeRealTime() throws {
    let run = try FineCutRun(cycles: 3, trace: fastLink)
    defer { run.close() }
    run.playToEnd()
    XCTAssertEqual(run.recorder.waitForEnd()?.name, "didPlayToEnd")
    let samples = run.sink.samples
    // The default load control (scene `.none`): a target of 10 s growing by 0.5 s per
    // second watched; loading stops at the target, one part past it at most.
    let early = samples.filter { $0.itemTime.seconds < 2 }
    XCTAssertGreaterThanOrEqual(
      early.map(\.aheadSeconds).max() ?? 0, 10 - FineCutStream.partSeconds,
      "within 2 s of playing, the fast link had not loaded 10 s ahead")
    for sample in samples {
      let target = min(50, 10 + 0.5 * sample.itemTime.seconds)
      XCTAssertLessThanOrEqual(
        sample.aheadSeconds, target + FineCutStream.partSeconds + slack,
        "at \(sample.itemTime.seconds) s: loaded past the target")
    }
    XCTAssertTrue(samples.contains { $0.isFull }, "the buffer was never full")
    XCTAssertTrue(run.recorder.names.contains("playbackBufferFull"))
  }

  func testPreferredForwardBufferDuration_keepsTheBufferAheadWithinItPlusOnePart() throws {
    let run = try FineCutRun(
      cycles: 2, trace: fastLink,
      prepare: { $0.preferredForwardBufferDuration = MediaTime(value: 4, timescale: 1) })
    defer { run.close() }
    run.playToEnd()
    XCTAssertEqual(run.recorder.waitForEnd()?.name, "didPlayToEnd")
    let samples = run.sink.samples
    let most = samples.map(\.aheadSeconds).max() ?? 0
    XCTAssertLessThanOrEqual(most, 4 + FineCutStream.partSeconds + slack)
    XCTAssertGreaterThanOrEqual(most, 4 - slack, "the target was never reached")
    XCTAssertTrue(samples.contains { $0.isFull }, "the buffer was never full at the target")
  }

  func testBufferFull_atTheHighWaterMark() throws {
    let run = try FineCutRun(
      cycles: 2, trace: fastLink,
      configure: {
        $0.bufferSettings = BufferSettings(
          lowWaterMark: self.seconds(6), highWaterMark: self.seconds(6),
          maximumBuffer: self.seconds(8), optimizer: BufferOptimizer.none)
      })
    defer { run.close() }
    run.playToEnd()
    XCTAssertEqual(run.recorder.waitForEnd()?.name, "didPlayToEnd")
    let samples = run.sink.samples
    let full = samples.filter(\.isFull).filter {
      $0.itemTime.seconds < run.stream.durationSeconds - 7
    }
    XCTAssertFalse(full.isEmpty, "never full before the end was loaded")
    for sample in full {
      XCTAssertGreaterThanOrEqual(
        sample.aheadSeconds, 6 - 0.2, "full at \(sample.itemTime.seconds) s below the mark")
    }
    XCTAssertFalse(try XCTUnwrap(samples.first).isFull, "full before the mark was reached")
    XCTAssertLessThanOrEqual(
      samples.map(\.aheadSeconds).max() ?? 0, 6 + FineCutStream.partSeconds + slack)
    XCTAssertTrue(run.recorder.names.contains("playbackBufferFull"))
    XCTAssertTrue(run.recorder.names.contains("playbackBufferNotFull"))
  }

  func testSeek_withoutACache_theRangeStartsAtTheSeek() throws {
    let run = try seekRun(cache: nil)
    defer { run.close() }
    let after = try XCTUnwrap(run.sink.firstSample(atOrAfter: seconds(16)))
    XCTAssertEqual(after.ranges.count, 1, "\(after.ranges)")
    XCTAssertEqual(after.ranges.first?.start.seconds ?? -1, 15, accuracy: slack)
  }

  func testSeek_withADiskCache_givesDiscontiguousRanges() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "buffering-cache-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let cache = try MediaCache.open(directory: folder)
    let run = try seekRun(cache: cache)
    defer { run.close() }
    let after = try XCTUnwrap(run.sink.firstSample(atOrAfter: seconds(16)))
    XCTAssertEqual(after.ranges.count, 2, "\(after.ranges)")
    let cached = try XCTUnwrap(after.ranges.first)
    XCTAssertEqual(cached.start.seconds, 0, accuracy: slack)
    XCTAssertGreaterThanOrEqual(cached.end.seconds, 3, "what was played before the seek")
    XCTAssertLessThan(cached.end.seconds, 15)
    XCTAssertEqual(after.ranges.last?.start.seconds ?? -1, 15, accuracy: slack)
  }

  /// Plays two cycles with a 4 s forward target, seeks from 3 s to 15 s, plays to the end.
  private func seekRun(cache: MediaCache?) throws -> FineCutRun {
    let run = try FineCutRun(
      cycles: 2, trace: fastLink, configure: { $0.cache = cache },
      prepare: { $0.preferredForwardBufferDuration = MediaTime(value: 4, timescale: 1) })
    let sought = Locked(false)
    let player = run.player
    _ = player.addBoundaryTimeObserver(
      forTimes: [MediaTime(value: 3, timescale: 1)], queue: .global()
    ) {
      guard !sought.withLock({ $0 }) else { return }
      sought.withLock { $0 = true }
      player.seek(to: MediaTime(value: 15, timescale: 1))
    }
    run.playToEnd()
    XCTAssertTrue(sought.withLock { $0 })
    XCTAssertEqual(run.recorder.waitForEnd()?.name, "didPlayToEnd")
    return run
  }

  func testForwardEnd_nothingAtOrAfterItIsRequested() throws {
    let run = try FineCutRun(
      cycles: 2, trace: fastLink,
      prepare: { $0.forwardPlaybackEndTime = MediaTime(value: 5, timescale: 1) })
    defer { run.close() }
    run.playToEnd()
    XCTAssertEqual(run.recorder.waitForEnd()?.name, "didPlayToEnd", "\(run.recorder.names)")
    XCTAssertEqual(run.player.currentTime().seconds, 5, accuracy: 0.001)
    let starts = run.requestedPartStarts
    XCTAssertFalse(starts.isEmpty)
    XCTAssertTrue(starts.allSatisfy { $0 < 5 }, "requested past the forward end: \(starts)")
    XCTAssertEqual(starts.max() ?? 0, 4.5, "the part before the forward end was not loaded")
  }

  // MARK: Progressive media

  func testProgressiveHTTP_bytesReadAheadCountAsLoaded() throws {
    let data = try Data(contentsOf: try Fixtures.url("sample-h264-aac.mp4"))
    let server = HTTPTestServer(files: ["/clip.mp4": data])
    try server.start()
    defer { server.stop() }
    let item = PlayerItem(url: server.url("/clip.mp4"))
    let (player, recorder) = EventRecorder.recordingPlayer(
      item, configuration: PlayerConfiguration())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    // Paused: the decoder holds a few frames; the HTTP source reads the small file ahead.
    recorder.waitFor("the file loaded ahead") { _ in
      let end = item.loadedTimeRanges.last?.end ?? .zero
      return item.duration.isNumeric && end + MediaTime(value: 1, timescale: 100) >= item.duration
    }
    XCTAssertEqual(item.loadedTimeRanges.count, 1)
    XCTAssertEqual(item.loadedTimeRanges.first?.start, .zero)
    // With frames decoded and the rest of the file loaded, playback could start.
    recorder.waitFor(event: "playbackLikelyToKeepUp")
    XCTAssertLessThan(item.statistics.framesDecoded, 60, "decoding ran ahead while paused")
    XCTAssertEqual(item.loadedTimeRanges.last?.end, item.duration)
  }
}

/// A load control that starts once `startupSeconds` are loaded and counts its questions.
private final class CountingLoadControl: LoadControl, @unchecked Sendable {
  private let lock = NSLock()
  private let startup: MediaTime
  private var starts = 0
  private var loads = 0

  init(startupSeconds: Double) {
    startup = MediaTime(seconds: startupSeconds, preferredTimescale: 1000)
  }

  var startQuestions: Int { lock.withLock { starts } }
  var loadQuestions: Int { lock.withLock { loads } }

  var targetBuffer: MediaTime { MediaTime(value: 10, timescale: 1) }

  func shouldContinueLoading(
    bufferedAhead: MediaTime, playbackElapsed: MediaTime, isPlaying: Bool
  ) -> Bool {
    lock.withLock { loads += 1 }
    return bufferedAhead < targetBuffer
  }

  func shouldStartPlayback(bufferedAhead: MediaTime, isAfterRebuffer: Bool) -> Bool {
    lock.withLock { starts += 1 }
    return bufferedAhead >= startup
  }

  func playbackDidProgress(elapsed: MediaTime) {}
  func reset() {}
}

extension BufferingTests {
  // MARK: Buffer full, with hysteresis

  func testBufferFullEvents_comeOncePerRefill_notBackAndForth() throws {
    // A plain player: the optimiser's stop level starts at 10 s and grows, below the
    // 40 s low-water mark, so loading resumes below 80 % of it (40 / 50).
    let run = try FineCutRun(cycles: 3, trace: fastLink)
    defer { run.close() }
    run.playToEnd()
    XCTAssertEqual(run.recorder.waitForEnd()?.name, "didPlayToEnd")
    let changes = run.recorder.events.filter {
      $0.name == "playbackBufferFull" || $0.name == "playbackBufferNotFull"
    }
    XCTAssertEqual(changes.first?.name, "playbackBufferFull")
    for (full, notFull) in zip(changes, changes.dropFirst()) where full.name == "playbackBufferFull"
    {
      XCTAssertEqual(notFull.name, "playbackBufferNotFull")
      // Resting from the stop level S to 0.8 S while S grows by 0.5 s per second takes
      // 0.2 S / 1.5 s of play: at least 1.3 s with S ≥ 10 s.
      XCTAssertGreaterThanOrEqual(
        (notFull.itemTime - full.itemTime).seconds, 1.3,
        "the buffer was full at \(full.itemTime.seconds) s and not full again at "
          + "\(notFull.itemTime.seconds) s")
      let sample = try XCTUnwrap(
        run.sink.samples.last { $0.itemTime <= notFull.itemTime }, "no frame before resuming")
      let stop = min(50, 10 + 0.5 * sample.itemTime.seconds)
      XCTAssertLessThan(
        sample.aheadSeconds, 0.8 * stop + slack,
        "loading resumed at \(sample.itemTime.seconds) s with \(sample.aheadSeconds) s ahead")
    }
    XCTAssertLessThanOrEqual(
      changes.count, Int(run.stream.durationSeconds), "\(changes.count) full/not-full changes")
  }
}
