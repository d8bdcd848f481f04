import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

/// `FileDataSource`: its errors, ranges, cancellation and descriptors, opened directly, read
/// through a `DataSourceReader` and loaded whole.
final class FileDataSourceTests: XCTestCase {
  private func writeFile(_ data: Data, named name: String = "data.bin") throws -> URL {
    let url = try makeTemporaryDirectory(for: self).appendingPathComponent(name)
    try data.write(to: url)
    return url
  }

  private func reader(_ url: URL) -> DataSourceReader {
    DataSourceReader(source: FileDataSource(), request: DataRequest(url: url))
  }

  private func openError(_ url: URL) -> PlayheadError? {
    playheadError { () throws(PlayheadError) in try FileDataSource().open(DataRequest(url: url)) }
  }

  func testOpen_missingFile_throwsFileNotFound() throws {
    let url = try makeTemporaryDirectory(for: self).appendingPathComponent("missing.mp4")
    let error = openError(url)
    XCTAssertEqual(error?.code, .fileNotFound)
    XCTAssertEqual(error?.url, url)
    XCTAssertTrue(error?.message.contains("missing.mp4") ?? false, error?.message ?? "")
  }

  func testOpen_directoryAndOtherSchemes_failWithTheirCodes() throws {
    let directory = try makeTemporaryDirectory(for: self)
    XCTAssertEqual(openError(directory)?.code, .isDirectory)
    XCTAssertEqual(openError(URL(string: "http://127.0.0.1/a.mp4")!)?.code, .unsupportedScheme)
  }

  func testOpen_emptyFile_opensWithLengthZero() throws {
    let url = try writeFile(Data(), named: "empty.bin")
    let source = FileDataSource()
    let head = try source.open(DataRequest(url: url))
    XCTAssertEqual(head.length, 0)
    XCTAssertEqual(head.totalLength, 0)
    XCTAssertEqual(try drain(source), Data())
    XCTAssertEqual(
      try DataLoader(source: FileDataSource()).load(DataRequest(url: url)).data, Data())
    let past = playheadError { () throws(PlayheadError) in
      try source.open(DataRequest(url: url, range: ByteRange(offset: 1, length: nil)))
    }
    XCTAssertEqual(past?.code, .invalidArgument)
  }

  func testOpen_devicesAndFIFOs_throwNotRegularFile_namingWhatTheyAre() throws {
    let fifo = try makeTemporaryDirectory(for: self).appendingPathComponent("pipe")
    XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
    let cases = [
      ("/dev/zero", "a character device"), ("/dev/urandom", "a character device"),
      (fifo.path, "a FIFO (named pipe)"),
    ]
    for (path, kind) in cases {
      let url = URL(fileURLWithPath: path)
      let error = openError(url)
      XCTAssertEqual(error?.code, .notRegularFile, path)
      XCTAssertEqual(error?.message, "\(path) is \(kind), not a regular file")
      XCTAssertEqual(error?.category, .source)
      // A local HLS playlist or segment, loaded whole, goes through the same check.
      let loaded = playheadError { () throws(PlayheadError) in
        try DataLoader(source: FileDataSource()).load(DataRequest(url: url))
      }
      XCTAssertEqual(loaded?.code, .notRegularFile, path)
    }
  }

  func testHead_lengthIsTheFileSize_orTheRangeCutAtTheEnd() throws {
    let url = try writeFile(generatedBytes(count: 10_000))
    let source = FileDataSource()
    let whole = try source.open(DataRequest(url: url))
    XCTAssertEqual(whole.length, 10_000)
    XCTAssertEqual(whole.totalLength, 10_000)
    XCTAssertEqual(whole.url, url)
    XCTAssertFalse(whole.isFromCache)
    let cut = try source.open(DataRequest(url: url, range: ByteRange(offset: 9_000, length: 5_000)))
    XCTAssertEqual(cut.length, 1_000)
    XCTAssertEqual(cut.totalLength, 10_000)
    XCTAssertEqual(source.bufferState, .local)
    XCTAssertEqual(reader(url).length, nil, "unknown before the reader opens")
  }

  func testRead_atOffsets_returnsTheFileBytesThere() throws {
    let data = generatedBytes(count: 100_000)
    let reader = reader(try writeFile(data))
    for offset in [0, 1, 4095, 50_000, 99_000] {
      let piece = try readFully(reader, at: Int64(offset), count: 1000)
      XCTAssertEqual(piece, data.subdata(in: offset..<offset + 1000), "offset \(offset)")
    }
    XCTAssertEqual(try readToEnd(reader, chunk: 7000), data)
    XCTAssertEqual(reader.length, 100_000)
    XCTAssertFalse(reader.nextReadMayWait, "a file never waits")
  }

  func testRead_acrossTheEnd_returnsTheRemainingBytesThenZero() throws {
    let data = generatedBytes(count: 5000)
    let reader = reader(try writeFile(data))
    try reader.open()
    XCTAssertEqual(try readOnce(reader, at: 4900, count: 1000), data.subdata(in: 4900..<5000))
    XCTAssertEqual(try readOnce(reader, at: 5000, count: 1000).count, 0)
    XCTAssertEqual(try readOnce(reader, at: 1_000_000, count: 1000).count, 0)
  }

  func testRead_negativeOffset_throwsInvalidArgument() throws {
    let reader = reader(try writeFile(generatedBytes(count: 10)))
    let error = playheadError { () throws(PlayheadError) in
      try readOnce(reader, at: -1, count: 4)
    }
    XCTAssertEqual(error?.code, .invalidArgument)
  }

  func testOpen_rangeStartingAtTheEnd_throwsInvalidArgument() throws {
    let file = try writeFile(generatedBytes(count: 100), named: "a.bin")
    let error = playheadError { () throws(PlayheadError) in
      try FileDataSource().open(DataRequest(url: file, range: ByteRange(offset: 100, length: 1)))
    }
    XCTAssertEqual(error?.code, .invalidArgument)
    XCTAssertEqual(
      error?.message, "byte range 1@100 starts past the end of the 100-byte file \(file.path)")
  }

  func testCancel_makesLaterReadsAndOpensThrowCancelled() throws {
    let url = try writeFile(generatedBytes(count: 10))
    let source = FileDataSource()
    _ = try source.open(DataRequest(url: url))
    XCTAssertEqual(try readSome(source, count: 4).count, 4)
    source.cancel()
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try readSome(source, count: 4) }?.code,
      .cancelled)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try source.open(DataRequest(url: url)) }?.code,
      .cancelled)
  }

  func testCloseAndRelease_closeTheFileDescriptor() throws {
    let url = try writeFile(generatedBytes(count: 10), named: "descriptor-check.bin")
    let resolved = url.resolvingSymlinksInPath().path
    var source: FileDataSource? = FileDataSource()
    _ = try source?.open(DataRequest(url: url))
    XCTAssertTrue(try openDescriptorTargets().contains(resolved))
    source?.close()
    XCTAssertFalse(try openDescriptorTargets().contains(resolved), "close() lets it go")
    _ = try source?.open(DataRequest(url: url))
    XCTAssertTrue(try openDescriptorTargets().contains(resolved))
    source = nil
    XCTAssertFalse(try openDescriptorTargets().contains(resolved), "and so does the last owner")
  }

  func testLoad_onAManualClock_timestampsWithIt() throws {
    let file = try writeFile(generatedBytes(count: 100), named: "a.bin")
    let clock = ManualClock(start: ms(42))
    let response = try DataLoader(source: FileDataSource(), clock: clock).load(
      DataRequest(url: file))
    XCTAssertEqual(response.startClock, ms(42))
    XCTAssertEqual(response.endClock, ms(42))
    XCTAssertEqual(response.data, generatedBytes(count: 100))
    XCTAssertEqual(response.totalLength, 100)
  }

  /// The files this process has open, from /proc/self/fd.
  private func openDescriptorTargets() throws -> Set<String> {
    let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    var targets = Set<String>()
    for entry in entries {
      if let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/\(entry)")
      {
        targets.insert(target)
      }
    }
    return targets
  }
}
