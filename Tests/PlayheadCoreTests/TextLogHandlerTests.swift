import Foundation
import PlayheadCore
import PlayheadTestSupport
import XCTest

/// The text form of an entry (`LogLine`), the text handler and the log file.
final class TextLogHandlerTests: XCTestCase {
  func testLine_hasTimeLevelLabelMessage_thenMetadataSortedByKey() {
    let time = Date(timeIntervalSince1970: 1_714_558_830.123_9)
    let line = LogLine.format(
      time: time, level: .debug, label: "playhead.player", message: "ABR decision",
      metadata: ["reason": "buffer", "level": "2", "bufferAhead": "6.000"])
    XCTAssertEqual(
      line,
      "2024-05-01T10:20:30.123Z debug playhead.player: ABR decision bufferAhead=6.000 level=2 "
        + "reason=buffer")
  }

  func testLine_quotesValuesThatCannotStandBare_andKeepsTheEntryOnOneLine() {
    let line = LogLine.format(
      time: Date(timeIntervalSince1970: 0), level: .info, label: "l",
      message: "two\nlines",
      metadata: [
        "a": "with space", "b": "", "c": #"say "hi""#, "d": "x=y", "e": "back\\slash\nnext",
      ])
    XCTAssertEqual(
      line,
      #"1970-01-01T00:00:00.000Z info l: two\nlines a="with space" b="" c="say \"hi\"" "#
        + #"d="x=y" e="back\\slash\nnext""#)
    XCTAssertFalse(line.contains("\n"))
  }

  func testTimestamp_isUTCToTheMillisecond_acrossCalendarEdges() {
    XCTAssertEqual(LogLine.timestamp(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00.000Z")
    // A leap day, and the last millisecond of a year.
    XCTAssertEqual(
      LogLine.timestamp(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00.000Z")
    XCTAssertEqual(
      LogLine.timestamp(Date(timeIntervalSince1970: 1_704_067_199.999_5)),
      "2023-12-31T23:59:59.999Z")
    // Before 1970 the milliseconds still count forwards within their second.
    XCTAssertEqual(
      LogLine.timestamp(Date(timeIntervalSince1970: -0.25)), "1969-12-31T23:59:59.750Z")
  }

  func testTextHandler_mergesItsMetadataUnderTheEntrys_andHandsOverOneLine() {
    let lines = Locked([String]())
    var handler = TextLogHandler(label: "test", logLevel: .debug) { line in
      lines.withLock { $0.append(line) }
    }
    handler[metadataKey: "item"] = "1"
    handler[metadataKey: "shared"] = "handler"
    var logger = Logger(label: "test") { _ in handler }
    logger.debug("hello", metadata: ["shared": "entry"])
    logger.trace("below the level")
    logger.logLevel = .error
    logger.warning("below the new level")
    XCTAssertEqual(lines.value.count, 1)
    XCTAssertTrue(
      lines.value.first?.hasSuffix(" debug test: hello item=1 shared=entry") ?? false,
      "\(lines.value)")
  }

  func testLogFile_appendsWholeLines_fromManyThreads_keepingWhatWasThere() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-logfile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("run.log").path
    try Data("earlier line\n".utf8).write(to: URL(fileURLWithPath: path))
    do {
      let file = try LogFile(appendingTo: path)
      let logger = Logger(label: "file") { label in
        TextLogHandler(label: label, file: file, logLevel: .trace)
      }
      DispatchQueue.concurrentPerform(iterations: 8) { thread in
        for index in 0..<100 {
          logger.info("entry", metadata: ["thread": "\(thread)", "index": "\(index)"])
        }
      }
    }
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.first, "earlier line")
    XCTAssertEqual(lines.count, 801)
    for line in lines.dropFirst() {
      XCTAssertTrue(line.contains(" info file: entry index="), String(line))
    }
  }

  func testLogFile_inAMissingDirectory_throwsFileNotFound_namingThePath() {
    XCTAssertThrowsError(try LogFile(appendingTo: "/nonexistent-playhead/x.log")) { error in
      let error = error as? PlayheadError
      XCTAssertEqual(error?.code, .fileNotFound)
      XCTAssertTrue(error?.message.contains("/nonexistent-playhead/x.log") ?? false)
    }
  }
}
