import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

/// Errors and timestamps of `FileDataSource` beyond the shared contract.
final class FileDataSourceTests: XCTestCase {
  func testLoad_openErrors_areTheFileByteSourceErrors() throws {
    let directory = try makeTemporaryDirectory(for: self)
    let empty = directory.appendingPathComponent("empty.bin")
    try Data().write(to: empty)
    let source = FileDataSource()
    let cases: [(URL, PlayheadError.Code)] = [
      (directory.appendingPathComponent("missing.bin"), .fileNotFound),
      (directory, .isDirectory),
      (empty, .emptySource),
      (URL(string: "https://example.com/a.bin")!, .unsupportedScheme),
    ]
    for (url, code) in cases {
      let error = playheadError { () throws(PlayheadError) in try source.load(DataRequest(url: url))
      }
      XCTAssertEqual(error?.code, code, url.absoluteString)
    }
  }

  func testLoad_rangeStartingAtTheEnd_throwsInvalidArgument() throws {
    let directory = try makeTemporaryDirectory(for: self)
    let file = directory.appendingPathComponent("a.bin")
    try generatedBytes(count: 100).write(to: file)
    let error = playheadError { () throws(PlayheadError) in
      try FileDataSource().load(DataRequest(url: file, range: ByteRange(offset: 100, length: 1)))
    }
    XCTAssertEqual(error?.code, .invalidArgument)
    XCTAssertEqual(
      error?.message, "byte range 1@100 starts past the end of the 100-byte file \(file.path)")
  }

  func testLoad_onAManualClock_timestampsWithIt() throws {
    let directory = try makeTemporaryDirectory(for: self)
    let file = directory.appendingPathComponent("a.bin")
    try generatedBytes(count: 100).write(to: file)
    let clock = ManualClock(start: ms(42))
    let response = try FileDataSource(clock: clock).load(DataRequest(url: file))
    XCTAssertEqual(response.startClock, ms(42))
    XCTAssertEqual(response.endClock, ms(42))
    XCTAssertEqual(response.data, generatedBytes(count: 100))
  }
}
