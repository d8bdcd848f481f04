import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `DataSourceReader`: random access over any source, seen through the opens it makes.
final class DataSourceReaderTests: XCTestCase {
  private let data = generatedBytes(count: 400_000, seed: 0xAB)
  private let url = URL(string: "memory:/media.bin")!

  private func reader(hidesLength: Bool = false) -> (DataSourceReader, LoggingDataSource) {
    let logged = LoggingDataSource(MemoryDataSource(data: data), hidesLength: hidesLength)
    return (
      DataSourceReader(source: logged, request: DataRequest(url: url, purpose: .media)), logged
    )
  }

  func testSequentialReads_useOneOpen() throws {
    let (reader, logged) = reader()
    XCTAssertEqual(try readToEnd(reader, chunk: 10_000), data)
    XCTAssertEqual(logged.ranges, [nil])
    XCTAssertEqual(logged.requests.first?.purpose, .media)
    XCTAssertEqual(reader.bytesRead, Int64(data.count))
    XCTAssertEqual(reader.url, url)
  }

  func testOpen_learnsTheLengthAndHead_andOpeningAgainDoesNothing() throws {
    let (reader, logged) = reader()
    XCTAssertNil(reader.length)
    XCTAssertNil(reader.head)
    try reader.open()
    try reader.open()
    XCTAssertEqual(reader.length, Int64(data.count))
    XCTAssertEqual(reader.head?.totalLength, Int64(data.count))
    XCTAssertEqual(logged.ranges, [nil])
  }

  func testShortForwardSkip_readsThrough_butALongOneOpensAgain() throws {
    let (reader, logged) = reader()
    XCTAssertEqual(try readFully(reader, at: 0, count: 100), data.prefix(100))
    // Up to `shortSeekBytes` past the position: read and dropped.
    let skipTo = 100 + Int(DataSourceReader.shortSeekBytes)
    XCTAssertEqual(
      try readFully(reader, at: Int64(skipTo), count: 100), data.subdata(in: skipTo..<skipTo + 100))
    XCTAssertEqual(logged.ranges, [nil])
    XCTAssertEqual(reader.bytesRead, 200, "skipped bytes are not handed out")
    // One byte further than that: a new open with a range.
    let far = skipTo + 100 + Int(DataSourceReader.shortSeekBytes) + 1
    XCTAssertEqual(
      try readFully(reader, at: Int64(far), count: 100), data.subdata(in: far..<far + 100))
    XCTAssertEqual(logged.ranges, [nil, ByteRange(offset: Int64(far), length: nil)])
  }

  func testBackwardSeek_pastTheRetainedHead_opensAgain() throws {
    let (reader, logged) = reader()
    XCTAssertEqual(
      try readFully(reader, at: 300_000, count: 1_000), data.subdata(in: 300_000..<301_000))
    XCTAssertEqual(
      try readFully(reader, at: 200_000, count: 1_000), data.subdata(in: 200_000..<201_000))
    XCTAssertEqual(
      logged.ranges,
      [ByteRange(offset: 300_000, length: nil), ByteRange(offset: 200_000, length: nil)])
  }

  func testRetainedHead_reReadFromTheStart_sendsNoSecondOpen() throws {
    let (reader, logged) = reader()
    let head = DataSourceReader.retainedHeadBytes
    XCTAssertEqual(try readFully(reader, at: 0, count: head + 1_000), data.prefix(head + 1_000))
    XCTAssertEqual(
      try readFully(reader, at: 350_000, count: 100), data.subdata(in: 350_000..<350_100))
    XCTAssertEqual(logged.ranges.count, 2)
    let readsBefore = logged.readCount
    // The probe goes back to the start: the first 64 KiB come from the reader itself.
    XCTAssertEqual(try readFully(reader, at: 0, count: head), data.prefix(head))
    XCTAssertEqual(try readFully(reader, at: 1_000, count: 10), data.subdata(in: 1_000..<1_010))
    XCTAssertEqual(logged.ranges.count, 2)
    XCTAssertEqual(logged.readCount, readsBefore)
    // Past the kept bytes the source is asked again.
    XCTAssertEqual(
      try readFully(reader, at: Int64(head), count: 10), data.subdata(in: head..<head + 10))
    XCTAssertEqual(logged.ranges.last, ByteRange(offset: Int64(head), length: nil))
  }

  func testLength_ofASourceThatDoesNotSayIt_isLearnedAtTheEnd() throws {
    let (reader, _) = reader(hidesLength: true)
    try reader.open()
    XCTAssertNil(reader.length)
    XCTAssertEqual(try readToEnd(reader, chunk: 50_000), data)
    XCTAssertEqual(reader.length, Int64(data.count))
    XCTAssertEqual(try readOnce(reader, at: Int64(data.count) + 5, count: 10), Data())
  }

  func testReadAfterAFailedRead_opensAgainAtTheOffsetAskedFor() throws {
    let (reader, logged) = reader()
    XCTAssertEqual(try readFully(reader, at: 0, count: 1_000), data.prefix(1_000))
    logged.failNextRead(with: PlayheadError(.connectionFailed, "reset", url: url))
    let error = playheadError { () throws(PlayheadError) in
      try readOnce(reader, at: 1_000, count: 1_000)
    }
    XCTAssertEqual(error?.code, .connectionFailed)
    XCTAssertFalse(reader.isReading)
    XCTAssertEqual(try readFully(reader, at: 1_000, count: 1_000), data.subdata(in: 1_000..<2_000))
    XCTAssertEqual(logged.ranges, [nil, ByteRange(offset: 1_000, length: nil)])
  }

  func testClose_makesTheNextReadOpenAgain() throws {
    let (reader, logged) = reader()
    XCTAssertEqual(
      try readFully(reader, at: 100_000, count: 10), data.subdata(in: 100_000..<100_010))
    reader.close()
    XCTAssertEqual(
      try readFully(reader, at: 100_010, count: 10), data.subdata(in: 100_010..<100_020))
    XCTAssertEqual(logged.ranges.count, 2)
  }

  func testBadArguments_negativeOffsetThrows_emptyBufferReadsNothing() throws {
    let (reader, logged) = reader()
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try readOnce(reader, at: -1, count: 4) }?.code,
      .invalidArgument)
    XCTAssertEqual(try readOnce(reader, at: 0, count: 0), Data())
    XCTAssertTrue(logged.requests.isEmpty)
  }

  func testState_ofALocalSource_isLocalAndNeverWaits() throws {
    let (reader, _) = reader()
    try reader.open()
    XCTAssertEqual(reader.bufferState, .local)
    XCTAssertFalse(reader.nextReadMayWait)
  }

  func testCancel_fromAnotherThread_endsABlockedRead_andEveryLaterOne() throws {
    let clock = ManualClock()
    let network = SimulatedNetwork(
      resources: [url: data], trace: .constant(bandwidthKbps: 800), clock: clock)
    let logged = LoggingDataSource(network.makeDataSource())
    let reader = DataSourceReader(source: logged, request: DataRequest(url: url))
    try reader.open()
    let run = runInBackground("blocked read") { [reader] in try readOnce(reader, at: 0, count: 100)
    }
    // The read waits on the clock for its bytes to arrive.
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertTrue(reader.isReading)
    reader.cancel()
    XCTAssertEqual(failure(of: run)?.code, .cancelled)
    XCTAssertFalse(reader.isReading)
    let reads = logged.readCount
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try readOnce(reader, at: 500, count: 10) }?.code,
      .cancelled)
    XCTAssertEqual(logged.readCount, reads, "a cancelled reader asks its source nothing more")
    XCTAssertEqual(clock.now, .zero)
  }
}
