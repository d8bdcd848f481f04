import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// A local Playback API for the catalog tests: an `HTTPTestServer` whose paths under
/// `/playback/v1/accounts/<account>/` answer with JSON written for the tests.
final class CatalogTestAPI {
  static let account = "1234567890"
  static let policyKey = "BCpkTestPolicyKey"

  let server: HTTPTestServer

  /// Starts a server (over the fixture media when `withFixtures`) and stops it when the
  /// test ends.
  init(testCase: XCTestCase, withFixtures: Bool = false) throws {
    server =
      withFixtures ? HTTPTestServer(directory: try Fixtures.directory()) : HTTPTestServer()
    try server.start()
    let server = self.server
    testCase.addTeardownBlock { server.stop() }
  }

  /// `http://127.0.0.1:<port>/playback/v1`.
  var baseURL: URL { server.url("/playback/v1") }

  /// A service for this API, with no retries; `timeoutMs` short for the timeout tests.
  func service(
    policyKey: String? = CatalogTestAPI.policyKey, headers: [String: String] = [:],
    timeoutMs: Int = 10_000, network: (any DataSourceFactory)? = nil
  ) -> PlaybackService {
    PlaybackService(
      accountID: Self.account, policyKey: policyKey, baseURL: baseURL, headers: headers,
      request: RequestConfiguration(timeoutMs: timeoutMs, retryCount: 0), network: network)
  }

  /// The server path of a video (`id` is `ID` or `ref:REF`, not encoded).
  static func videoPath(_ id: String) -> String {
    "/playback/v1/accounts/\(account)/videos/\(id)"
  }

  /// The server path of a playlist.
  static func playlistPath(_ id: String) -> String {
    "/playback/v1/accounts/\(account)/playlists/\(id)"
  }

  /// Serves `json` (text) as the video `id`.
  func serveVideo(_ id: String, json: String) {
    server.setFile(Data(json.utf8), at: Self.videoPath(id))
  }

  /// Serves `json` (text) as the playlist `id`.
  func servePlaylist(_ id: String, json: String) {
    server.setFile(Data(json.utf8), at: Self.playlistPath(id))
  }

  /// The logged requests for `path`.
  func requests(to path: String) -> [HTTPTestServer.LoggedRequest] {
    server.requests.filter { $0.path == path }
  }
}

/// Runs an async catalog call from a synchronous test and returns its outcome.
///
/// The closure's errors are untyped only because closures do not infer typed throws; an
/// error that is not a `PlaybackServiceError` fails the test.
func catalogOutcome<T: Sendable>(
  file: StaticString = #filePath, line: UInt = #line,
  _ operation: @escaping @Sendable () async throws -> T
) -> Result<T, PlaybackServiceError> {
  let box = CatalogOutcomeBox<T>()
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    do {
      box.set(.success(try await operation()))
    } catch let error as PlaybackServiceError {
      box.set(.failure(error))
    } catch {
      XCTFail("not a PlaybackServiceError: \(error)", file: file, line: line)
      box.set(.failure(.invalidRequest(message: "unexpected error type")))
    }
    done.signal()
  }
  done.wait()
  return box.get()!
}

/// The outcome handed from the task to the test thread.
private final class CatalogOutcomeBox<T: Sendable>: @unchecked Sendable {
  // Unchecked Sendable: `value` is guarded by `lock`.
  private let lock = NSLock()
  private var value: Result<T, PlaybackServiceError>?

  func set(_ result: Result<T, PlaybackServiceError>) {
    lock.lock()
    value = result
    lock.unlock()
  }

  func get() -> Result<T, PlaybackServiceError>? {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}

extension Result {
  /// The success value; fails the test and throws for a failure.
  func value(file: StaticString = #filePath, line: UInt = #line) throws -> Success {
    switch self {
    case .success(let value): return value
    case .failure(let error):
      XCTFail("expected success, got \(error)", file: file, line: line)
      throw error
    }
  }

  /// The failure; fails the test and throws for a success.
  func failure(file: StaticString = #filePath, line: UInt = #line) throws -> Failure {
    switch self {
    case .success(let value):
      XCTFail("expected a failure, got \(value)", file: file, line: line)
      throw CatalogTestError(description: "unexpected success")
    case .failure(let error): return error
    }
  }
}

struct CatalogTestError: Error, CustomStringConvertible {
  var description: String
}

/// What `StubNetwork` answers a request with: a status, header fields and a body.
struct StubAnswer: Sendable {
  var status: Int
  var headers: [String: String] = [:]
  var body: Data
}

/// A network that answers every request from a closure and records the requests, for tests
/// that need no network (and for the many bodies of the garbage test): each transfer gets a
/// fresh `StubDataSource`.
final class StubNetwork: DataSourceFactory, Sendable {
  private let recorded = Locked<[DataRequest]>([])
  private let answer: @Sendable (DataRequest) throws(PlayheadError) -> StubAnswer

  init(answer: @escaping @Sendable (DataRequest) throws(PlayheadError) -> StubAnswer) {
    self.answer = answer
  }

  /// Answers every request with `status` and `body`.
  convenience init(status: Int, body: Data) {
    self.init { _ throws(PlayheadError) in StubAnswer(status: status, body: body) }
  }

  /// The requests opened, in order.
  var requests: [DataRequest] { recorded.value }

  func makeDataSource() -> any DataSource {
    StubDataSource { [recorded, answer] request throws(PlayheadError) in
      recorded.withLock { $0.append(request) }
      return try answer(request)
    }
  }
}

/// One transfer of a `StubNetwork`: `open` asks the closure for the answer, reads stream its
/// body.
final class StubDataSource: DataSource, Sendable {
  private let answer: @Sendable (DataRequest) throws(PlayheadError) -> StubAnswer
  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var body: Data?
    var position = 0
  }

  init(answer: @escaping @Sendable (DataRequest) throws(PlayheadError) -> StubAnswer) {
    self.answer = answer
  }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    if state.value.cancelled { throw PlayheadError.sourceCancelled(request.url) }
    let reply = try answer(request)
    state.withLock {
      $0.body = reply.body
      $0.position = 0
    }
    return DataResponseHead(
      url: request.url, statusCode: reply.status, headers: reply.headers,
      length: Int64(reply.body.count), totalLength: Int64(reply.body.count))
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    try state.withLock { (state) throws(PlayheadError) -> Int in
      if state.cancelled { throw PlayheadError.sourceCancelled(nil) }
      guard let body = state.body else { throw PlayheadError.notOpen(nil) }
      let count = min(buffer.count, body.count - state.position)
      guard count > 0 else { return 0 }
      body.copyBytes(
        to: buffer.bindMemory(to: UInt8.self),
        from: body.startIndex + state.position..<body.startIndex + state.position + count)
      state.position += count
      return count
    }
  }

  func close() {
    state.withLock { $0.body = nil }
  }

  func cancel() {
    state.withLock { $0.cancelled = true }
  }
}
