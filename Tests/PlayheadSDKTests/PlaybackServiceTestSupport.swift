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

  /// A service for this API; `timeoutSeconds` short for the timeout tests.
  func service(
    policyKey: String? = CatalogTestAPI.policyKey, headers: [String: String] = [:],
    timeoutSeconds: Double = 10, dataSource: (any DataSource)? = nil
  ) -> PlaybackService {
    PlaybackService(
      accountID: Self.account, policyKey: policyKey, baseURL: baseURL, headers: headers,
      timeoutSeconds: timeoutSeconds, dataSource: dataSource)
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

/// A data source that answers every load from a closure and records the requests, for
/// tests that need no network (and for the many bodies of the garbage test).
final class StubDataSource: DataSource, @unchecked Sendable {
  // Unchecked Sendable: `recorded` is guarded by `lock`; `answer` is immutable.
  private let lock = NSLock()
  private var recorded: [DataRequest] = []
  private let answer: @Sendable (DataRequest) throws(PlayheadError) -> DataResponse

  init(answer: @escaping @Sendable (DataRequest) throws(PlayheadError) -> DataResponse) {
    self.answer = answer
  }

  /// Answers every request with `status` and `body`.
  convenience init(status: Int, body: Data) {
    self.init { request throws(PlayheadError) in
      DataResponse(
        data: body, url: request.url, statusCode: status, startClock: .zero, endClock: .zero)
    }
  }

  var requests: [DataRequest] {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }

  func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse {
    lock.lock()
    recorded.append(request)
    lock.unlock()
    return try answer(request)
  }

  func cancelAll() {}
}
