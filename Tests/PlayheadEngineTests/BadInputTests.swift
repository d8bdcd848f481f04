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
    let player = Player(url: url, configuration: configuration)
    defer { player.close() }
    let recorder = EventRecorder(player)
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
    configuration.http.timeoutSeconds = 0.5
    let error = try failure(of: server.url("/hang.mp4"), configuration: configuration)
    XCTAssertEqual(error.code, .timedOut)
  }

  func testCloseReturnsWhileTheServerHangs() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory(), faults: ["/hang.mp4": .hang])
    try server.start()
    defer { server.stop() }
    var configuration = PlayerConfiguration.fast()
    configuration.http.timeoutSeconds = 600
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
