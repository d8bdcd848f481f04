import Foundation

/// A file that log lines are appended to, one whole line per write, from any thread.
///
/// `LogFile.standardError` is the process's standard error. A file opened with
/// `init(appendingTo:)` is created when missing and never truncated: every write goes to its
/// end (`O_APPEND`), so several processes may share one log file without overwriting each
/// other's lines. A write that fails (a closed pipe, a full disk) is dropped: there is
/// nowhere to report it.
public final class LogFile: Sendable {
  /// Standard error.
  public static let standardError = LogFile(descriptor: STDERR_FILENO, closesOnDeinit: false)

  /// The descriptor, read inside the lock: the lock exists to order whole lines, so the
  /// write happens while it is held (decision 0026's "ordered output").
  private let descriptor: Locked<Int32>
  private let closesOnDeinit: Bool

  private init(descriptor: Int32, closesOnDeinit: Bool) {
    self.descriptor = Locked(descriptor)
    self.closesOnDeinit = closesOnDeinit
  }

  /// Opens `path` for appending, creating it (mode 0644) when it does not exist.
  ///
  /// Throws `.fileNotFound` when its directory does not exist, `.isDirectory` when the
  /// path is a directory, and `.ioError` for any other reason (permissions), each with
  /// the system's message.
  public convenience init(appendingTo path: String) throws(PlayheadError) {
    let opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard opened >= 0 else {
      let code = errno
      let reason = String(cString: strerror(code))
      let kind: PlayheadError.Code =
        code == ENOENT ? .fileNotFound : code == EISDIR ? .isDirectory : .ioError
      throw PlayheadError(kind, "cannot open the log file \(path): \(reason)")
    }
    self.init(descriptor: opened, closesOnDeinit: true)
  }

  deinit {
    if closesOnDeinit { close(descriptor.value) }
  }

  /// Appends `line` and a line break with one write.
  public func write(line: String) {
    var bytes = Array((line + "\n").utf8)
    descriptor.withLock { descriptor in
      bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = Foundation.write(
            descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written > 0 {
            offset += written
          } else if written < 0 && errno == EINTR {
            continue
          } else {
            return
          }
        }
      }
    }
  }
}
