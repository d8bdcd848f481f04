import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Status errors, timeouts, cancellation and broken connections of `HTTPByteSource`.
final class HTTPByteSourceFailureTests: XCTestCase {
  private let data = generatedBytes(count: 300_000)

  private func startServer(faults: [String: HTTPTestServer.Fault] = [:]) throws -> HTTPTestServer {
    let server = HTTPTestServer(files: ["/media.bin": data], faults: faults)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  func testPrefetchHeaders_missingPath_throwsHTTPStatus404() throws {
    let server = try startServer()
    let url = server.url("/missing.bin")
    let source = try HTTPByteSource(url: url)
    let error = playheadError { () throws(PlayheadError) in try source.prefetchHeaders() }
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 404)
    XCTAssertEqual(error?.message, "HTTP 404 Not Found for \(url.absoluteString)")
    XCTAssertEqual(error?.category, .source)
  }

  func testRead_missingPath_throwsHTTPStatus404() throws {
    let server = try startServer()
    let source = try HTTPByteSource(url: server.url("/missing.bin"))
    let error = playheadError { () throws(PlayheadError) in
      try readFully(source, at: 0, count: 100)
    }
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 404)
  }

  func testRead_serverError_throwsHTTPStatusWithItsCode() throws {
    let server = try startServer(faults: ["/media.bin": .status(503)])
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    let error = playheadError { () throws(PlayheadError) in
      try readFully(source, at: 0, count: 100)
    }
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 503)
    XCTAssertTrue(error?.message.hasPrefix("HTTP 503 Service Unavailable for") ?? false)
  }

  func testRead_afterAFailure_retriesWithANewRequest() throws {
    let server = try startServer(faults: ["/media.bin": .status(500)])
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    let error = playheadError { () throws(PlayheadError) in
      try readFully(source, at: 0, count: 100)
    }
    XCTAssertEqual(error?.httpStatusCode, 500)
    server.setFault(nil, for: "/media.bin")
    XCTAssertEqual(try readFully(source, at: 0, count: 100), data.subdata(in: 0..<100))
  }

  func testRead_hungServer_throwsTimedOut() throws {
    let server = try startServer(faults: ["/media.bin": .hang])
    let configuration = HTTPRequestConfiguration(timeoutSeconds: 0.5)
    let source = try HTTPByteSource(url: server.url("/media.bin"), configuration: configuration)
    let started = Date()
    let error = playheadError { () throws(PlayheadError) in
      try readFully(source, at: 0, count: 100)
    }
    XCTAssertEqual(error?.code, .timedOut)
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
  }

  func testRead_serverStallingMidBody_throwsTimedOutAfterTheReceivedBytes() throws {
    let server = try startServer(faults: ["/media.bin": .hangAfter(bytes: 20_000)])
    let configuration = HTTPRequestConfiguration(timeoutSeconds: 0.5)
    let source = try HTTPByteSource(url: server.url("/media.bin"), configuration: configuration)
    var received = Data()
    var failure: PlayheadError?
    do {
      while true {
        let piece = try readOnce(source, at: Int64(received.count), count: 4096)
        if piece.isEmpty { break }
        received.append(piece)
      }
    } catch {
      failure = error
    }
    XCTAssertEqual(failure?.code, .timedOut)
    XCTAssertEqual(
      failure?.message,
      "no data from \(server.url("/media.bin").absoluteString) for 500 ms after 20000 bytes",
      "headers came: not \"no answer\"")
    XCTAssertEqual(received, data.subdata(in: 0..<20_000))
  }

  func testPrefetchHeaders_hungServer_throwsTimedOut() throws {
    let server = try startServer(faults: ["/media.bin": .hang])
    let configuration = HTTPRequestConfiguration(timeoutSeconds: 0.5)
    let source = try HTTPByteSource(url: server.url("/media.bin"), configuration: configuration)
    let error = playheadError { () throws(PlayheadError) in try source.prefetchHeaders() }
    XCTAssertEqual(error?.code, .timedOut)
    XCTAssertEqual(
      error?.message, "no answer from \(server.url("/media.bin").absoluteString) within 500 ms")
  }

  func testCancel_fromAnotherThread_unblocksAHungReadWithCancelled() throws {
    let server = try startServer(faults: ["/media.bin": .hang])
    let configuration = HTTPRequestConfiguration(timeoutSeconds: 60)
    let source = try HTTPByteSource(url: server.url("/media.bin"), configuration: configuration)
    let outcome = LockedBox<PlayheadError?>(nil)
    let finished = expectation(description: "blocked read returns")
    Thread.detachNewThread {
      do {
        _ = try readFully(source, at: 0, count: 100)
      } catch {
        outcome.value = error as? PlayheadError
      }
      finished.fulfill()
    }
    // The request reached the server, so the read is waiting for an answer.
    XCTAssertTrue(server.waitForRequests(count: 1))
    source.cancel()
    wait(for: [finished], timeout: 5)
    XCTAssertEqual(outcome.value?.code, .cancelled)
    let later = playheadError { () throws(PlayheadError) in
      try readFully(source, at: 0, count: 100)
    }
    XCTAssertEqual(later?.code, .cancelled)
  }

  func testCancel_beforeAnyRead_makesReadsThrowCancelled() throws {
    let server = try startServer()
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    source.cancel()
    source.cancel()
    let error = playheadError { () throws(PlayheadError) in try source.prefetchHeaders() }
    XCTAssertEqual(error?.code, .cancelled)
    XCTAssertTrue(server.requests.isEmpty)
  }

  func testRead_nothingListening_throwsConnectionFailed() throws {
    let url = URL(string: "http://127.0.0.1:\(HTTPTestServer.unusedPort())/media.bin")!
    let source = try HTTPByteSource(url: url)
    let error = playheadError { () throws(PlayheadError) in
      try readFully(source, at: 0, count: 100)
    }
    XCTAssertEqual(error?.code, .connectionFailed)
  }

  func testRead_connectionClosedEarly_returnsTheReceivedBytesThenThrowsConnectionFailed() throws {
    let server = try startServer(faults: ["/media.bin": .closeAfter(bytes: 50_000)])
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    var received = Data()
    var failure: PlayheadError?
    do {
      while true {
        let piece = try readOnce(source, at: Int64(received.count), count: 8192)
        if piece.isEmpty { break }
        received.append(piece)
      }
    } catch {
      failure = error
    }
    XCTAssertEqual(failure?.code, .connectionFailed)
    XCTAssertEqual(
      failure?.message,
      "connection to \(server.url("/media.bin").absoluteString) closed after 50000 of 300000 bytes",
      "not a raw URL error number")
    XCTAssertLessThanOrEqual(received.count, 50_000)
    XCTAssertEqual(received, data.subdata(in: 0..<received.count))
    // The next read resumes with a range request where the bytes stopped.
    server.setFault(nil, for: "/media.bin")
    let rest = try readToEnd(source, from: Int64(received.count))
    XCTAssertEqual(received + rest, data)
    XCTAssertEqual(server.requests.last?.range, "bytes=\(received.count)-")
  }
}
