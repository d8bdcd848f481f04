import Foundation

/// A log handler that writes each entry as one line of text (`LogLine`) to a `LogFile`
/// (standard error by default, or a file) or to a function of the application's.
///
/// Playhead's default backend: before `LoggingSystem.bootstrap(_:)`, every
/// `Logger(label:)` gets `TextLogHandler.standardError(label:)` at `.warning`. The line is
/// formatted only for entries at or above the level, and written with one system call, so
/// lines from several threads never mix.
///
/// ```swift
/// let file = try LogFile(appendingTo: "/tmp/playhead.log")
/// LoggingSystem.bootstrap { label in TextLogHandler(label: label, file: file) }
/// ```
public struct TextLogHandler: LogHandler {
  /// The label written on every line.
  public let label: String
  /// Takes each line (without a line break); called on the thread that logs.
  public let output: @Sendable (String) -> Void
  /// The least severe level written (its logger checks it).
  public var logLevel: Logger.Level
  /// Written with every entry, under the entry's own.
  public var metadata: Logger.Metadata = [:]

  /// A handler writing `label`'s entries at `logLevel` and above to `file`.
  public init(label: String, file: LogFile, logLevel: Logger.Level = .warning) {
    self.init(label: label, logLevel: logLevel) { line in file.write(line: line) }
  }

  /// A handler handing `label`'s entries at `logLevel` and above to `output`, one line
  /// each (the command line writes them through its console, which keeps them apart from
  /// its progress line).
  public init(
    label: String, logLevel: Logger.Level = .warning, output: @escaping @Sendable (String) -> Void
  ) {
    self.label = label
    self.logLevel = logLevel
    self.output = output
  }

  /// A handler writing to standard error at `.warning` and above.
  public static func standardError(label: String) -> TextLogHandler {
    TextLogHandler(label: label, file: .standardError)
  }

  /// Writes the entry as one line (`LogLine`) to `output`.
  public func log(
    level: Logger.Level, message: Logger.Message, metadata entryMetadata: Logger.Metadata?,
    source: String, file _: String, function _: String, line _: UInt
  ) {
    output(
      LogLine.format(
        time: Date(), level: level, label: label, message: message.description,
        metadata: metadata(mergedWith: entryMetadata)
      ))
  }
}
