import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Per-request headers, error responses delivered with their body (for API clients), and
/// the test server's query log and `.respond` fault they rely on.
final class HTTPDataSourceErrorResponseTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    try startServer(["/ok.json": Data("{}".utf8)])
  }

  func testRequestHeadersAreSentAndWinOverConfiguredOnes() throws {
    let server = try startServer()
    let source = DataLoader(
      factory: HTTPDataSourceFactory(
        configuration: RequestConfiguration(headers: ["X-Shared": "configured", "X-Only": "c"])))
    _ = try source.load(
      DataRequest(url: server.url("/ok.json"), headers: ["x-shared": "request", "X-New": "n"]))
    let logged = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(logged.headers["x-shared"], "request")
    XCTAssertEqual(logged.headers["x-only"], "c")
    XCTAssertEqual(logged.headers["x-new"], "n")
  }

  func testAnErrorStatusComesBackWithItsBodyWhenAsked() throws {
    let server = try startServer()
    let body = Data(#"[{"error_code":"NOT_FOUND"}]"#.utf8)
    server.setFault(.respond(status: 404, body: body), for: "/missing")
    let source = DataLoader(factory: HTTPDataSourceFactory())
    let response = try source.load(
      DataRequest(url: server.url("/missing"), deliversErrorResponses: true))
    XCTAssertEqual(response.statusCode, 404)
    XCTAssertEqual(response.data, body)

    let ranged = try source.load(
      DataRequest(
        url: server.url("/missing"), range: ByteRange(offset: 5, length: 3),
        deliversErrorResponses: true))
    XCTAssertEqual(ranged.data, body, "ranges do not apply to an error body")

    XCTAssertThrowsError(try source.load(DataRequest(url: server.url("/missing")))) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .httpStatus)
      XCTAssertEqual((error as? PlayheadError)?.httpStatusCode, 404)
    }
    server.setFault(.status(500), for: "/plain")
    let plain = try source.load(
      DataRequest(url: server.url("/plain"), deliversErrorResponses: true))
    XCTAssertEqual(plain.statusCode, 500)
    XCTAssertEqual(String(decoding: plain.data, as: UTF8.self), "500 Internal Server Error\n")
  }

  func testAnErrorResponse_opensWithItsStatusAndLength_andIsNeverContinued() throws {
    let server = try startServer()
    let body = Data(repeating: 0x41, count: 100_000)
    server.setFault(.respond(status: 404, body: body), for: "/missing")
    // A read-ahead far below the body: an error body is still delivered in one response.
    let source = HTTPDataSource(configuration: RequestConfiguration(readAheadBytes: 64 * 1024))
    let head = try source.open(
      DataRequest(
        url: server.url("/missing"), range: ByteRange(offset: 10, length: 20),
        deliversErrorResponses: true))
    XCTAssertEqual(head.statusCode, 404)
    XCTAssertEqual(head.length, Int64(body.count))
    XCTAssertEqual(head.header("content-type"), "application/json")
    XCTAssertEqual(try drain(source, chunk: 10_000), body)
    XCTAssertEqual(server.requestCount(for: "/missing"), 1)
  }

  func testTheServerLogsTheQuery() throws {
    let server = try startServer()
    let source = DataLoader(factory: HTTPDataSourceFactory())
    let url = URL(string: server.url("/ok.json").absoluteString + "?b=2&a=x%20y&flag&b=3")!
    _ = try source.load(DataRequest(url: url))
    _ = try source.load(DataRequest(url: server.url("/ok.json")))
    let logged = server.requests
    XCTAssertEqual(logged.count, 2)
    XCTAssertEqual(logged[0].path, "/ok.json")
    XCTAssertEqual(logged[0].query, "b=2&a=x%20y&flag&b=3")
    XCTAssertEqual(logged[0].queryItems, ["a": "x y", "b": "3", "flag": ""])
    XCTAssertNil(logged[1].query)
    XCTAssertEqual(logged[1].queryItems, [:])
  }
}
