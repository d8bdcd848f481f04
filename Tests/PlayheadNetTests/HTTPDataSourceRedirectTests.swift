import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Redirects as `HTTPDataSource` follows them: to http(s) only, a bounded number of times.
final class HTTPDataSourceRedirectTests: XCTestCase {
  private let data = generatedBytes(count: 200_000)

  func testOpen_followsARedirect_andTheHeadNamesTheURLThatAnswered() throws {
    let server = try startServer(
      ["/media.bin": data], faults: ["/old.bin": .redirect(to: "/media.bin", status: 302)])
    let source = HTTPDataSource()
    let head = try source.open(
      DataRequest(url: server.url("/old.bin"), range: ByteRange(offset: 1_000, length: 500)))
    XCTAssertEqual(head.url, server.url("/media.bin"))
    XCTAssertEqual(head.length, 500)
    XCTAssertEqual(try drain(source), data.subdata(in: 1_000..<1_500))
    XCTAssertEqual(server.requests.map(\.path), ["/old.bin", "/media.bin"])
  }

  func testReader_continuesThroughTheRedirect_afterTheReadAheadLimit() throws {
    let server = try startServer(
      ["/media.bin": data], faults: ["/old.bin": .redirect(to: "/media.bin", status: 301)])
    let reader = DataSourceReader(
      source: HTTPDataSource(configuration: RequestConfiguration(readAheadBytes: 64 * 1024)),
      request: DataRequest(url: server.url("/old.bin")))
    XCTAssertEqual(try readFully(reader, at: 0, count: 10_000), data.prefix(10_000))
    waitUntilHoldingBack(reader.source)
    XCTAssertEqual(try readToEnd(reader, from: 10_000, chunk: 10_000), data.dropFirst(10_000))
    XCTAssertEqual(reader.length, Int64(data.count))
    XCTAssertGreaterThan(server.requestCount(for: "/media.bin"), 1, "continuations were sent")
  }

  func testOpen_aRedirectToALocalFile_isRefused() throws {
    let server = try startServer(
      ["/media.bin": data], faults: ["/evil.bin": .redirect(to: "file:///etc/passwd", status: 302)])
    let url = server.url("/evil.bin")
    let error = playheadError { () throws(PlayheadError) in
      try HTTPDataSource().open(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .redirectRefused)
    XCTAssertEqual(error?.url, url)
    XCTAssertTrue(
      error?.message.contains("a local file (file:///etc/passwd)") ?? false, "\(error!)")
    XCTAssertEqual(server.requests.map(\.path), ["/evil.bin"], "never asked for /etc/passwd")
  }

  func testOpen_aRedirectLoop_failsWithTooManyRedirects() throws {
    let server = try startServer(
      ["/media.bin": data], faults: ["/loop.bin": .redirect(to: "/loop.bin", status: 302)])
    let url = server.url("/loop.bin")
    let error = playheadError { () throws(PlayheadError) in
      try HTTPDataSource().open(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .tooManyRedirects)
    XCTAssertEqual(
      error?.message,
      "too many redirects (more than 10) for \(url.absoluteString): a redirect loop?")
    XCTAssertEqual(server.requestCount(for: "/loop.bin"), 11)
  }
}
