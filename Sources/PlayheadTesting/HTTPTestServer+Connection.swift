import Foundation
import PlayheadNet

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a `Range` header asks of a body of a given size.
enum TestByteRange: Equatable {
  /// No usable range: send the whole body with 200.
  case whole
  /// Send these bytes with 206.
  case partial(Range<Int>)
  /// Nothing of the body is in range: 416.
  case unsatisfiable

  /// Interprets `header` (`bytes=a-b`, `bytes=a-`, `bytes=-n`) for a body of `size` bytes.
  init(header: String?, size: Int) {
    guard let header else {
      self = .whole
      return
    }
    let trimmed = header.trimmingCharacters(in: .whitespaces)
    guard trimmed.lowercased().hasPrefix("bytes="), !trimmed.contains(",") else {
      self = .whole
      return
    }
    let spec = trimmed.dropFirst(6)
    let parts = spec.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      self = .whole
      return
    }
    let first = parts[0].trimmingCharacters(in: .whitespaces)
    let last = parts[1].trimmingCharacters(in: .whitespaces)
    if first.isEmpty {
      guard let suffix = Int(last), suffix >= 0 else {
        self = .whole
        return
      }
      if suffix == 0 || size == 0 {
        self = .unsatisfiable
      } else {
        self = .partial(max(0, size - suffix)..<size)
      }
      return
    }
    guard let start = Int(first), start >= 0 else {
      self = .whole
      return
    }
    var end = size - 1
    if !last.isEmpty {
      guard let value = Int(last), value >= start else {
        self = .whole
        return
      }
      end = min(value, size - 1)
    }
    self = start >= size ? .unsatisfiable : .partial(start..<(end + 1))
  }
}

extension HTTPTestServer {
  /// A parsed request head.
  struct RequestHead {
    var method: String
    var target: String
    var version: String
    var headers: [String: String]
  }

  /// Serves requests on one connection until the peer closes it, a response closes it,
  /// or the server stops.
  func serveConnection(_ fd: Int32, id: Int) {
    defer { finishConnection(fd, id: id) }
    var pending: [UInt8] = []
    while let head = readRequestHead(fd, pending: &pending) {
      let path = Self.path(ofTarget: head.target)
      var logged = LoggedRequest(
        method: head.method, path: path, headers: head.headers, connectionID: id,
        query: Self.query(ofTarget: head.target))
      switch readBody(fd, head: head, pending: &pending) {
      case .body(let body):
        logged.body = body
      case .tooLarge:
        record(logged)
        _ = sendText(fd, status: 413, connection: "close", head: head)
        return
      case .broken:
        return
      }
      record(logged)
      let connectionHeader = head.headers["connection"]?.lowercased()
      let keepAlive =
        head.version == "HTTP/1.1"
        ? connectionHeader != "close" : connectionHeader == "keep-alive"
      guard respond(to: head, request: logged, fd: fd, keepAlive: keepAlive), keepAlive else {
        return
      }
    }
  }

  /// Reads up to the blank line that ends a request head; nil at end of stream, on error,
  /// or for a head that is malformed or larger than 64 KiB.
  private func readRequestHead(_ fd: Int32, pending: inout [UInt8]) -> RequestHead? {
    let terminator: [UInt8] = [13, 10, 13, 10]
    while true {
      if let end = Self.find(terminator, in: pending) {
        let headBytes = pending[0..<end]
        pending.removeFirst(end + terminator.count)
        return Self.parseHead(String(decoding: headBytes, as: UTF8.self))
      }
      if pending.count > 64 * 1024 { return nil }
      if !TestSockets.receive(fd, into: &pending) { return nil }
    }
  }

  /// What reading a request body came to.
  enum RequestBody {
    /// The body (empty without `Content-Length`).
    case body(Data)
    /// `Content-Length` announced more than `maxRequestBodyBytes`.
    case tooLarge
    /// The peer closed the connection (or it failed) before the body's end.
    case broken
  }

  /// Reads the request body announced by `Content-Length`, first answering
  /// `Expect: 100-continue` with `100 Continue`.
  private func readBody(_ fd: Int32, head: RequestHead, pending: inout [UInt8]) -> RequestBody {
    guard let text = head.headers["content-length"], let length = Int(text), length > 0 else {
      return .body(Data())
    }
    guard length <= Self.maxRequestBodyBytes else { return .tooLarge }
    if head.headers["expect"]?.lowercased() == "100-continue", pending.count < length {
      guard TestSockets.sendAll(fd, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else {
        return .broken
      }
    }
    while pending.count < length {
      if !TestSockets.receive(fd, into: &pending) { return .broken }
    }
    let body = Data(pending[0..<length])
    pending.removeFirst(length)
    return .body(body)
  }

  /// Sends the answer; false when the connection must close.
  private func respond(to head: RequestHead, request: LoggedRequest, fd: Int32, keepAlive: Bool)
    -> Bool
  {
    let delayMs = currentResponseDelayMs
    if delayMs > 0, !pause(until: Date(timeIntervalSinceNow: Double(delayMs) / 1000)) {
      return false
    }
    let (fault, stored) = lookup(request.path)
    let responder = responder(for: request.path)
    let connection = keepAlive ? "keep-alive" : "close"
    if fault == .hang {
      waitUntilStopped()
      return false
    }
    guard responder != nil || head.method == "GET" || head.method == "HEAD" else {
      return sendText(fd, status: 405, connection: connection, head: head)
    }
    if case .status(let code) = fault {
      return sendText(fd, status: code, connection: connection, head: head)
    }
    if case .respond(let code, let answer) = fault {
      return sendBody(fd, status: code, body: answer, connection: connection, head: head)
    }
    if case .redirect(let location, let code) = fault {
      return sendText(
        fd, status: code, connection: connection, head: head, extra: ["Location: \(location)"])
    }
    if let refused = gateStatus(for: request) {
      return sendText(fd, status: refused, connection: connection, head: head)
    }
    if let responder {
      let response = responder(request)
      let lines = Self.headLines(for: response, connection: connection)
      var data = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
      if head.method != "HEAD" { data.append(response.body) }
      let sent = TestSockets.sendAll(fd, data)
      if sent && head.method != "HEAD" { recordSentBodyBytes(response.body.count) }
      return sent
    }
    guard let stored else {
      return sendText(fd, status: 404, connection: connection, head: head)
    }
    let body = rewrite(stored, for: request)
    let range =
      fault == .ignoreRange
      ? .whole : TestByteRange(header: head.headers["range"], size: body.count)
    var status = 200
    var extra: [String] = fault == .ignoreRange ? [] : ["Accept-Ranges: bytes"]
    var bytes = 0..<body.count
    switch range {
    case .whole:
      break
    case .partial(let wanted):
      status = 206
      bytes = wanted
      // A server wrong about the length is wrong in Content-Range too.
      var more = 0
      if case .wrongContentLength(let count) = fault { more = max(0, count) }
      extra.append(
        "Content-Range: bytes \(wanted.lowerBound)-\(wanted.upperBound - 1 + more)/\(body.count + more)"
      )
    case .unsatisfiable:
      extra.append("Content-Range: bytes */\(body.count)")
      return sendText(fd, status: 416, connection: connection, head: head, extra: extra)
    }
    var announced = bytes.count
    if case .wrongContentLength(let more) = fault { announced += max(0, more) }
    var lines = ["HTTP/1.1 \(status) \(Self.reason(status))"]
    lines.append("Content-Length: \(announced)")
    lines.append("Content-Type: application/octet-stream")
    lines += extra
    lines.append("Connection: \(connection)")
    let headerData = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    guard TestSockets.sendAll(fd, headerData) else { return false }
    if head.method == "HEAD" { return true }
    var sendCount = bytes.count
    switch fault {
    case .closeAfter(let limit), .hangAfter(let limit):
      sendCount = max(0, min(limit, bytes.count))
    case .closeAtByte(let offset):
      sendCount = max(0, min(offset - bytes.lowerBound, bytes.count))
    case .resetConnection:
      TestSockets.setAbortiveClose(fd)
      return false
    case .slow(let rate):
      return sendSlowly(fd, body: body, bytes: bytes, bytesPerSecond: max(1, rate))
    default:
      break
    }
    let sent = body.withUnsafeBytes { raw in
      TestSockets.sendAll(
        fd, UnsafeRawBufferPointer(rebasing: raw[bytes.lowerBound..<(bytes.lowerBound + sendCount)])
      )
    }
    if sent { recordSentBodyBytes(sendCount) }
    switch fault {
    case .closeAfter, .wrongContentLength, .closeAtByte:
      return false
    case .hangAfter:
      if sent { waitUntilStopped() }
      return false
    default:
      return sent
    }
  }

  /// Sends `body[bytes]` at about `bytesPerSecond` in writes of at most 1/50 s of data,
  /// pacing each write against the start time so that the rate does not drift; false when
  /// the peer is gone or the server stops.
  private func sendSlowly(_ fd: Int32, body: Data, bytes: Range<Int>, bytesPerSecond: Int) -> Bool {
    let chunk = max(1, bytesPerSecond / 50)
    let start = Date()
    var position = bytes.lowerBound
    while position < bytes.upperBound {
      let end = min(bytes.upperBound, position + chunk)
      let sent = body.withUnsafeBytes { raw in
        TestSockets.sendAll(fd, UnsafeRawBufferPointer(rebasing: raw[position..<end]))
      }
      guard sent else { return false }
      recordSentBodyBytes(end - position)
      position = end
      if position < bytes.upperBound {
        let due = Double(position - bytes.lowerBound) / Double(bytesPerSecond)
        guard pause(until: start.addingTimeInterval(due)) else { return false }
      }
    }
    return true
  }

  /// Sends a short text answer with `status`.
  private func sendText(
    _ fd: Int32, status: Int, connection: String, head: RequestHead, extra: [String] = []
  ) -> Bool {
    let text = Data("\(status) \(Self.reason(status))\n".utf8)
    var lines = ["HTTP/1.1 \(status) \(Self.reason(status))"]
    lines.append("Content-Length: \(text.count)")
    lines.append("Content-Type: text/plain")
    lines += extra
    lines.append("Connection: \(connection)")
    var data = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    if head.method != "HEAD" { data.append(text) }
    return TestSockets.sendAll(fd, data)
  }

  /// Sends `body` with `status` as `application/json`.
  private func sendBody(
    _ fd: Int32, status: Int, body: Data, connection: String, head: RequestHead
  ) -> Bool {
    var lines = ["HTTP/1.1 \(status) \(Self.reason(status))"]
    lines.append("Content-Length: \(body.count)")
    lines.append("Content-Type: application/json")
    lines.append("Connection: \(connection)")
    var data = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    if head.method != "HEAD" { data.append(body) }
    return TestSockets.sendAll(fd, data)
  }

  static func parseHead(_ text: String) -> RequestHead? {
    var lines = text.components(separatedBy: "\r\n")
    guard !lines.isEmpty else { return nil }
    let requestLine = lines.removeFirst().split(separator: " ")
    guard requestLine.count == 3 else { return nil }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[line.startIndex..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
    return RequestHead(
      method: String(requestLine[0]), target: String(requestLine[1]),
      version: String(requestLine[2]), headers: headers)
  }

  static func path(ofTarget target: String) -> String {
    var path = target
    if let schemeEnd = path.range(of: "://") {
      let afterScheme = path[schemeEnd.upperBound...]
      path = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
    }
    if let query = path.firstIndex(of: "?") { path = String(path[path.startIndex..<query]) }
    return normalize(path.removingPercentEncoding ?? path)
  }

  /// The query of a request target (after the first `?`, before any `#`), as sent.
  static func query(ofTarget target: String) -> String? {
    guard let mark = target.firstIndex(of: "?") else { return nil }
    var query = target[target.index(after: mark)...]
    if let hash = query.firstIndex(of: "#") { query = query[query.startIndex..<hash] }
    return String(query)
  }

  static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      return start
    }
    return nil
  }

  static func reason(_ status: Int) -> String {
    HTTPStatusText.reasonPhrase(status) ?? "Status"
  }
}
