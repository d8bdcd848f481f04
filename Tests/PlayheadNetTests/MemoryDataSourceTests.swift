import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

/// `MemoryDataSource`: one resource for every URL, or one per URL.
final class MemoryDataSourceTests: XCTestCase {
  private let bytes = generatedBytes(count: 1_000, seed: 7)

  func testData_answersEveryURL_withRangesCutAtTheEnd() throws {
    let source = MemoryDataSource(data: bytes)
    for url in [URL(string: "memory:a")!, URL(string: "https://example.com/b.png")!] {
      let head = try source.open(DataRequest(url: url))
      XCTAssertEqual(head.url, url)
      XCTAssertEqual(head.length, 1_000)
      XCTAssertEqual(head.totalLength, 1_000)
      XCTAssertEqual(try drain(source, chunk: 333), bytes)
    }
    let cut = try source.open(
      DataRequest(url: URL(string: "memory:a")!, range: ByteRange(offset: 900, length: 500)))
    XCTAssertEqual(cut.length, 100)
    XCTAssertEqual(try drain(source), bytes.subdata(in: 900..<1_000))
    XCTAssertEqual(source.bufferState, .local)
  }

  func testRangeStartingAtTheEnd_throwsInvalidArgument() {
    let source = MemoryDataSource(data: bytes)
    let error = playheadError { () throws(PlayheadError) in
      try source.open(
        DataRequest(url: URL(string: "memory:a")!, range: ByteRange(offset: 1_000, length: 1)))
    }
    XCTAssertEqual(error?.code, .invalidArgument)
    XCTAssertEqual(
      error?.message, "byte range 1@1000 starts past the end of the 1000-byte resource memory:a")
  }

  func testResources_answerTheirOwnURLs_andOthersAreNotFound() throws {
    let a = URL(string: "memory:/a")!
    let b = URL(string: "memory:/b")!
    let source = MemoryDataSource(resources: [a: Data([1, 2, 3]), b: Data([4])])
    _ = try source.open(DataRequest(url: b))
    XCTAssertEqual(try drain(source), Data([4]))
    _ = try source.open(DataRequest(url: a, range: ByteRange(offset: 1, length: nil)))
    XCTAssertEqual(try drain(source), Data([2, 3]))
    let missing = playheadError { () throws(PlayheadError) in
      try source.open(DataRequest(url: URL(string: "memory:/c")!))
    }
    XCTAssertEqual(missing?.code, .fileNotFound)
    XCTAssertEqual(missing?.message, "no resource in memory at memory:/c")
    XCTAssertEqual(missing?.category, .source)
  }

  func testEmptyResource_opensWithLengthZero() throws {
    let source = MemoryDataSource(data: Data())
    let head = try source.open(DataRequest(url: URL(string: "memory:empty")!))
    XCTAssertEqual(head.length, 0)
    XCTAssertEqual(try drain(source), Data())
  }

  func testCancel_isTerminal() throws {
    let source = MemoryDataSource(data: bytes)
    _ = try source.open(DataRequest(url: URL(string: "memory:a")!))
    source.cancel()
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try readSome(source, count: 10) }?.code,
      .cancelled)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in
        try source.open(DataRequest(url: URL(string: "memory:a")!))
      }?.code, .cancelled)
  }
}
