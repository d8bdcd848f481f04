import CFFmpeg
import Foundation
import PlayheadCore
import PlayheadTestSupport
import XCTest

@testable import PlayheadMedia

/// FFmpeg's own messages reach `MediaLibrary.logger`: one entry per line, at the mapped
/// level, none for blank lines, nothing below the logger's level.
final class FFmpegLogTests: XCTestCase {
  private var saved: Logger?

  override func setUp() {
    super.setUp()
    saved = MediaLibrary.logger
  }

  override func tearDown() {
    if let saved { MediaLibrary.logger = saved }
    super.tearDown()
  }

  /// Sends one `av_log` message, as FFmpeg's code would.
  private func ffmpegLog(_ level: Int32, _ format: String, _ arguments: CVarArg...) {
    withVaList(arguments) { list in av_vlog(nil, level, format, list) }
  }

  /// An in-memory logger at `level` made FFmpeg's destination.
  private func capture(at level: Logger.Level) -> InMemoryLogHandler {
    let handler = InMemoryLogHandler()
    MediaLibrary.logger = handler.logger(label: "playhead.ffmpeg", level: level)
    return handler
  }

  /// This test's entries (FFmpeg's threads may log too while tests run).
  private func entries(_ handler: InMemoryLogHandler, _ marker: String)
    -> [InMemoryLogHandler.Entry]
  {
    handler.entries.filter { $0.message.contains(marker) }
  }

  func testALineWrittenInPieces_isOneEntry_atTheLevelOfItsFirstPiece() {
    let handler = capture(at: .trace)
    ffmpegLog(AV_LOG_WARNING, "pieces-1 first part, ")
    "second part".withCString { ffmpegLog(AV_LOG_WARNING, "%s, ", $0) }
    ffmpegLog(AV_LOG_ERROR, "%d\n", 3)
    XCTAssertEqual(
      entries(handler, "pieces-1"),
      [
        InMemoryLogHandler.Entry(
          level: .warning, label: "playhead.ffmpeg",
          message: "pieces-1 first part, second part, 3", source: "FFmpeg")
      ])
  }

  func testBlankLines_makeNoEntry_andEachLineOfAMessageIsOne() {
    let handler = capture(at: .trace)
    ffmpegLog(AV_LOG_ERROR, "\n")
    ffmpegLog(AV_LOG_ERROR, "   \n\n")
    ffmpegLog(AV_LOG_ERROR, "lines-2 a\n\nlines-2 b\n")
    XCTAssertEqual(entries(handler, "lines-2").map(\.message), ["lines-2 a", "lines-2 b"])
    XCTAssertFalse(
      handler.entries.contains { $0.message.trimmingCharacters(in: .whitespaces).isEmpty },
      "\(handler.entries)")
  }

  func testLevels_mapFromFFmpegs() {
    let handler = capture(at: .trace)
    let cases: [(Int32, Logger.Level)] = [
      (AV_LOG_PANIC, .critical), (AV_LOG_FATAL, .critical), (AV_LOG_ERROR, .error),
      (AV_LOG_WARNING, .warning), (AV_LOG_INFO, .debug), (AV_LOG_VERBOSE, .debug),
      (AV_LOG_DEBUG, .trace), (AV_LOG_TRACE, .trace),
    ]
    for (index, (ffmpegLevel, _)) in cases.enumerated() {
      ffmpegLog(ffmpegLevel, "levels-3 %d\n", index)
    }
    XCTAssertEqual(entries(handler, "levels-3").map(\.level), cases.map(\.1))
  }

  func testBelowTheLoggersLevel_nothingIsLogged_andFFmpegIsToldTheThreshold() {
    let handler = capture(at: .warning)
    XCTAssertEqual(av_log_get_level(), AV_LOG_WARNING)
    ffmpegLog(AV_LOG_INFO, "threshold-4 info\n")
    ffmpegLog(AV_LOG_DEBUG, "threshold-4 debug\n")
    ffmpegLog(AV_LOG_WARNING, "threshold-4 warning\n")
    XCTAssertEqual(entries(handler, "threshold-4").map(\.message), ["threshold-4 warning"])
    _ = capture(at: .debug)
    XCTAssertEqual(av_log_get_level(), AV_LOG_VERBOSE)
    _ = capture(at: .critical)
    XCTAssertEqual(av_log_get_level(), AV_LOG_FATAL)
  }
}
