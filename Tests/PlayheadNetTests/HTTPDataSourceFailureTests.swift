import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Statuses, timeouts, broken connections and cancellation of whole loads (`DataLoader`)
/// over `HTTPDataSource`, using the test server's faults.
final class HTTPDataSourceFailureTests: XCTestCase {
  private let data = generatedBytes(count: 300_000)

  private func startServer(faults: [String: HTTPTestServer.Fault] = [:]) throws -> HTTPTestServer {
    try startServer(["/media.bin": data], faults: faults)
  }

  private func loader(timeoutMs: Int = 10_000, listener: RecordingListener? = nil) -> DataLoader {
    DataLoader(
      factory: HTTPDataSourceFactory(configuration: RequestConfiguration(timeoutMs: timeoutMs)),
      transferListener: listener)
  }

  private func loadError(
    _ server: HTTPTestServer, timeoutMs: Int = 10_000, listener: RecordingListener? = nil
  ) -> PlayheadError? {
    let loader = loader(timeoutMs: timeoutMs, listener: listener)
    return playheadError { () throws(PlayheadError) in
      try loader.load(DataRequest(url: server.url("/media.bin")))
    }
  }

  func testLoad_missingPath_throwsHTTPStatus404() throws {
    let server = try startServer()
    let url = server.url("/missing.bin")
    let listener = RecordingListener()
    let error = playheadError { () throws(PlayheadError) in
      try self.loader(listener: listener).load(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 404)
    XCTAssertEqual(error?.message, "HTTP 404 Not Found for \(url.absoluteString)")
    XCTAssertEqual(error?.url, url)
    XCTAssertTrue(listener.transfers.isEmpty)
  }

  func testLoad_serverErrorStatus_throwsHTTPStatusWithItsCode() throws {
    let server = try startServer(faults: ["/media.bin": .status(503)])
    let error = loadError(server)
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 503)
  }

  func testLoad_failTimes_failsThatManyRequestsThenServes() throws {
    let server = try startServer(faults: ["/media.bin": .failTimes(2, status: 500)])
    XCTAssertEqual(loadError(server)?.httpStatusCode, 500)
    XCTAssertEqual(loadError(server)?.httpStatusCode, 500)
    XCTAssertEqual(try loader().load(DataRequest(url: server.url("/media.bin"))).data, data)
    XCTAssertEqual(server.requestCount(for: "/media.bin"), 3)
    XCTAssertEqual(server.requestCount(for: "media.bin"), 3)
    XCTAssertEqual(server.requestCount(for: "/other.bin"), 0)
  }

  func testLoad_hungServer_throwsTimedOutAfterTheConfiguredTime() throws {
    let server = try startServer(faults: ["/media.bin": .hang])
    let started = DispatchTime.now().uptimeNanoseconds
    let error = loadError(server, timeoutMs: 300)
    let elapsedMs = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
    XCTAssertEqual(error?.code, .timedOut)
    XCTAssertEqual(
      error?.message, "no answer from \(server.url("/media.bin").absoluteString) within 300 ms")
    // Measured by the source itself, not by URLSession's whole-second timer.
    XCTAssertGreaterThanOrEqual(elapsedMs, 300)
    XCTAssertLessThan(elapsedMs, 5_000)
  }

  func testLoad_serverStallingMidBody_throwsTimedOutNamingTheReceivedBytes() throws {
    let server = try startServer(faults: ["/media.bin": .hangAfter(bytes: 20_000)])
    let error = loadError(server, timeoutMs: 300)
    XCTAssertEqual(error?.code, .timedOut)
    XCTAssertTrue(error?.message.hasPrefix("no data from") ?? false, error?.message ?? "")
  }

  func testLoad_nothingListening_throwsConnectionFailed() {
    let url = URL(string: "http://127.0.0.1:\(HTTPTestServer.unusedPort())/media.bin")!
    let error = playheadError { () throws(PlayheadError) in
      try self.loader().load(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .connectionFailed)
  }

  func testLoad_connectionResetAfterHeaders_throwsConnectionFailed() throws {
    let server = try startServer(faults: ["/media.bin": .resetConnection])
    let error = loadError(server)
    XCTAssertEqual(error?.code, .connectionFailed)
  }

  func testLoad_connectionClosedEarly_throwsConnectionFailedWithTheCounts() throws {
    let server = try startServer(faults: ["/media.bin": .closeAfter(bytes: 1_000)])
    let listener = RecordingListener()
    let error = loadError(server, listener: listener)
    XCTAssertEqual(error?.code, .connectionFailed)
    XCTAssertEqual(
      error?.message,
      "connection to \(server.url("/media.bin").absoluteString) closed after 1000 of 300000 bytes")
    XCTAssertTrue(listener.transfers.isEmpty)
  }

  func testLoad_contentLengthLongerThanTheBody_throwsConnectionFailed() throws {
    let server = try startServer(faults: ["/media.bin": .wrongContentLength(extra: 10)])
    let error = loadError(server)
    XCTAssertEqual(error?.code, .connectionFailed)
    XCTAssertEqual(
      error?.message,
      "connection to \(server.url("/media.bin").absoluteString) closed after 300000 of 300010 bytes"
    )
  }

  func testCancelAll_fromAnotherThread_wakesABlockedLoadAtOnce() throws {
    let server = try startServer(faults: ["/media.bin": .hang])
    let loader = loader(timeoutMs: 60_000)
    let url = server.url("/media.bin")
    let run = runInBackground("blocked load returns") { try loader.load(DataRequest(url: url)) }
    // The request reached the server, so the load is waiting for an answer.
    XCTAssertTrue(server.waitForRequests(count: 1))
    XCTAssertEqual(loader.loadsInFlight, 1)
    loader.cancelAll()
    loader.cancelAll()
    XCTAssertEqual(failure(of: run, timeout: 5)?.code, .cancelled)
    XCTAssertEqual(loader.loadsInFlight, 0)
    let later = playheadError { () throws(PlayheadError) in try loader.load(DataRequest(url: url)) }
    XCTAssertEqual(later?.code, .cancelled)
    XCTAssertEqual(server.requests.count, 1)
  }
}
