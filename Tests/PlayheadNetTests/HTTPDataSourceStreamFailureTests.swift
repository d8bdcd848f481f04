import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Status errors, timeouts, cancellation and broken connections of a streaming
/// `HTTPDataSource`, opened directly or read through a `DataSourceReader`.
final class HTTPDataSourceStreamFailureTests: XCTestCase {
  private let data = generatedBytes(count: 300_000)

  private func server(_ fault: HTTPTestServer.Fault? = nil) throws -> HTTPTestServer {
    try startServer(["/media.bin": data], faults: fault.map { ["/media.bin": $0] } ?? [:])
  }

  private func source(timeoutMs: Int = 10_000) -> HTTPDataSource {
    HTTPDataSource(configuration: RequestConfiguration(timeoutMs: timeoutMs))
  }

  /// A reader of the media, and the error of its first 100-byte read.
  private func firstReadError(_ server: HTTPTestServer) -> (DataSourceReader, PlayheadError?) {
    let reader = DataSourceReader(
      source: source(), request: DataRequest(url: server.url("/media.bin")))
    let error = playheadError { () throws(PlayheadError) in
      try readFully(reader, at: 0, count: 100)
    }
    return (reader, error)
  }

  func testOpen_missingPath_throwsHTTPStatus404() throws {
    let server = try server()
    let url = server.url("/missing.bin")
    let error = playheadError { () throws(PlayheadError) in
      try self.source().open(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 404)
    XCTAssertEqual(error?.message, "HTTP 404 Not Found for \(url.absoluteString)")
    XCTAssertEqual(error?.category, .source)
  }

  func testRead_serverError_throwsHTTPStatusWithItsCode() throws {
    let (_, error) = firstReadError(try server(.status(503)))
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 503)
    XCTAssertTrue(error?.message.hasPrefix("HTTP 503 Service Unavailable for") ?? false)
  }

  func testReader_afterAFailure_triesAgainWithANewRequest() throws {
    let server = try server(.status(500))
    let (reader, error) = firstReadError(server)
    XCTAssertEqual(error?.httpStatusCode, 500)
    server.setFault(nil, for: "/media.bin")
    XCTAssertEqual(try readFully(reader, at: 0, count: 100), data.subdata(in: 0..<100))
    XCTAssertEqual(server.requestCount(for: "/media.bin"), 2)
  }

  func testRead_serverStallingMidBody_throwsTimedOutAfterTheReceivedBytes() throws {
    let server = try server(.hangAfter(bytes: 20_000))
    let source = source(timeoutMs: 300)
    _ = try source.open(DataRequest(url: server.url("/media.bin")))
    let (received, failure) = drainUntilFailure(source, chunk: 4096)
    XCTAssertEqual(failure?.code, .timedOut)
    XCTAssertEqual(
      failure?.message,
      "no data from \(server.url("/media.bin").absoluteString) for 300 ms after 20000 bytes",
      "headers came: not \"no answer\"")
    XCTAssertEqual(received, data.subdata(in: 0..<20_000))
  }

  func testCancel_fromAnotherThread_unblocksAHungOpenWithCancelled() throws {
    let server = try server(.hang)
    let source = source(timeoutMs: 60_000)
    let url = server.url("/media.bin")
    let run = runInBackground("blocked open returns") { try source.open(DataRequest(url: url)) }
    // The request reached the server, so the open is waiting for an answer.
    XCTAssertTrue(server.waitForRequests(count: 1))
    source.cancel()
    XCTAssertEqual(failure(of: run, timeout: 5)?.code, .cancelled)
    let later = playheadError { () throws(PlayheadError) in try source.open(DataRequest(url: url)) }
    XCTAssertEqual(later?.code, .cancelled)
    XCTAssertEqual(server.requests.count, 1)
  }

  func testCancel_fromAnotherThread_unblocksAReadWaitingForBytes() throws {
    let server = try server(.hangAfter(bytes: 1_000))
    let source = source(timeoutMs: 60_000)
    _ = try source.open(DataRequest(url: server.url("/media.bin")))
    XCTAssertEqual(try drain(source, limit: 1_000), data.prefix(1_000))
    XCTAssertTrue(source.bufferState.map { !$0.isHoldingBack && $0.bytesAhead == 0 } ?? false)
    let run = runInBackground("blocked read returns") { try readSome(source, count: 100) }
    XCTAssertTrue(server.waitForSentBodyBytes(atLeast: 1_000))
    source.cancel()
    XCTAssertEqual(failure(of: run, timeout: 5)?.code, .cancelled)
  }

  func testCancel_beforeAnyOpen_makesOpensAndReadsThrowCancelled() throws {
    let server = try server()
    let source = source()
    source.cancel()
    source.cancel()
    let error = playheadError { () throws(PlayheadError) in
      try source.open(DataRequest(url: server.url("/media.bin")))
    }
    XCTAssertEqual(error?.code, .cancelled)
    let read = playheadError { () throws(PlayheadError) in try readSome(source, count: 10) }
    XCTAssertEqual(read?.code, .cancelled)
    XCTAssertTrue(server.requests.isEmpty)
  }

  func testRead_withNothingOpen_throwsInvalidState() {
    let error = playheadError { () throws(PlayheadError) in
      try readSome(HTTPDataSource(), count: 10)
    }
    XCTAssertEqual(error?.code, .invalidState)
  }

  func testOpen_nothingListening_throwsConnectionFailed() throws {
    let url = URL(string: "http://127.0.0.1:\(HTTPTestServer.unusedPort())/media.bin")!
    let error = playheadError { () throws(PlayheadError) in
      try self.source().open(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .connectionFailed)
  }

  func testRead_connectionClosedEarly_returnsTheReceivedBytesThenThrows_andTheNextReadResumes()
    throws
  {
    let server = try server(.closeAfter(bytes: 50_000))
    let source = source()
    let head = try source.open(DataRequest(url: server.url("/media.bin")))
    XCTAssertEqual(head.length, Int64(data.count))
    let (received, failure) = drainUntilFailure(source)
    XCTAssertEqual(failure?.code, .connectionFailed)
    XCTAssertEqual(
      failure?.message,
      "connection to \(server.url("/media.bin").absoluteString) closed after 50000 of 300000 bytes",
      "not a raw URL error number")
    XCTAssertEqual(received, data.subdata(in: 0..<50_000))
    // The next read of the same open sends a range request where the bytes stopped.
    server.setFault(nil, for: "/media.bin")
    let rest = try drain(source)
    XCTAssertEqual(received + rest, data)
    XCTAssertEqual(server.requests.map(\.range), [nil, "bytes=50000-"])
  }

  func testReader_afterAConnectionClosedEarly_resumesAtTheOffsetAskedFor() throws {
    let server = try server(.closeAfter(bytes: 50_000))
    let reader = DataSourceReader(
      source: source(), request: DataRequest(url: server.url("/media.bin")))
    var received = Data()
    var failure: PlayheadError?
    do {
      while true {
        let piece = try readOnce(reader, at: Int64(received.count), count: 8192)
        if piece.isEmpty { break }
        received.append(piece)
      }
    } catch {
      failure = error
    }
    XCTAssertEqual(failure?.code, .connectionFailed)
    XCTAssertEqual(received, data.subdata(in: 0..<received.count))
    server.setFault(nil, for: "/media.bin")
    let rest = try readToEnd(reader, from: Int64(received.count))
    XCTAssertEqual(received + rest, data)
    XCTAssertEqual(server.requests.last?.range, "bytes=\(received.count)-")
  }
}
