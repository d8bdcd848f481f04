import Foundation
import Playhead

/// Writes the tool's output: lines to standard output, errors and progress to standard
/// error.
///
/// Thread-safe: one lock orders every write. On a terminal the progress line is redrawn
/// in place (`\r`, then erase to the end of the line); it is cleared before any other line
/// is written and redrawn after it, so lines never mix. When standard error is not a
/// terminal, progress is written as plain lines with no control characters. Writes go
/// straight to the file descriptors, unbuffered, so output order is the call order.
final class Console: Sendable {
  /// Whether standard error is a terminal (progress is then drawn in place).
  let isErrorTerminal: Bool
  /// The progress line on screen. The writes happen inside its lock on purpose: the lock
  /// exists to order them.
  private let shownProgress = Locked<String?>(nil)

  init(isErrorTerminal: Bool = isatty(STDERR_FILENO) == 1) {
    self.isErrorTerminal = isErrorTerminal
  }

  /// Writes `text` and a newline to standard output.
  func line(_ text: String) {
    shownProgress.withLock { shown in
      Self.withProgressHidden(shown) { Self.write(text + "\n", to: FileHandle.standardOutput) }
    }
  }

  /// Writes `text` and a newline to standard error.
  func errorLine(_ text: String) {
    shownProgress.withLock { shown in
      Self.withProgressHidden(shown) { Self.write(text + "\n", to: FileHandle.standardError) }
    }
  }

  /// Writes `playhead: <message>` to standard error as one line (line breaks in
  /// `message` become spaces).
  func error(_ message: String) {
    let flat = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    errorLine("playhead: " + flat)
  }

  /// Shows `text` as the progress line: in place on a terminal, else as a plain line.
  func progress(_ text: String) {
    let isErrorTerminal = isErrorTerminal
    shownProgress.withLock { shown in
      if isErrorTerminal {
        shown = text
        Self.write("\r" + text + "\u{1B}[K", to: FileHandle.standardError)
      } else {
        Self.write(text + "\n", to: FileHandle.standardError)
      }
    }
  }

  /// Erases the progress line (on a terminal) and forgets it.
  func clearProgress() {
    shownProgress.withLock { shown in
      if shown != nil {
        shown = nil
        Self.write("\r\u{1B}[K", to: FileHandle.standardError)
      }
    }
  }

  /// Runs `body` with the progress line `shown` erased, then redraws it. Call with the
  /// lock held.
  private static func withProgressHidden(_ shown: String?, _ body: () -> Void) {
    guard let progress = shown else {
      body()
      return
    }
    Self.write("\r\u{1B}[K", to: FileHandle.standardError)
    body()
    Self.write("\r" + progress + "\u{1B}[K", to: FileHandle.standardError)
  }

  /// Writes `text`; a closed pipe or full disk is ignored (there is nowhere to report it).
  private static func write(_ text: String, to handle: FileHandle) {
    try? handle.write(contentsOf: Data(text.utf8))
  }
}
