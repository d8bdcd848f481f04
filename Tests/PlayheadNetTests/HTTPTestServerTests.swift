import Foundation
import PlayheadCore
import PlayheadTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The test server itself, spoken to over a raw socket so that the exact bytes on the
/// wire are checked.
final class HTTPTestServerTests: XCTestCase {
  private let data = generatedBytes(count: 1000)

  private func startServer(
    directory: URL? = nil, faults: [String: HTTPTestServer.Fault] = [:]
  ) throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: directory, files: ["/a.bin": data], faults: faults)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  func testGet_withoutRange_sendsTheWholeBody() throws {
    let server = try startServer()
    let client = try RawHTTPClient(port: server.port)
    let response = try client.exchange("GET /a.bin HTTP/1.1\r\nHost: x\r\n\r\n")
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(response.headers["content-length"], "1000")
    XCTAssertEqual(response.headers["accept-ranges"], "bytes")
    XCTAssertEqual(response.body, data)
  }

  func testGet_withRanges_sends206WithContentRange() throws {
    let server = try startServer()
    let client = try RawHTTPClient(port: server.port)
    let cases: [(String, Range<Int>)] = [
      ("bytes=10-19", 10..<20), ("bytes=990-", 990..<1000), ("bytes=-5", 995..<1000),
      ("bytes=900-5000", 900..<1000),
    ]
    for (range, expected) in cases {
      let response = try client.exchange(
        "GET /a.bin HTTP/1.1\r\nHost: x\r\nRange: \(range)\r\n\r\n")
      XCTAssertEqual(response.status, 206, range)
      XCTAssertEqual(
        response.headers["content-range"],
        "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/1000", range)
      XCTAssertEqual(response.body, data.subdata(in: expected), range)
    }
    XCTAssertEqual(server.requests.map(\.connectionID), [1, 1, 1, 1], "keep-alive")
    XCTAssertEqual(server.requests.compactMap(\.range), cases.map(\.0))
  }

  func testGet_malformedOrMultipartRange_sendsTheWholeBody() throws {
    let server = try startServer()
    let client = try RawHTTPClient(port: server.port)
    for range in ["bytes=5-2", "bytes=0-1,5-6", "items=0-1", "bytes=x-"] {
      let response = try client.exchange(
        "GET /a.bin HTTP/1.1\r\nHost: x\r\nRange: \(range)\r\n\r\n")
      XCTAssertEqual(response.status, 200, range)
      XCTAssertEqual(response.body, data, range)
    }
  }

  func testGet_unsatisfiableRange_sends416() throws {
    let server = try startServer()
    let client = try RawHTTPClient(port: server.port)
    let response = try client.exchange(
      "GET /a.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=1000-\r\n\r\n")
    XCTAssertEqual(response.status, 416)
    XCTAssertEqual(response.headers["content-range"], "bytes */1000")
  }

  func testHead_sendsHeadersWithoutBody() throws {
    let server = try startServer()
    let client = try RawHTTPClient(port: server.port)
    let head = try client.exchange("HEAD /a.bin HTTP/1.1\r\nHost: x\r\n\r\n", expectBody: false)
    XCTAssertEqual(head.status, 200)
    XCTAssertEqual(head.headers["content-length"], "1000")
    // The connection is still in step: the next answer is parsed correctly.
    let next = try client.exchange("GET /a.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1\r\n\r\n")
    XCTAssertEqual(next.body, data.subdata(in: 0..<2))
    XCTAssertEqual(server.requests.map(\.method), ["HEAD", "GET"])
  }

  func testGet_missingPath_sends404() throws {
    let server = try startServer()
    let client = try RawHTTPClient(port: server.port)
    XCTAssertEqual(try client.exchange("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
    XCTAssertEqual(try client.exchange("GET /../etc/passwd HTTP/1.1\r\n\r\n").status, 404)
  }

  func testGet_fileFromDirectory_isServed() throws {
    let directory = try makeTemporaryDirectory(for: self)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
    let fileData = generatedBytes(count: 300, seed: 7)
    try fileData.write(to: directory.appendingPathComponent("sub/file.ts"))
    let server = try startServer(directory: directory)
    let client = try RawHTTPClient(port: server.port)
    let response = try client.exchange("GET /sub/file.ts?token=1 HTTP/1.1\r\n\r\n")
    XCTAssertEqual(response.body, fileData)
    XCTAssertEqual(server.requests.first?.path, "/sub/file.ts")
    XCTAssertEqual(try client.exchange("GET /sub HTTP/1.1\r\n\r\n").status, 404)
  }

  func testFaults_statusAndCloseAfter() throws {
    let server = try startServer(faults: ["/a.bin": .status(500)])
    let client = try RawHTTPClient(port: server.port)
    XCTAssertEqual(try client.exchange("GET /a.bin HTTP/1.1\r\n\r\n").status, 500)
    server.setFault(.closeAfter(bytes: 10), for: "/a.bin")
    let partial = try client.exchangeUntilClose("GET /a.bin HTTP/1.1\r\n\r\n")
    let headEnd = try XCTUnwrap(partial.range(of: Data("\r\n\r\n".utf8)))
    let head = String(decoding: partial[..<headEnd.lowerBound], as: UTF8.self)
    XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"), head)
    XCTAssertTrue(head.contains("Content-Length: 1000"), head)
    XCTAssertEqual(partial[headEnd.upperBound...], data.prefix(10))
  }

  func testStop_whileARequestHangs_closesTheConnectionAndTheListener() throws {
    let server = try startServer(faults: ["/a.bin": .hang])
    let port = server.port
    let client = try RawHTTPClient(port: port)
    try client.send("GET /a.bin HTTP/1.1\r\n\r\n")
    XCTAssertTrue(server.waitForRequests(count: 1))
    server.stop()
    XCTAssertEqual(try client.exchangeUntilClose(""), Data(), "no answer, then end of stream")
    XCTAssertThrowsError(try RawHTTPClient(port: port), "nothing listens after stop()")
  }

  func testResponseDelay_holdsEveryAnswerBack_andZeroAnswersAtOnce() throws {
    let server = try startServer()
    server.setResponseDelay(milliseconds: 60)
    let client = try RawHTTPClient(port: server.port)
    for request in ["GET /a.bin HTTP/1.1\r\n\r\n", "GET /missing HTTP/1.1\r\n\r\n"] {
      let startNs = DispatchTime.now().uptimeNanoseconds
      _ = try client.exchange(request)
      let elapsedMs = Double(DispatchTime.now().uptimeNanoseconds - startNs) / 1e6
      XCTAssertGreaterThanOrEqual(elapsedMs, 60, request)
    }
    server.setResponseDelay(milliseconds: 0)
    let startNs = DispatchTime.now().uptimeNanoseconds
    XCTAssertEqual(try client.exchange("GET /a.bin HTTP/1.1\r\n\r\n").body, data)
    // Far below the delay it had: the wait is gone (the bound only guards a loaded machine).
    XCTAssertLessThan(Double(DispatchTime.now().uptimeNanoseconds - startNs) / 1e6, 50)
  }

  func testStop_duringAResponseDelay_endsTheWait() throws {
    let server = try startServer()
    server.setResponseDelay(milliseconds: 600_000)
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET /a.bin HTTP/1.1\r\n\r\n")
    XCTAssertTrue(server.waitForRequests(count: 1))
    let startNs = DispatchTime.now().uptimeNanoseconds
    server.stop()
    XCTAssertLessThan(Double(DispatchTime.now().uptimeNanoseconds - startNs) / 1e9, 10)
    XCTAssertEqual(try client.exchangeUntilClose(""), Data(), "no answer, then end of stream")
  }

  func testPost_withoutAResponder_isLoggedWithItsBody_andGets405() throws {
    let server = try startServer()
    let client = try RawHTTPClient(port: server.port)
    let response = try client.exchange(
      "POST /a.bin HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello")
    XCTAssertEqual(response.status, 405)
    XCTAssertEqual(server.requests.first?.method, "POST")
    XCTAssertEqual(server.requests.first?.body, Data("hello".utf8))
    // The body was consumed: the next request on the connection is in step.
    XCTAssertEqual(try client.exchange("GET /a.bin HTTP/1.1\r\n\r\n").body, data)
    XCTAssertEqual(server.requests.last?.body, Data(), "a GET has no body")
  }

  func testResponder_answersAPost_withItsStatusHeadersAndBody() throws {
    let server = try startServer()
    server.setResponder(for: "licence") { request in
      HTTPTestServer.Response(
        status: request.body == Data("ok?".utf8) ? 200 : 400,
        headers: ["Content-Type": "application/json", "X-Echo": request.method],
        body: Data(#"{"keys":[]}"#.utf8))
    }
    let client = try RawHTTPClient(port: server.port)
    let answer = try client.exchange(
      "POST /licence HTTP/1.1\r\nContent-Length: 3\r\n\r\nok?")
    XCTAssertEqual(answer.status, 200)
    XCTAssertEqual(answer.headers["content-type"], "application/json")
    XCTAssertEqual(answer.headers["x-echo"], "POST")
    XCTAssertEqual(answer.body, Data(#"{"keys":[]}"#.utf8))
    let refused = try client.exchange(
      "POST /licence HTTP/1.1\r\nContent-Length: 2\r\n\r\nno")
    XCTAssertEqual(refused.status, 400)
    XCTAssertEqual(server.requests.map(\.body), [Data("ok?".utf8), Data("no".utf8)])
    // Faults still come first; removing the responder serves files again (none here).
    server.setFault(.status(403), for: "/licence")
    XCTAssertEqual(try client.exchange("POST /licence HTTP/1.1\r\n\r\n").status, 403)
    server.setFault(nil, for: "/licence")
    server.setResponder(for: "/licence", nil)
    XCTAssertEqual(try client.exchange("GET /licence HTTP/1.1\r\n\r\n").status, 404)
  }

  func testPost_expectingContinue_gets100BeforeTheBodyIsSent() throws {
    let server = try startServer()
    server.setResponder(for: "/l") { HTTPTestServer.Response(body: $0.body) }
    let client = try RawHTTPClient(port: server.port)
    let interim = try client.exchange(
      "POST /l HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n",
      expectBody: false)
    XCTAssertEqual(interim.status, 100)
    let answer = try client.exchange("body")
    XCTAssertEqual(answer.status, 200)
    XCTAssertEqual(answer.body, Data("body".utf8))
  }

  func testPost_announcingATooLargeBody_gets413_andTheConnectionCloses() throws {
    let server = try startServer()
    server.setResponder(for: "/l") { _ in HTTPTestServer.Response() }
    let client = try RawHTTPClient(port: server.port)
    let length = HTTPTestServer.maxRequestBodyBytes + 1
    let answer = try client.exchangeUntilClose(
      "POST /l HTTP/1.1\r\nContent-Length: \(length)\r\n\r\n")
    XCTAssertTrue(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 413 "))
    XCTAssertEqual(server.requests.first?.body, Data())
  }
}

/// A minimal blocking HTTP/1.1 client over one socket.
private final class RawHTTPClient {
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: Data
  }

  struct Failure: Error {}

  private let fd: Int32
  private var pending: [UInt8] = []

  init(port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure() }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port)).bigEndian
    address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(fd)
      throw Failure()
    }
  }

  deinit { close(fd) }

  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { throw Failure() }
      offset += sent
    }
  }

  /// Sends `request` and reads one response; `expectBody: false` for HEAD.
  func exchange(_ request: String, expectBody: Bool = true) throws -> Response {
    try send(request)
    let terminator = Array("\r\n\r\n".utf8)
    var found = Self.find(terminator, in: pending)
    while found == nil {
      try receive()
      found = Self.find(terminator, in: pending)
    }
    guard let end = found else { throw Failure() }
    let lines = String(decoding: pending[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
    pending.removeFirst(end + terminator.count)
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure() }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] =
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let length = expectBody ? Int(headers["content-length"] ?? "0") ?? 0 : 0
    while pending.count < length { try receive() }
    let body = Data(pending[0..<length])
    pending.removeFirst(length)
    return Response(status: status, headers: headers, body: body)
  }

  /// Sends `request` (if not empty) and returns everything until the server closes.
  func exchangeUntilClose(_ request: String) throws -> Data {
    if !request.isEmpty { try send(request) }
    while (try? receive()) != nil {}
    return Data(pending)
  }

  private func receive() throws {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 4096, 0) }
    guard count > 0 else { throw Failure() }
    pending.append(contentsOf: chunk[0..<count])
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      return start
    }
    return nil
  }
}
