import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Whole loads (`DataLoader`) over `HTTPDataSource`: requests, headers, ranges, progress and
/// timestamps, against the test server.
final class HTTPDataSourceTests: XCTestCase {
  private let data = generatedBytes(count: 300_000)

  private func startServer(faults: [String: HTTPTestServer.Fault] = [:]) throws -> HTTPTestServer {
    try startServer(["/media.bin": data], faults: faults)
  }

  /// A loader over HTTP sources that share one session.
  private func loader(
    _ configuration: RequestConfiguration = .init(), clock: any Clock = HostClock.shared
  ) -> DataLoader {
    DataLoader(factory: HTTPDataSourceFactory(configuration: configuration), clock: clock)
  }

  func testLoad_sendsConfiguredHeadersRefererAndUserAgent() throws {
    let server = try startServer()
    let configuration = RequestConfiguration(
      headers: ["X-Token": "abc", "user-agent": "ignored", "Referer": "ignored too"],
      referer: "https://app.example/page", userAgent: "PlayheadTest/1.0")
    let response = try loader(configuration).load(DataRequest(url: server.url("/media.bin")))
    XCTAssertEqual(response.data, data)
    XCTAssertEqual(response.statusCode, 200)
    let logged = try XCTUnwrap(server.requests.last)
    XCTAssertEqual(logged.headers["x-token"], "abc")
    XCTAssertEqual(logged.headers["referer"], "https://app.example/page")
    XCTAssertEqual(logged.headers["user-agent"], "PlayheadTest/1.0")
    XCTAssertEqual(logged.headers["accept-encoding"], "identity")
    XCTAssertNil(logged.range)
  }

  func testLoad_byteRange_sendsARangeHeaderAndReturns206() throws {
    let server = try startServer()
    let source = loader()
    let response = try source.load(
      DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 1_000, length: 500)))
    XCTAssertEqual(response.data, data.subdata(in: 1_000..<1_500))
    XCTAssertEqual(response.statusCode, 206)
    XCTAssertEqual(server.requests.last?.range, "bytes=1000-1499")
    _ = try source.load(
      DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 7, length: nil)))
    XCTAssertEqual(server.requests.last?.range, "bytes=7-")
  }

  func testLoad_serverIgnoringRange_keepsOnlyTheWantedBytes() throws {
    let server = try startServer(faults: ["/media.bin": .ignoreRange])
    let source = loader()
    let middle = try source.load(
      DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 100_000, length: 2_000)))
    XCTAssertEqual(middle.data, data.subdata(in: 100_000..<102_000))
    XCTAssertEqual(middle.statusCode, 200)
    let tail = try source.load(
      DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 299_000, length: nil)))
    XCTAssertEqual(tail.data, data.subdata(in: 299_000..<300_000))
    let past = playheadError { () throws(PlayheadError) in
      try source.load(
        DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 400_000, length: 1)))
    }
    XCTAssertEqual(past?.code, .httpStatus)
    XCTAssertEqual(past?.httpStatusCode, 416)
  }

  func testLoad_rangePastTheEnd_throwsHTTPStatus416() throws {
    let server = try startServer()
    let error = playheadError { () throws(PlayheadError) in
      try self.loader().load(
        DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 300_000, length: 10)))
    }
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 416)
  }

  func testLoad_nonHTTPScheme_throwsUnsupportedScheme() {
    let error = playheadError { () throws(PlayheadError) in
      try self.loader().load(DataRequest(url: URL(fileURLWithPath: "/tmp/x.bin")))
    }
    XCTAssertEqual(error?.code, .unsupportedScheme)
  }

  func testLoad_onAManualClock_timestampsWithThatClock() throws {
    let server = try startServer()
    let clock = ManualClock(start: MediaTime(seconds: 100, preferredTimescale: 1))
    let recorder = ProgressRecorder()
    let response = try loader(clock: clock).load(
      DataRequest(url: server.url("/media.bin")), progress: recorder.callback)
    XCTAssertEqual(response.startClock, MediaTime(seconds: 100, preferredTimescale: 1))
    XCTAssertEqual(response.endClock, response.startClock)
    XCTAssertEqual(response.duration, .zero)
    XCTAssertFalse(recorder.reports.isEmpty)
    XCTAssertTrue(recorder.reports.allSatisfy { $0.elapsed == .zero })
    XCTAssertEqual(recorder.reports.last?.bytesExpected, data.count)
  }

  func testLoad_slowServer_reportsProgressSeveralTimes() throws {
    let server = try startServer(faults: ["/media.bin": .slow(bytesPerSecond: 400_000)])
    let recorder = ProgressRecorder()
    let response = try loader().load(
      DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 0, length: 100_000)),
      progress: recorder.callback)
    XCTAssertEqual(response.data, data.subdata(in: 0..<100_000))
    // 100 KB at 400 KB/s arrive in 50 timed writes, so progress comes in several steps.
    XCTAssertGreaterThan(recorder.reports.count, 3)
    XCTAssertEqual(recorder.reports.last?.bytesLoaded, 100_000)
    XCTAssertGreaterThan(response.duration, .zero)
  }

  func testLoad_abandonedWhileSlow_throwsCancelledAndStopsTheRequest() throws {
    let server = try startServer(faults: ["/media.bin": .slow(bytesPerSecond: 20_000)])
    let recorder = ProgressRecorder { $0.bytesLoaded >= 1_000 ? false : true }
    let error = playheadError { () throws(PlayheadError) in
      try self.loader().load(
        DataRequest(url: server.url("/media.bin")), progress: recorder.callback)
    }
    XCTAssertEqual(error?.code, .cancelled)
    XCTAssertTrue(error?.message.hasPrefix("load abandoned after") ?? false)
    XCTAssertLessThan(recorder.reports.last?.bytesLoaded ?? .max, data.count)
  }

  func testLoad_concurrentLoadsOnOneLoader_eachGetTheirBytes() throws {
    let server = try startServer()
    let source = loader()
    let url = server.url("/media.bin")
    var runs: [(XCTestExpectation, LockedBox<Result<DataResponse, PlayheadError>?>)] = []
    for index in 0..<6 {
      let range = ByteRange(offset: Int64(index * 40_000), length: 30_000)
      runs.append(
        runInBackground("load \(index)") { try source.load(DataRequest(url: url, range: range)) })
    }
    wait(for: runs.map(\.0), timeout: 20)
    for (index, run) in runs.enumerated() {
      let start = index * 40_000
      XCTAssertEqual(try run.1.value?.get().data, data.subdata(in: start..<(start + 30_000)))
    }
  }

  func testLoad_ofAnEmptyResource_isEmpty() throws {
    let server = try startServer()
    server.setFile(Data(), at: "/empty.bin")
    let response = try loader().load(DataRequest(url: server.url("/empty.bin")))
    XCTAssertEqual(response.data, Data())
    XCTAssertEqual(response.totalLength, 0)
    XCTAssertEqual(response.statusCode, 200)
  }
}
