import Foundation
import PlayheadCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for tests: files from a directory or from memory,
/// byte ranges, keep-alive, a request log, programmable faults per path, and an optional
/// delay before every answer (`setResponseDelay(milliseconds:)`).
///
/// One thread accepts connections and one thread serves each connection. `stop()` shuts
/// every socket down, joins every thread and closes every descriptor, so a stopped server
/// leaks nothing; always call it (for example from `addTeardownBlock`), because running
/// threads keep the server alive. GET and HEAD are served; `Range: bytes=a-b`, `a-` and
/// `-n` get 206 with `Content-Range`, an unsatisfiable range gets 416, a missing path 404.
/// Malformed or multi-part ranges are ignored (200 with the whole file), as HTTP allows.
/// A request body announced by `Content-Length` (up to `maxRequestBodyBytes`) is read and
/// logged; a path with a responder (`setResponder(for:_:)`) answers any method, POST
/// included, with what the responder returns; other methods get 405.
///
/// Example:
/// ```swift
/// let server = HTTPTestServer(files: ["/a.bin": data])
/// try server.start()
/// defer { server.stop() }
/// let url = server.url("/a.bin")
/// ```
public final class HTTPTestServer: @unchecked Sendable {
  // Unchecked Sendable: every mutable property is guarded by `condition`.

  /// A misbehaviour the server shows for one path.
  public indirect enum Fault: Sendable, Equatable {
    /// Answer with this status and a short text body.
    case status(Int)
    /// Read the request and never answer, until `stop()`.
    case hang
    /// Send the headers of a normal answer, then only this many body bytes, then close.
    case closeAfter(bytes: Int)
    /// Send the headers of a normal answer and this many body bytes, then nothing more
    /// until `stop()`.
    case hangAfter(bytes: Int)
    /// Ignore `Range` and always send the whole file with 200.
    case ignoreRange
    /// Send the body at about this many bytes per second, in small timed writes (at least
    /// 1 byte per second).
    case slow(bytesPerSecond: Int)
    /// Send the headers of a normal answer, then reset the connection (a TCP RST).
    case resetConnection
    /// Announce `extra` more bytes than the body holds (in `Content-Length`, and in a
    /// 206's `Content-Range`), send the body, then close the connection: a short body.
    case wrongContentLength(extra: Int)
    /// Answer the first `count` requests for the path (counted from when the fault was set)
    /// with `status`, then serve normally.
    case failTimes(Int, status: Int)
    /// Answer with this status and this body (sent as `application/json`), for APIs whose
    /// error responses carry a body.
    case respond(status: Int, body: Data)
    /// Answer with a redirect: `status` (301, 302, 303, 307 or 308) and `Location:` exactly
    /// as given (`/other`, `http://…`, `file:///etc/passwd`); a path that redirects to
    /// itself is a redirect loop.
    case redirect(to: String, status: Int)
    /// Send the headers of a normal answer, then the body only up to byte `offset` of the
    /// file (counted from the start of the file, not of the answer), then close: a request
    /// that resumes at or past `offset` gets its headers and no byte.
    case closeAtByte(offset: Int)
    /// Show `faults[k]` for request `k` (from 0) for the path, counted from when the fault
    /// was set, and `then` (nil: serve normally) for every later one.
    case sequence([Fault], then: Fault?)
  }

  /// One request as the server received it.
  public struct LoggedRequest: Sendable, Equatable {
    /// `GET`, `HEAD`, …
    public var method: String
    /// The percent-decoded path, without the query.
    public var path: String
    /// The header fields, names lowercased.
    public var headers: [String: String]
    /// Which connection carried it, numbered from 1 in accept order.
    public var connectionID: Int
    /// The query as sent (still percent-encoded, without the `?`); nil when there was none.
    public var query: String? = nil
    /// The request body (announced by `Content-Length`); empty when there was none.
    public var body = Data()
    /// The `Range` header, if any.
    public var range: String? { headers["range"] }

    /// The query's `name=value` pairs, percent-decoded (`+` stays `+`); a name given twice
    /// keeps its last value, a pair without `=` has an empty value.
    public var queryItems: [String: String] {
      guard let query, !query.isEmpty else { return [:] }
      var items: [String: String] = [:]
      for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let value = parts.count > 1 ? String(parts[1]) : ""
        items[name.removingPercentEncoding ?? name] = value.removingPercentEncoding ?? value
      }
      return items
    }
  }

  /// Decides before a request is served whether to refuse it: a status to answer with,
  /// or nil to serve it (a CDN checking URL signatures, for one).
  public typealias RequestGate = @Sendable (LoggedRequest) -> Int?
  /// Rewrites a body before it is sent (ranges apply to the rewritten body).
  public typealias BodyRewriter = @Sendable (LoggedRequest, Data) -> Data

  let condition = NSCondition()
  private var gate: RequestGate?
  private var rewriter: BodyRewriter?
  private var responseDelayMs = 0
  private let directory: URL?
  private var files: [String: Data]
  private var faults: [String: Fault]
  /// Dynamic answers by path (see `setResponder(for:_:)`).
  private var responders: [String: Responder] = [:]
  /// How many requests each path's fault has answered since it was set (for `.failTimes`).
  private var faultUses: [String: Int] = [:]
  private var log: [LoggedRequest] = []
  /// Body bytes written to clients since start or the last `resetSentBodyBytes()`.
  private var sentBodyBytes = 0
  private var listenFD: Int32 = -1
  private var boundPort = 0
  private var running = false
  private(set) var stopping = false
  private var acceptThread: pthread_t?
  private var connectionThreads: [pthread_t] = []
  private var openConnections: [Int: Int32] = [:]
  private var nextConnectionID = 1

  /// Creates a stopped server over `files` (paths like "/a.bin") and the files under
  /// `directory`; an in-memory file wins over a file of the same path on disk.
  public init(directory: URL? = nil, files: [String: Data] = [:], faults: [String: Fault] = [:]) {
    self.directory = directory
    self.files = Dictionary(uniqueKeysWithValues: files.map { (Self.normalize($0.key), $0.value) })
    self.faults = Dictionary(
      uniqueKeysWithValues: faults.map { (Self.normalize($0.key), $0.value) })
  }

  deinit {
    if listenFD >= 0 { close(listenFD) }
  }

  /// Binds an ephemeral port on 127.0.0.1 and starts accepting; throws `.ioError` when
  /// the socket cannot be set up. Starting a running server does nothing.
  public func start() throws(PlayheadError) {
    condition.lock()
    defer { condition.unlock() }
    if running { return }
    guard !stopping else {
      throw PlayheadError(.invalidState, "HTTPTestServer cannot be restarted after stop()")
    }
    let fd: Int32
    let port: Int
    switch TestSockets.bindLoopback() {
    case .success(let bound):
      fd = bound.fd
      port = bound.port
    case .failure(let failure):
      throw PlayheadError(.ioError, "HTTPTestServer: \(failure.description)")
    }
    guard listen(fd, 64) == 0 else {
      let message = String(cString: strerror(errno))
      close(fd)
      throw PlayheadError(.ioError, "HTTPTestServer: listen failed: \(message)")
    }
    guard let thread = TestSockets.spawnThread({ [self] in acceptLoop(fd) }) else {
      close(fd)
      throw PlayheadError(.ioError, "HTTPTestServer: cannot start the accept thread")
    }
    listenFD = fd
    boundPort = port
    acceptThread = thread
    running = true
  }

  /// Closes every socket promptly, wakes hung requests and joins all threads. Safe to call
  /// twice; a stopped server cannot be started again.
  public func stop() {
    condition.lock()
    guard running else {
      stopping = true
      condition.unlock()
      return
    }
    running = false
    stopping = true
    condition.broadcast()
    let fd = listenFD
    let accepter = acceptThread
    acceptThread = nil
    condition.unlock()

    // shutdown() wakes the blocked accept(); no new connection threads start after it.
    shutdown(fd, Int32(SHUT_RDWR))
    if let accepter { TestSockets.join(accepter) }

    condition.lock()
    for connection in openConnections.values {
      shutdown(connection, Int32(SHUT_RDWR))
    }
    let threads = connectionThreads
    connectionThreads = []
    condition.unlock()
    for thread in threads { TestSockets.join(thread) }

    condition.lock()
    close(listenFD)
    listenFD = -1
    condition.unlock()
  }

  /// The port the server listens on (0 before `start()`).
  public var port: Int {
    condition.lock()
    defer { condition.unlock() }
    return boundPort
  }

  /// `http://127.0.0.1:<port>/`.
  public var baseURL: URL {
    URL(string: "http://127.0.0.1:\(port)/")!
  }

  /// The URL of `path` ("/a.bin" or "a.bin") on this server.
  public func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(Self.normalize(path))")!
  }

  /// Serves `data` at `path`, or stops serving it from memory when `data` is nil.
  public func setFile(_ data: Data?, at path: String) {
    condition.lock()
    files[Self.normalize(path)] = data
    condition.unlock()
  }

  /// Makes `path` misbehave, or behave again when `fault` is nil.
  public func setFault(_ fault: Fault?, for path: String) {
    condition.lock()
    faults[Self.normalize(path)] = fault
    faultUses[Self.normalize(path)] = nil
    condition.unlock()
  }

  /// Answers every request for `path`, whatever its method, with what `respond` returns
  /// for it (nil removes the responder, and the path is served from the files again).
  ///
  /// Faults that answer by themselves (`.status`, `.respond`, `.redirect`, `.hang`,
  /// `.failTimes` while it fails, the steps of a `.sequence`) and the gate apply first;
  /// faults that shape a file's body do not apply. The responder runs on the connection's
  /// thread, once per request, after the request and its body were logged.
  ///
  /// ```swift
  /// server.setResponder(for: "/licence") { request in
  ///   HTTPTestServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: answer)
  /// }
  /// ```
  public func setResponder(for path: String, _ respond: Responder?) {
    condition.lock()
    responders[Self.normalize(path)] = respond
    condition.unlock()
  }

  /// The responder for `path`, if one was set.
  func responder(for path: String) -> Responder? {
    condition.lock()
    defer { condition.unlock() }
    return responders[path]
  }

  /// Refuses requests `gate` returns a status for (nil removes the gate). Faults apply
  /// first; a refused request is still logged.
  public func setRequestGate(_ gate: RequestGate?) {
    condition.lock()
    self.gate = gate
    condition.unlock()
  }

  /// Rewrites every body that is served with `rewriter` (nil serves bodies as they are).
  public func setBodyRewriter(_ rewriter: BodyRewriter?) {
    condition.lock()
    self.rewriter = rewriter
    condition.unlock()
  }

  /// Holds every answer back by `milliseconds` after its request head arrived (0, the
  /// default, answers at once): a loopback server with a network's latency, for
  /// benchmarks such as `Benchmarks/ads.sh`. The wait ends early on `stop()`.
  public func setResponseDelay(milliseconds: Int) {
    condition.lock()
    responseDelayMs = max(0, milliseconds)
    condition.unlock()
  }

  /// The delay every answer waits, in milliseconds.
  var currentResponseDelayMs: Int {
    condition.lock()
    defer { condition.unlock() }
    return responseDelayMs
  }

  /// The gate's answer for `request` (nil: serve it).
  func gateStatus(for request: LoggedRequest) -> Int? {
    condition.lock()
    let gate = self.gate
    condition.unlock()
    return gate?(request)
  }

  /// `body` as the rewriter makes it for `request`.
  func rewrite(_ body: Data, for request: LoggedRequest) -> Data {
    condition.lock()
    let rewriter = self.rewriter
    condition.unlock()
    return rewriter.map { $0(request, body) } ?? body
  }

  /// How many requests for `path` ("/a.bin" or "a.bin") were received so far (since the
  /// last `clearRequests()`).
  public func requestCount(for path: String) -> Int {
    let wanted = Self.normalize(path)
    condition.lock()
    defer { condition.unlock() }
    return log.reduce(0) { $0 + ($1.path == wanted ? 1 : 0) }
  }

  /// Every request received so far, in arrival order.
  public var requests: [LoggedRequest] {
    condition.lock()
    defer { condition.unlock() }
    return log
  }

  /// Forgets the logged requests.
  public func clearRequests() {
    condition.lock()
    log.removeAll()
    condition.unlock()
  }

  /// Waits until at least `count` requests were logged; false when `timeoutMs`
  /// passed first.
  public func waitForRequests(count: Int, timeoutMs: Int = 10_000) -> Bool {
    let deadline = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
    condition.lock()
    defer { condition.unlock() }
    while log.count < count {
      if !condition.wait(until: deadline) { return log.count >= count }
    }
    return true
  }

  /// Forgets the count of body bytes sent (see `waitForSentBodyBytes`).
  public func resetSentBodyBytes() {
    condition.lock()
    sentBodyBytes = 0
    condition.unlock()
  }

  /// Waits until at least `count` response-body bytes were written to clients since the
  /// last reset (a point inside a transfer, chosen by bytes rather than time); false when
  /// `timeoutMs` passed first.
  public func waitForSentBodyBytes(atLeast count: Int, timeoutMs: Int = 10_000) -> Bool {
    let deadline = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
    condition.lock()
    defer { condition.unlock() }
    while sentBodyBytes < count {
      if !condition.wait(until: deadline) { return sentBodyBytes >= count }
    }
    return true
  }

  /// Adds `count` body bytes written to a client and wakes the waiters.
  func recordSentBodyBytes(_ count: Int) {
    condition.lock()
    sentBodyBytes += count
    condition.broadcast()
    condition.unlock()
  }

  /// A port on 127.0.0.1 where nothing listens (bound once, then released), for
  /// connection-refused tests.
  public static func unusedPort() -> Int {
    switch TestSockets.bindLoopback() {
    case .success(let bound):
      close(bound.fd)
      return bound.port
    case .failure:
      return 9
    }
  }

  // MARK: Internals

  static func normalize(_ path: String) -> String {
    path.hasPrefix("/") ? path : "/" + path
  }

  private func acceptLoop(_ fd: Int32) {
    while true {
      let connection = accept(fd, nil, nil)
      if connection < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        return
      }
      _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
      // Headers and body go out in separate writes; without this, Nagle's algorithm and
      // delayed acknowledgements add tens of milliseconds to each response.
      var noDelay: Int32 = 1
      setsockopt(
        connection, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
      condition.lock()
      if stopping {
        condition.unlock()
        close(connection)
        return
      }
      let id = nextConnectionID
      nextConnectionID += 1
      openConnections[id] = connection
      if let thread = TestSockets.spawnThread({ [self] in serveConnection(connection, id: id) }) {
        connectionThreads.append(thread)
      } else {
        openConnections[id] = nil
        close(connection)
      }
      condition.unlock()
    }
  }

  /// Called by a connection thread when it is done; the descriptor is closed under the
  /// lock so that `stop()` never shuts down a number the system already reused.
  func finishConnection(_ fd: Int32, id: Int) {
    condition.lock()
    openConnections[id] = nil
    close(fd)
    condition.unlock()
  }

  func record(_ request: LoggedRequest) {
    condition.lock()
    log.append(request)
    condition.broadcast()
    condition.unlock()
  }

  /// The fault and body for `path`: in-memory files first, then the directory.
  ///
  /// A `.failTimes` fault comes back as `.status` while it has failures left, then as no
  /// fault; a `.sequence` fault as the step for this request. Each lookup uses one.
  func lookup(_ path: String) -> (fault: Fault?, body: Data?) {
    condition.lock()
    var fault = faults[path]
    switch fault {
    case .failTimes(let count, let status)?:
      let used = faultUses[path, default: 0]
      faultUses[path] = used + 1
      fault = used < count ? .status(status) : nil
    case .sequence(let steps, let then)?:
      let used = faultUses[path, default: 0]
      faultUses[path] = used + 1
      fault = used < steps.count ? steps[used] : then
    default:
      break
    }
    let memory = files[path]
    condition.unlock()
    if let memory { return (fault, memory) }
    guard let directory else { return (fault, nil) }
    let components = path.split(separator: "/").map(String.init)
    if components.isEmpty || components.contains("..") { return (fault, nil) }
    let fileURL = components.reduce(directory) { $0.appendingPathComponent($1) }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else { return (fault, nil) }
    return (fault, FileManager.default.contents(atPath: fileURL.path))
  }

  /// Blocks a `.hang` request until `stop()`.
  func waitUntilStopped() {
    condition.lock()
    while !stopping { condition.wait() }
    condition.unlock()
  }

  /// Blocks until `deadline` or `stop()`; false when the server is stopping.
  func pause(until deadline: Date) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !stopping {
      if !condition.wait(until: deadline) { return !stopping }
    }
    return false
  }
}
