import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `URLArgument` and `DefaultDataSource`, which opens files and HTTP(S) by scheme.
final class DefaultDataSourceTests: XCTestCase {
  private func reader(_ url: URL, _ configuration: RequestConfiguration = .init())
    -> DataSourceReader
  {
    DataSourceReader(
      source: DefaultDataSourceFactory(configuration: configuration).makeDataSource(),
      request: DataRequest(url: url))
  }

  private func openError(_ url: URL, _ configuration: RequestConfiguration = .init())
    -> PlayheadError?
  {
    playheadError { () throws(PlayheadError) in try self.reader(url, configuration).open() }
  }

  func testURLFromArgument_absolutePath_isFileURL() {
    let url = URLArgument.url(fromArgument: "/tmp/some dir/clip.mp4")
    XCTAssertTrue(url.isFileURL)
    XCTAssertEqual(url.path, "/tmp/some dir/clip.mp4")
  }

  func testURLFromArgument_relativePath_isResolvedAgainstTheCurrentDirectory() {
    let url = URLArgument.url(fromArgument: "media/clip.mp4")
    XCTAssertTrue(url.isFileURL)
    let expected = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent("media/clip.mp4").standardizedFileURL.path
    XCTAssertEqual(url.path, expected)
  }

  func testURLFromArgument_withScheme_isParsedAsURL() {
    XCTAssertEqual(
      URLArgument.url(fromArgument: "https://example.test/a.mp4?x=1").absoluteString,
      "https://example.test/a.mp4?x=1")
    XCTAssertEqual(URLArgument.url(fromArgument: "ftp://host/a.mp4").scheme, "ftp")
    XCTAssertEqual(URLArgument.url(fromArgument: "file:///tmp/a.mp4").path, "/tmp/a.mp4")
  }

  func testURLFromArgument_withUnsafeCharacters_isPercentEncoded() {
    let url = URLArgument.url(fromArgument: "http://example.test/my clip.mp4")
    XCTAssertEqual(url.scheme, "http")
    XCTAssertEqual(url.path, "/my clip.mp4")
  }

  func testFileURL_isReadAsALocalFile() throws {
    let directory = try makeTemporaryDirectory(for: self)
    let url = directory.appendingPathComponent("a.bin")
    let data = generatedBytes(count: 2000)
    try data.write(to: url)
    let reader = reader(url)
    try reader.open()
    XCTAssertEqual(reader.length, 2000)
    XCTAssertEqual(reader.bufferState, .local, "a file's bytes are all at hand")
    XCTAssertEqual(try readToEnd(reader), data)
  }

  func testMissingFile_throwsFileNotFound() throws {
    let url = try makeTemporaryDirectory(for: self).appendingPathComponent("nope.mp4")
    XCTAssertEqual(openError(url)?.code, .fileNotFound)
  }

  func testHTTPURL_isStreamedWithItsLength() throws {
    let data = generatedBytes(count: 3000)
    let server = try startServer(["/a.bin": data])
    let reader = reader(server.url("/a.bin"))
    try reader.open()
    XCTAssertEqual(reader.length, 3000)
    XCTAssertEqual(reader.head?.statusCode, 200)
    XCTAssertEqual(try readToEnd(reader), data)
    XCTAssertFalse(reader.bufferState?.isLocal ?? true)
  }

  func testHTTPURL404_failsAtOpen() throws {
    let server = try startServer([:])
    let error = openError(server.url("/missing.mp4"))
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 404)
  }

  func testHungServer_timesOutAtOpen() throws {
    let server = try startServer([:], faults: ["/a.bin": .hang])
    let error = openError(server.url("/a.bin"), RequestConfiguration(timeoutMs: 300))
    XCTAssertEqual(error?.code, .timedOut)
  }

  func testOneSource_opensFilesAndHTTPInTurn() throws {
    let directory = try makeTemporaryDirectory(for: self)
    let file = directory.appendingPathComponent("a.bin")
    try Data([1, 2, 3]).write(to: file)
    let server = try startServer(["/b.bin": Data([4, 5])])
    let source = DefaultDataSource(http: HTTPDataSourceFactory())
    for (url, bytes) in [
      (file, Data([1, 2, 3])), (server.url("/b.bin"), Data([4, 5])), (file, Data([1, 2, 3])),
    ] {
      _ = try source.open(DataRequest(url: url))
      XCTAssertEqual(try drain(source), bytes, url.absoluteString)
    }
    source.cancel()
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try source.open(DataRequest(url: file)) }?.code,
      .cancelled)
  }

  func testFTPURL_throwsUnsupportedScheme() {
    let url = URL(string: "ftp://example.test/a.mp4")!
    let error = openError(url)
    XCTAssertEqual(error?.code, .unsupportedScheme)
    XCTAssertEqual(error?.message, "unsupported URL scheme 'ftp' in ftp://example.test/a.mp4")
    XCTAssertEqual(error?.category, .source)
  }

  func testURLWithoutScheme_throwsUnsupportedScheme() {
    let error = openError(URL(string: "clip.mp4")!)
    XCTAssertEqual(error?.code, .unsupportedScheme)
    XCTAssertEqual(error?.message, "URL has no scheme: clip.mp4")
  }
}
