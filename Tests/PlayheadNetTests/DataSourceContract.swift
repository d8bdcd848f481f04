import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

/// The behaviour every `DataSource` must show, checked against each implementation by the
/// `…ContractTests` classes.
///
/// Each check gets a fresh source serving `DataSourceContract.files` (name → bytes) and a
/// way to turn a name into that source's URL.
struct DataSourceContract {
  struct Fixture {
    var source: any DataSource
    var url: (String) -> URL
    /// The listener the source was created with, when it takes one.
    var listener: RecordingListener?
  }

  static let big = generatedBytes(count: 3_000_000, seed: 0xBEEF)
  static let small = generatedBytes(count: 1_000, seed: 0x5EED)
  static let files: [String: Data] = ["/big.bin": big, "/small.bin": small]

  let make: () throws -> Fixture
  let file: StaticString
  let line: UInt

  init(file: StaticString = #filePath, line: UInt = #line, make: @escaping () throws -> Fixture) {
    self.make = make
    self.file = file
    self.line = line
  }

  func wholeResource() throws {
    let fixture = try make()
    let response = try fixture.source.load(DataRequest(url: fixture.url("/big.bin")))
    XCTAssertEqual(response.data, Self.big, file: file, line: line)
    XCTAssertGreaterThanOrEqual(response.endClock, response.startClock, file: file, line: line)
    XCTAssertEqual(response.url, fixture.url("/big.bin"), file: file, line: line)
  }

  func byteRanges() throws {
    let fixture = try make()
    let url = fixture.url("/big.bin")
    let middle = try fixture.source.load(
      DataRequest(url: url, range: ByteRange(offset: 1_000_000, length: 123_457)))
    XCTAssertEqual(middle.data, Self.big.subdata(in: 1_000_000..<1_123_457), file: file, line: line)
    let tail = try fixture.source.load(
      DataRequest(url: url, range: ByteRange(offset: 2_999_000, length: nil)))
    XCTAssertEqual(tail.data, Self.big.subdata(in: 2_999_000..<3_000_000), file: file, line: line)
    let pastEnd = try fixture.source.load(
      DataRequest(url: url, range: ByteRange(offset: 2_999_990, length: 100)))
    XCTAssertEqual(
      pastEnd.data, Self.big.subdata(in: 2_999_990..<3_000_000), file: file, line: line)
    let empty = try fixture.source.load(
      DataRequest(url: url, range: ByteRange(offset: 10, length: 0)))
    XCTAssertEqual(empty.data, Data(), file: file, line: line)
  }

  func rangeStartingPastTheEndFails() throws {
    let fixture = try make()
    let url = fixture.url("/small.bin")
    let error = playheadError(
      { () throws(PlayheadError) in
        try fixture.source.load(DataRequest(url: url, range: ByteRange(offset: 5_000, length: 10)))
      }, file: file, line: line)
    XCTAssertNotNil(error, file: file, line: line)
    XCTAssertNotEqual(error?.code, .cancelled, file: file, line: line)
  }

  func missingResourceFailsAsASourceError() throws {
    let fixture = try make()
    let error = playheadError(
      { () throws(PlayheadError) in
        try fixture.source.load(DataRequest(url: fixture.url("/nope.bin")))
      },
      file: file, line: line)
    XCTAssertEqual(error?.category, .source, file: file, line: line)
    XCTAssertNotEqual(error?.code, .cancelled, file: file, line: line)
  }

  func progressGrowsAndEndsAtTheTotal() throws {
    let fixture = try make()
    let recorder = ProgressRecorder()
    let response = try fixture.source.load(
      DataRequest(url: fixture.url("/big.bin")), progress: recorder.callback)
    let reports = recorder.reports
    XCTAssertFalse(reports.isEmpty, file: file, line: line)
    XCTAssertEqual(reports.last?.bytesLoaded, Self.big.count, file: file, line: line)
    for (earlier, later) in zip(reports, reports.dropFirst()) {
      XCTAssertLessThanOrEqual(earlier.bytesLoaded, later.bytesLoaded, file: file, line: line)
      XCTAssertLessThanOrEqual(earlier.elapsed, later.elapsed, file: file, line: line)
    }
    for report in reports {
      XCTAssertEqual(report.request.url, fixture.url("/big.bin"), file: file, line: line)
      XCTAssertGreaterThanOrEqual(report.elapsed, .zero, file: file, line: line)
      XCTAssertLessThanOrEqual(report.elapsed, response.duration, file: file, line: line)
      if let expected = report.bytesExpected {
        XCTAssertEqual(expected, Self.big.count, file: file, line: line)
      }
    }
  }

  func abandoningThroughProgressThrowsCancelled() throws {
    let fixture = try make()
    let recorder = ProgressRecorder { _ in false }
    let error = playheadError(
      { () throws(PlayheadError) in
        try fixture.source.load(
          DataRequest(url: fixture.url("/big.bin")), progress: recorder.callback)
      }, file: file, line: line)
    XCTAssertEqual(error?.code, .cancelled, file: file, line: line)
    XCTAssertEqual(recorder.reports.count, 1, file: file, line: line)
    // A small body may be complete by the first report; saying stop still abandons it.
    let small = playheadError(
      { () throws(PlayheadError) in
        try fixture.source.load(
          DataRequest(url: fixture.url("/small.bin")), progress: { _ in false })
      }, file: file, line: line)
    XCTAssertEqual(small?.code, .cancelled, file: file, line: line)
    // The source still works for the next load.
    XCTAssertEqual(
      try fixture.source.load(DataRequest(url: fixture.url("/small.bin"))).data, Self.small,
      file: file, line: line)
  }

  func cancelAllMakesLaterLoadsThrowCancelled() throws {
    let fixture = try make()
    XCTAssertEqual(
      try fixture.source.load(DataRequest(url: fixture.url("/small.bin"))).data, Self.small,
      file: file, line: line)
    fixture.source.cancelAll()
    fixture.source.cancelAll()
    let error = playheadError(
      { () throws(PlayheadError) in
        try fixture.source.load(DataRequest(url: fixture.url("/small.bin")))
      },
      file: file, line: line)
    XCTAssertEqual(error?.code, .cancelled, file: file, line: line)
  }

  func listenerHearsEachSuccessfulTransfer() throws {
    let fixture = try make()
    guard let listener = fixture.listener else {
      XCTFail("the fixture has no listener", file: file, line: line)
      return
    }
    let first = try fixture.source.load(DataRequest(url: fixture.url("/big.bin")))
    _ = playheadError(
      { () throws(PlayheadError) in
        try fixture.source.load(DataRequest(url: fixture.url("/nope.bin")))
      },
      file: file, line: line)
    _ = try fixture.source.load(
      DataRequest(url: fixture.url("/small.bin"), range: ByteRange(offset: 100, length: 50)))
    let transfers = listener.transfers
    XCTAssertEqual(transfers.map(\.bytes), [Self.big.count, 50], file: file, line: line)
    XCTAssertEqual(transfers.first?.duration, first.duration, file: file, line: line)
  }
}
