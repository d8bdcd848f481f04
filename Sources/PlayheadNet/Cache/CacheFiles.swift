import Foundation
import PlayheadCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX file operations the disk cache is built on: durable writes (temporary name,
/// fsync, rename), directory syncs, positioned reads, sizes and modification times.
///
/// Every function reports failure by throwing `.ioError` or by returning nil; none traps.
enum CacheFiles {
  /// The prefix of every temporary file; the cache deletes such files when it opens.
  static let temporaryPrefix = ".tmp-"

  /// Writes `data` to `url` so that after a crash the file either does not exist or holds
  /// all of `data`: the bytes go to a temporary name in the same directory, are flushed
  /// with fsync, and are renamed over `url`. The caller syncs the directory afterwards
  /// (`syncDirectory`) so that the rename itself is durable.
  static func writeDurably(_ data: Data, to url: URL) throws(PlayheadError) {
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(temporaryPrefix + UUID().uuidString)
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw failure("cannot create", temporary) }
    let wrote = data.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return true }
      var written = 0
      while written < raw.count {
        let count = write(fd, base + written, raw.count - written)
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        written += count
      }
      return true
    }
    var errorNumber: Int32 = 0
    if !wrote {
      errorNumber = errno
    } else if fsync(fd) != 0 {
      errorNumber = errno
    }
    close(fd)
    guard errorNumber == 0 else {
      unlink(temporary.path)
      errno = errorNumber
      throw failure("cannot write", temporary)
    }
    guard rename(temporary.path, url.path) == 0 else {
      let error = failure("cannot rename \(temporary.lastPathComponent) to", url)
      unlink(temporary.path)
      throw error
    }
  }

  /// Flushes a directory's entries (creations, renames, removals) to disk.
  static func syncDirectory(_ url: URL) throws(PlayheadError) {
    let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw failure("cannot open directory", url) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw failure("cannot sync directory", url) }
  }

  /// Creates the directory `url` (its parent must exist); an existing directory is fine.
  static func makeDirectory(_ url: URL) throws(PlayheadError) {
    if mkdir(url.path, 0o755) == 0 || errno == EEXIST {
      guard isDirectory(url) else {
        throw PlayheadError(.ioError, "\(url.path) exists and is not a directory", url: url)
      }
      return
    }
    throw failure("cannot create directory", url)
  }

  /// Reads exactly `count` bytes at `offset` of the file at `url`; nil when the file is
  /// missing, unreadable or shorter.
  static func read(_ url: URL, offset: Int64, count: Int) -> Data? {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var data = Data(count: count)
    let complete = data.withUnsafeMutableBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return count == 0 }
      var done = 0
      while done < count {
        let got = pread(fd, base + done, count - done, off_t(offset) + off_t(done))
        if got < 0 && errno == EINTR { continue }
        if got <= 0 { return false }
        done += got
      }
      return true
    }
    return complete ? data : nil
  }

  /// The size of the regular file at `url`; nil when it is missing or not a regular file.
  static func fileSize(_ url: URL) -> Int64? {
    var info = stat()
    guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int64(info.st_size)
  }

  /// Whether `url` is a directory (not following a final symbolic link).
  static func isDirectory(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// The modification time of `url` in nanoseconds since 1970; nil when it is missing.
  static func modificationNanoseconds(_ url: URL) -> Int64? {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return nil }
    return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
  }

  /// Sets the access and modification times of `url` (nanoseconds since 1970); false when
  /// the file is missing.
  @discardableResult
  static func setModificationNanoseconds(_ url: URL, _ nanoseconds: Int64) -> Bool {
    let time = timespec(
      tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    var times = [time, time]
    return utimensat(AT_FDCWD, url.path, &times, 0) == 0
  }

  /// The names in the directory `url`; empty when it cannot be read.
  static func names(in url: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
  }

  /// Deletes `url` and everything under it; errors are ignored (the cache tries again
  /// when it next opens).
  static func removeTree(_ url: URL) {
    if unlink(url.path) == 0 { return }
    try? FileManager.default.removeItem(at: url)
  }

  /// The wall clock in nanoseconds since 1970.
  static func wallNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }

  /// An `.ioError` naming the operation, the path and the system's reason.
  static func failure(_ what: String, _ url: URL) -> PlayheadError {
    let reason = String(cString: strerror(errno))
    return PlayheadError(.ioError, "\(what) \(url.path): \(reason)", url: url)
  }
}
