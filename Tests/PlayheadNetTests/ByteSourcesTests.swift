import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class ByteSourcesTests: XCTestCase {
  func testURLFromArgument_absolutePath_isFileURL() {
    let url = ByteSources.url(fromArgument: "/tmp/some dir/clip.mp4")
    XCTAssertTrue(url.isFileURL)
    XCTAssertEqual(url.path, "/tmp/some dir/clip.mp4")
  }

  func testURLFromArgument_relativePath_isResolvedAgainstTheCurrentDirectory() {
    let url = ByteSources.url(fromArgument: "media/clip.mp4")
    XCTAssertTrue(url.isFileURL)
    let expected = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent("media/clip.mp4").standardizedFileURL.path
    XCTAssertEqual(url.path, expected)
  }

  func testURLFromArgument_withScheme_isParsedAsURL() {
    XCTAssertEqual(
      ByteSources.url(fromArgument: "https://example.test/a.mp4?x=1").absoluteString,
      "https://example.test/a.mp4?x=1")
    XCTAssertEqual(ByteSources.url(fromArgument: "ftp://host/a.mp4").scheme, "ftp")
    XCTAssertEqual(ByteSources.url(fromArgument: "file:///tmp/a.mp4").path, "/tmp/a.mp4")
  }

  func testURLFromArgument_withUnsafeCharacters_isPercentEncoded() {
    let url = ByteSources.url(fromArgument: "http://example.test/my clip.mp4")
    XCTAssertEqual(url.scheme, "http")
    XCTAssertEqual(url.path, "/my clip.mp4")
  }

  func testOpen_fileURL_givesAFileSource() throws {
    let directory = try makeTemporaryDirectory(for: self)
    let url = directory.appendingPathComponent("a.bin")
    let data = generatedBytes(count: 2000)
    try data.write(to: url)
    let source = try ByteSources.open(url)
    XCTAssertTrue(source is FileByteSource)
    XCTAssertEqual(source.length, 2000)
    XCTAssertEqual(try readToEnd(source), data)
  }

  func testOpen_missingFile_throwsFileNotFound() throws {
    let url = try makeTemporaryDirectory(for: self).appendingPathComponent("nope.mp4")
    let error = playheadError { () throws(PlayheadError) in try ByteSources.open(url) }
    XCTAssertEqual(error?.code, .fileNotFound)
  }

  func testOpen_httpURL_givesAnHTTPSourceWithKnownLength() throws {
    let data = generatedBytes(count: 3000)
    let server = HTTPTestServer(files: ["/a.bin": data])
    try server.start()
    addTeardownBlock { server.stop() }
    let source = try ByteSources.open(server.url("/a.bin"))
    // The default configuration retries (3 times), so the HTTP source comes wrapped.
    XCTAssertTrue(source is RetryingByteSource)
    XCTAssertEqual(source.length, 3000)
    XCTAssertEqual(try readToEnd(source), data)
  }

  func testOpen_httpURL404_failsAtOpen() throws {
    let server = HTTPTestServer()
    try server.start()
    addTeardownBlock { server.stop() }
    let error = playheadError { () throws(PlayheadError) in
      try ByteSources.open(server.url("/missing.mp4"))
    }
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 404)
  }

  func testOpen_hungServer_timesOutAtOpen() throws {
    let server = HTTPTestServer(faults: ["/a.bin": .hang])
    try server.start()
    addTeardownBlock { server.stop() }
    let error = playheadError { () throws(PlayheadError) in
      try ByteSources.open(
        server.url("/a.bin"), http: HTTPRequestConfiguration(timeoutSeconds: 0.5))
    }
    XCTAssertEqual(error?.code, .timedOut)
  }

  func testOpen_ftpURL_throwsUnsupportedScheme() {
    let url = URL(string: "ftp://example.test/a.mp4")!
    let error = playheadError { () throws(PlayheadError) in try ByteSources.open(url) }
    XCTAssertEqual(error?.code, .unsupportedScheme)
    XCTAssertEqual(error?.message, "unsupported URL scheme 'ftp' in ftp://example.test/a.mp4")
    XCTAssertEqual(error?.category, .source)
  }

  func testOpen_urlWithoutScheme_throwsUnsupportedScheme() {
    let url = URL(string: "clip.mp4")!
    let error = playheadError { () throws(PlayheadError) in try ByteSources.open(url) }
    XCTAssertEqual(error?.code, .unsupportedScheme)
  }
}
