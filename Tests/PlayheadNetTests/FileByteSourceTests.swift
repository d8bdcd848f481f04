import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

final class FileByteSourceTests: XCTestCase {
  private func writeFile(_ data: Data, named name: String = "data.bin") throws -> URL {
    let url = try makeTemporaryDirectory(for: self).appendingPathComponent(name)
    try data.write(to: url)
    return url
  }

  func testInit_missingFile_throwsFileNotFound() throws {
    let url = try makeTemporaryDirectory(for: self).appendingPathComponent("missing.mp4")
    let error = playheadError { () throws(PlayheadError) in try FileByteSource(url: url) }
    XCTAssertEqual(error?.code, .fileNotFound)
    XCTAssertEqual(error?.url, url)
    XCTAssertTrue(error?.message.contains("missing.mp4") ?? false, error?.message ?? "")
  }

  func testInit_directory_throwsIsDirectory() throws {
    let url = try makeTemporaryDirectory(for: self)
    let error = playheadError { () throws(PlayheadError) in try FileByteSource(url: url) }
    XCTAssertEqual(error?.code, .isDirectory)
  }

  func testInit_emptyFile_throwsEmptySource() throws {
    let url = try writeFile(Data(), named: "empty.bin")
    let error = playheadError { () throws(PlayheadError) in try FileByteSource(url: url) }
    XCTAssertEqual(error?.code, .emptySource)
  }

  func testInit_devicesAndFIFOs_throwNotRegularFile_namingWhatTheyAre() throws {
    let fifo = try makeTemporaryDirectory(for: self).appendingPathComponent("pipe")
    XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
    let cases = [
      ("/dev/zero", "a character device"), ("/dev/urandom", "a character device"),
      (fifo.path, "a FIFO (named pipe)"),
    ]
    for (path, kind) in cases {
      let url = URL(fileURLWithPath: path)
      let error = playheadError { () throws(PlayheadError) in try FileByteSource(url: url) }
      XCTAssertEqual(error?.code, .notRegularFile, path)
      XCTAssertEqual(error?.message, "\(path) is \(kind), not a regular file")
      XCTAssertEqual(error?.category, .source)
      // A local HLS playlist or segment goes through the same check.
      let loaded = playheadError { () throws(PlayheadError) in
        try FileDataSource().load(DataRequest(url: url))
      }
      XCTAssertEqual(loaded?.code, .notRegularFile, path)
    }
  }

  func testInit_httpURL_throwsUnsupportedScheme() throws {
    let url = URL(string: "http://127.0.0.1/a.mp4")!
    let error = playheadError { () throws(PlayheadError) in try FileByteSource(url: url) }
    XCTAssertEqual(error?.code, .unsupportedScheme)
  }

  func testLength_isFileSize() throws {
    let data = generatedBytes(count: 10_000)
    let source = try FileByteSource(url: try writeFile(data))
    XCTAssertEqual(source.length, 10_000)
  }

  func testRead_atOffsets_returnsTheFileBytesThere() throws {
    let data = generatedBytes(count: 100_000)
    let source = try FileByteSource(url: try writeFile(data))
    for offset in [0, 1, 4095, 50_000, 99_000] {
      let piece = try readOnce(source, at: Int64(offset), count: 1000)
      XCTAssertEqual(piece, data.subdata(in: offset..<offset + 1000), "offset \(offset)")
    }
    XCTAssertEqual(try readToEnd(source, chunk: 7000), data)
  }

  func testRead_acrossTheEnd_returnsTheRemainingBytesThenZero() throws {
    let data = generatedBytes(count: 5000)
    let source = try FileByteSource(url: try writeFile(data))
    XCTAssertEqual(try readOnce(source, at: 4900, count: 1000), data.subdata(in: 4900..<5000))
    XCTAssertEqual(try readOnce(source, at: 5000, count: 1000).count, 0)
    XCTAssertEqual(try readOnce(source, at: 1_000_000, count: 1000).count, 0)
  }

  func testRead_negativeOffset_throwsInvalidArgument() throws {
    let source = try FileByteSource(url: try writeFile(generatedBytes(count: 10)))
    let error = playheadError { () throws(PlayheadError) in
      try readOnce(source, at: -1, count: 4)
    }
    XCTAssertEqual(error?.code, .invalidArgument)
  }

  func testCancel_makesLaterReadsThrowCancelled() throws {
    let source = try FileByteSource(url: try writeFile(generatedBytes(count: 10)))
    XCTAssertEqual(try readOnce(source, at: 0, count: 4).count, 4)
    source.cancel()
    let error = playheadError { () throws(PlayheadError) in
      try readOnce(source, at: 0, count: 4)
    }
    XCTAssertEqual(error?.code, .cancelled)
  }

  func testDeinit_closesTheFileDescriptor() throws {
    let url = try writeFile(generatedBytes(count: 10), named: "descriptor-check.bin")
    let resolved = url.resolvingSymlinksInPath().path
    var source: FileByteSource? = try FileByteSource(url: url)
    XCTAssertTrue(try openDescriptorTargets().contains(resolved))
    XCTAssertNotNil(source?.length)
    source = nil
    XCTAssertFalse(try openDescriptorTargets().contains(resolved))
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
