import Foundation
import PlayheadCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Crash-safe file writes for the download manager: a file is replaced only by a complete
/// new version (written to a temporary name, flushed with fsync, renamed over the old one,
/// and the directory flushed), so a reader sees either the old bytes or the new bytes.
enum AtomicFile {
  /// Writes `data` to `url` atomically; throws `.ioError` naming the step that failed.
  static func write(_ data: Data, to url: URL) throws(PlayheadError) {
    let directory = url.deletingLastPathComponent()
    try makeDirectory(directory)
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw failure("create", temporary) }
    var written = 0
    let ok = data.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return true }
      while written < raw.count {
        let result = Glibc.write(fd, base + written, raw.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          return false
        }
        written += result
      }
      return true
    }
    guard ok, fsync(fd) == 0 else {
      let error = failure("write", temporary)
      close(fd)
      unlink(temporary.path)
      throw error
    }
    close(fd)
    guard rename(temporary.path, url.path) == 0 else {
      let error = failure("rename", url)
      unlink(temporary.path)
      throw error
    }
    try syncDirectory(directory)
  }

  /// Flushes a directory's entries (after a rename or a file creation).
  static func syncDirectory(_ directory: URL) throws(PlayheadError) {
    let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw failure("open directory", directory) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw failure("fsync directory", directory) }
  }

  /// Creates `directory` and its parents when missing.
  static func makeDirectory(_ directory: URL) throws(PlayheadError) {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw PlayheadError(
        .ioError, "cannot create the folder \(directory.path): \(PlayheadError.reason(for: error))",
        url: directory)
    }
  }

  /// The size of the file at `url`, or nil when there is none.
  static func size(of url: URL) -> Int64? {
    var info = stat()
    guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int64(info.st_size)
  }

  static func failure(_ step: String, _ url: URL) -> PlayheadError {
    PlayheadError(
      .ioError, "\(step) failed for \(url.path): \(String(cString: strerror(errno)))", url: url)
  }
}
