import Foundation
import PlayheadTestSupport
import XCTest

/// An empty playlist (a file or an HTTP body of zero bytes) is a playlist error — exit 1,
/// a message that says "empty" — for `playlist`, `probe` and `play`, not a source error
/// (exit 3).
final class EmptyPlaylistCommandTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-empty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private static let verbs: [[String]] = [["playlist"], ["probe"], ["play", "--fast"]]

  private func assertEmptyPlaylistError(
    _ input: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    for verb in Self.verbs {
      let result = try CLIRunner.run(verb + [input])
      XCTAssertEqual(result.status, 1, "\(verb) \(input): \(result.stderr)", file: file, line: line)
      XCTAssertTrue(
        result.stderr.contains("the playlist is empty"), "\(verb): \(result.stderr)", file: file,
        line: line)
      XCTAssertFalse(result.stderr.contains("file is empty"), result.stderr, file: file, line: line)
    }
  }

  func testEmptyLocalFile_isAPlaylistErrorForEveryVerb() throws {
    let path = folder.appendingPathComponent("empty.m3u8").path
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
    try assertEmptyPlaylistError(path)
  }

  func testBlankLinesOnly_isAPlaylistErrorForEveryVerb() throws {
    let path = folder.appendingPathComponent("blank.m3u8").path
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("\n\r\n  \n".utf8)))
    try assertEmptyPlaylistError(path)
  }

  func testEmptyHTTPBody_isAPlaylistErrorForEveryVerb() throws {
    let server = HTTPTestServer(files: ["/live/empty.m3u8": Data()])
    try server.start()
    defer { server.stop() }
    try assertEmptyPlaylistError(server.url("/live/empty.m3u8").absoluteString)
    XCTAssertGreaterThanOrEqual(server.requestCount(for: "/live/empty.m3u8"), 3)
  }
}
