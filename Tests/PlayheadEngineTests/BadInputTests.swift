import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class BadInputTests: XCTestCase {
  /// Opens `url` in a fast player and returns the item's error.
  private func failure(of url: URL, configuration: PlayerConfiguration = .fast()) throws
    -> PlayheadError
  {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    defer { player.close() }
    player.play()
    recorder.waitFor(event: "failed")
    return try XCTUnwrap(player.currentItem?.error)
  }

  private func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-bad-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    return directory
  }

  func testMissingFile() throws {
    let error = try failure(of: URL(fileURLWithPath: "/nonexistent/playhead/movie.mp4"))
    XCTAssertEqual(error.code, .fileNotFound)
    XCTAssertEqual(error.category, .source)
  }

  func testDirectory() throws {
    XCTAssertEqual(try failure(of: try temporaryDirectory()).code, .isDirectory)
  }

  func testEmptyFile() throws {
    let file = try temporaryDirectory().appendingPathComponent("empty.mp4")
    FileManager.default.createFile(atPath: file.path, contents: Data())
    XCTAssertEqual(try failure(of: file).code, .emptySource)
  }

  func testTextRenamedMP4() throws {
    let error = try failure(of: try Fixtures.url("not-a-video.mp4"))
    XCTAssertEqual(error.code, .unsupportedFormat)
    XCTAssertEqual(error.category, .media)
    XCTAssertFalse(error.message.isEmpty)
  }

  func testTruncatedMP4() throws {
    XCTAssertEqual(try failure(of: try Fixtures.url("truncated.mp4")).code, .unsupportedFormat)
  }

  func testUnsupportedScheme() throws {
    let error = try failure(of: URL(string: "ftp://127.0.0.1/movie.mp4")!)
    XCTAssertEqual(error.code, .unsupportedScheme)
  }

  func testHTTP404() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let error = try failure(of: server.url("/missing.mp4"))
    XCTAssertEqual(error.code, .httpStatus)
    XCTAssertEqual(error.httpStatusCode, 404)
  }

  func testServerThatNeverAnswersTimesOut() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory(), faults: ["/hang.mp4": .hang])
    try server.start()
    defer { server.stop() }
    var configuration = PlayerConfiguration.fast()
    configuration.request.timeoutMs = 500
    let error = try failure(of: server.url("/hang.mp4"), configuration: configuration)
    XCTAssertEqual(error.code, .timedOut)
  }

  func testCloseReturnsWhileTheServerHangs() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory(), faults: ["/hang.mp4": .hang])
    try server.start()
    defer { server.stop() }
    var configuration = PlayerConfiguration.fast()
    configuration.request.timeoutMs = 600_000
    let player = Player(url: server.url("/hang.mp4"), configuration: configuration)
    player.play()
    XCTAssertTrue(server.waitForRequests(count: 1))
    let closed = expectation(description: "close returns")
    DispatchQueue.global().async {
      player.close()
      closed.fulfill()
    }
    // A liveness bound, far above what close needs: it guards against a hang only.
    wait(for: [closed], timeout: 10)
  }
}

final class BackupURLTests: XCTestCase {
  /// Counts the provider's calls and answers with a fixed URL.
  final class Provider: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [(URL, PlayheadError.Code)] = []
    let answer: URL?
    init(answer: URL?) { self.answer = answer }
    func backup(for url: URL, error: PlayheadError) -> URL? {
      lock.lock()
      calls.append((url, error.code))
      lock.unlock()
      return answer
    }
    var recorded: [(URL, PlayheadError.Code)] {
      lock.lock()
      defer { lock.unlock() }
      return calls
    }
  }

  func testUndecodableMediaPlaysTheBackupURL() throws {
    let undecodable = try Fixtures.url("unknown-codec.mkv")
    let provider = Provider(answer: try Fixtures.url("sample-h264-aac.mp4"))
    var configuration = PlayerConfiguration.fast()
    configuration.backupURLProvider = { url, error in provider.backup(for: url, error: error) }
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: undecodable, configuration: configuration)
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(provider.recorded.map(\.0), [undecodable])
    XCTAssertEqual(provider.recorded.first?.1, .noPlayableStreams)
    XCTAssertTrue(recorder.names.contains("backupSourceUsed"))
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
  }

  func testWithoutABackupTheItemFailsWithTheDecodingError() throws {
    let provider = Provider(answer: nil)
    var configuration = PlayerConfiguration.fast()
    configuration.backupURLProvider = { url, error in provider.backup(for: url, error: error) }
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("unknown-codec.mkv"), configuration: configuration)
    defer { player.close() }
    player.play()
    recorder.waitFor(event: "failed")
    XCTAssertEqual(player.currentItem?.error?.category, .media)
    XCTAssertEqual(provider.recorded.count, 1)
  }
}
