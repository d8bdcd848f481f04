import CFFmpeg
import Foundation
import PlayheadCore
import Synchronization

/// Routes FFmpeg's own messages (`av_log`) to `MediaLibrary.logger`, one entry per line.
///
/// Levels: panic and fatal → critical, error → error, warning → warning, info and
/// verbose → debug, debug and trace → trace (decision 0045). FFmpeg's info messages report
/// its own internal choices (a scaler without an accelerated path, a probed stream): they
/// help whoever debugs Playhead, not whoever watches a session, whose milestones are
/// Playhead's own info entries. FFmpeg's debug messages are per packet and per frame (the
/// H.264 decoder names every NAL unit: over 600 lines for 12 s of video), which would bury
/// Playhead's debug entries (the ABR decisions), so they are trace. A message
/// FFmpeg writes in pieces becomes one entry when its line ends; whitespace-only lines are
/// dropped. Messages below the logger's level cost one atomic load: FFmpeg calls the
/// callback for every message whatever `av_log_set_level` says, so the check is here, and
/// `av_log_set_level` is set to the same threshold for the code in FFmpeg that asks it
/// before doing extra work for debug output.
enum FFmpegLog {
  /// The most verbose FFmpeg level (`AV_LOG_*`) that reaches the logger.
  private static let threshold = Atomic<Int32>(AV_LOG_WARNING)

  private static let state = Locked(State())

  private struct State: Sendable {
    /// Nil until the logger is first asked for or set.
    var logger: Logger?
    /// Whether FFmpeg's next piece of text starts a line (FFmpeg's `print_prefix`).
    var printPrefix: Int32 = 1
    /// The start of a line FFmpeg has not finished, with the level of its first piece.
    var pending = ""
    var pendingLevel: Int32 = AV_LOG_INFO
  }

  /// The logger FFmpeg's messages go to: `Logger(label: "playhead.ffmpeg")` unless one was
  /// set.
  static var logger: Logger {
    if let logger = state.value.logger { return logger }
    // Made outside the lock: the logging system's factory is the application's code.
    let made = Logger(label: "playhead.ffmpeg")
    return state.withLock { state in
      if state.logger == nil { state.logger = made }
      return state.logger ?? made
    }
  }

  /// Makes `logger` the destination and FFmpeg's threshold its level.
  static func setLogger(_ logger: Logger) {
    state.withLock { $0.logger = logger }
    applyThreshold(logger.logLevel)
  }

  /// Installs the callback (once per process, from `MediaLibrary.configured`).
  static func install() {
    applyThreshold(logger.logLevel)
    av_log_set_callback { context, level, format, arguments in
      FFmpegLog.receive(context, level, format, arguments)
    }
  }

  /// The Playhead level of an FFmpeg level (`AV_LOG_*`, flags masked off).
  static func level(ofFFmpegLevel level: Int32) -> Logger.Level {
    switch level {
    case ...AV_LOG_FATAL: return .critical
    case ...AV_LOG_ERROR: return .error
    case ...AV_LOG_WARNING: return .warning
    case ...AV_LOG_VERBOSE: return .debug
    default: return .trace
    }
  }

  /// The most verbose FFmpeg level that maps to `level` or above.
  static func ffmpegThreshold(for level: Logger.Level) -> Int32 {
    let levels = [
      AV_LOG_TRACE, AV_LOG_DEBUG, AV_LOG_VERBOSE, AV_LOG_INFO, AV_LOG_WARNING, AV_LOG_ERROR,
      AV_LOG_FATAL,
    ]
    return levels.first { Self.level(ofFFmpegLevel: $0) >= level } ?? AV_LOG_FATAL
  }

  private static func applyThreshold(_ level: Logger.Level) {
    let ffmpegLevel = ffmpegThreshold(for: level)
    threshold.store(ffmpegLevel, ordering: .relaxed)
    av_log_set_level(ffmpegLevel)
  }

  /// The callback: formats the message and logs each line it completes.
  private static func receive(
    _ context: UnsafeMutableRawPointer?, _ level: Int32, _ format: UnsafePointer<CChar>?,
    _ arguments: CVaListPointer?
  ) {
    // FFmpeg adds colour flags above the low byte of the level.
    let severity = level >= 0 ? level & 0xFF : level
    guard severity <= threshold.load(ordering: .relaxed), let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 1024)
    let (lines, logger) = state.withLock { state in
      // Formatting is a leaf call, done under the lock so that `printPrefix` and the
      // pending text follow FFmpeg's calls in order.
      let length = buffer.withUnsafeMutableBufferPointer { pointer in
        CFFmpeg_formatLogLine(
          context, level, format, arguments, pointer.baseAddress, Int32(pointer.count),
          &state.printPrefix)
      }
      let text = String(
        decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return (complete(text, level: severity, in: &state), state.logger)
    }
    guard !lines.isEmpty else { return }
    let destination = logger ?? Self.logger
    for (lineLevel, line) in lines {
      destination.log(level: Self.level(ofFFmpegLevel: lineLevel), "\(line)", source: "FFmpeg")
    }
  }

  /// Adds `text` to the pending line and returns the lines it completes, trimmed, without
  /// the blank ones.
  private static func complete(_ text: String, level: Int32, in state: inout State)
    -> [(Int32, String)]
  {
    if state.pending.isEmpty { state.pendingLevel = level }
    state.pending += text
    guard let lastBreak = state.pending.lastIndex(where: \.isNewline) else { return [] }
    let finished = state.pending[..<lastBreak]
    let lineLevel = state.pendingLevel
    state.pending = String(state.pending[state.pending.index(after: lastBreak)...])
    state.pendingLevel = level
    return finished.split(whereSeparator: \.isNewline).compactMap { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      return trimmed.isEmpty ? nil : (lineLevel, trimmed)
    }
  }
}
