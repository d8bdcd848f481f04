import Foundation
import Playhead
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// `PlayheadTesting` as an application uses it (docs/testing.md): only the public API of
/// `Playhead` and `PlayheadTesting`, no `@testable` import.
final class PlayheadTestingUsageTests: XCTestCase {
  private let base = URL(string: "http://sim.test/")!

  /// The documented example: the fixture ladder over a simulated 300 kbit/s link on a fast
  /// clock, a seek at clock time 4 s from a thread of the clock's, played to the end; two
  /// runs give the same events at the same clock times.
  func testSimulatedLadder_playsToTheEnd_andReplaysExactly() throws {
    let first = try playLadder()
    XCTAssertTrue(first.contains { $0.hasPrefix("didPlayToEnd ") }, "\(first)")
    XCTAssertTrue(first.contains { $0.hasPrefix("seekCompleted ") }, "\(first)")
    XCTAssertEqual(try playLadder(), first)
  }

  /// The recorder's waits report a timeout by their result, not by failing a test.
  func testRecorderWaits_returnNilOnATimeout() throws {
    let (player, recorder) = PlayerEventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    XCTAssertNotNil(recorder.waitForEvent(named: "readyToPlay"))
    // Paused: the item never ends.
    XCTAssertNil(recorder.waitForItemEnd(timeoutMs: 100))
    XCTAssertFalse(recorder.waitUntil(timeoutMs: 100) { $0.count > 1_000 })
  }

  /// A recording video sink sees every frame the player presents, in order.
  func testRecordingVideoSink_recordsThePresentedFrames() throws {
    var configuration = PlayerConfiguration.fast()
    let sink = RecordingVideoSink()
    configuration.videoSink = sink
    let (player, recorder) = PlayerEventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: configuration)
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForItemEnd()?.name, "didPlayToEnd")
    let times = sink.presentedTimes
    XCTAssertGreaterThan(times.count, 10)
    XCTAssertEqual(times, times.sorted(), "frames are presented in time order")
    XCTAssertEqual(sink.streamTimestamps.count, times.count)
  }

  /// An application runs the contract every `DataSource` must pass on a source of its own.
  func testDataSourceContract_passesOnAnApplicationsOwnSource() {
    let contract = DataSourceContract(
      fixture: .init(
        makeSource: { AppStoreDataSource(store: DataSourceContract.resources) },
        url: { URL(string: "appstore:\($0)")! }))
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  /// The contract finds a source that breaks it: one that ignores byte ranges.
  func testDataSourceContract_namesTheChecksABrokenSourceFails() {
    let contract = DataSourceContract(
      fixture: .init(
        makeSource: {
          AppStoreDataSource(store: DataSourceContract.resources, ignoresRanges: true)
        },
        url: { URL(string: "appstore:\($0)")! }))
    let failed = Set(contract.run().map(\.check))
    XCTAssertTrue(failed.contains(.byteRange), "\(failed)")
    XCTAssertTrue(failed.contains(.rangeToTheEnd), "\(failed)")
    XCTAssertFalse(failed.contains(.wholeResource), "\(failed)")
  }

  private func playLadder() throws -> [String] {
    var files: [URL: Data] = [:]
    let root = try Fixtures.directory()
    for (url, data) in try SimulatedSignedCDN.resources(["hls"], in: root, base: base) {
      files[url] = data
    }
    var configuration = PlayerConfiguration.fast()
    configuration.network = SimulatedNetwork(
      resources: files, trace: .constant(bandwidthKbps: 300, latencyMs: 40),
      clock: configuration.clock)
    // Set up as one of the clock's workers, so that the player starts at clock time 0
    // with the recorder and the seek thread in place, the same way every run.
    let clock = configuration.clock
    let (player, recorder) = clock.runAsWorker {
      let (player, recorder) = PlayerEventRecorder.recordingPlayer(
        url: base.appendingPathComponent("hls/master.m3u8"), configuration: configuration)
      clock.startThread(named: "test.seek") {
        clock.wait(until: MediaTime(value: 4, timescale: 1), orUntil: WakeSignal())
        player.seek(to: MediaTime(value: 1, timescale: 1))
      }
      player.play()
      return (player, recorder)
    }
    defer { player.close() }
    XCTAssertNotNil(recorder.waitForItemEnd(), "the player hung: \(recorder.names)")
    player.close()
    recorder.queue.sync {}
    return recorder.events.map { event in
      "\(event.name) \(Int64((event.clockTime.seconds * 1e6).rounded()))"
    }
  }
}

/// A data source an application might write: it serves the resources of its own store
/// (path → bytes) under `appstore:PATH` URLs. `ignoresRanges` breaks it on purpose.
private final class AppStoreDataSource: DataSource, Sendable {
  private let store: [String: Data]
  private let ignoresRanges: Bool
  private let state = Locked<(cancelled: Bool, remaining: Data?)>((false, nil))

  init(store: [String: Data], ignoresRanges: Bool = false) {
    self.store = store
    self.ignoresRanges = ignoresRanges
  }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    if state.value.cancelled { throw PlayheadError.sourceCancelled(request.url) }
    let path = request.url.absoluteString.dropFirst("appstore:".count)
    guard let bytes = store[String(path)] else {
      throw PlayheadError(.fileNotFound, "nothing in the store at \(path)", url: request.url)
    }
    let total = Int64(bytes.count)
    var wanted = bytes
    if let range = request.range, !ignoresRanges {
      guard range.offset < total || range.length == 0 else {
        throw PlayheadError(.invalidArgument, "range past the end of \(path)", url: request.url)
      }
      let start = Int(min(range.offset, total))
      let end = Int(min(range.end ?? total, total))
      wanted = bytes.subdata(in: start..<max(start, end))
    }
    state.withLock { $0.remaining = wanted }
    return DataResponseHead(url: request.url, length: Int64(wanted.count), totalLength: total)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    try state.withLock { (state) throws(PlayheadError) -> Int in
      if state.cancelled { throw PlayheadError.sourceCancelled(nil) }
      guard let remaining = state.remaining else { throw PlayheadError.notOpen(nil) }
      // Foundation traps copying into a buffer without memory (the contract reads into one).
      guard !buffer.isEmpty else { return 0 }
      let count = remaining.copyBytes(to: buffer)
      state.remaining = remaining.dropFirst(count)
      return count
    }
  }

  func close() { state.withLock { $0.remaining = nil } }

  func cancel() { state.withLock { $0.cancelled = true } }
}
