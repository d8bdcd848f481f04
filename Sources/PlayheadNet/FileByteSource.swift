import Foundation
import PlayheadCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A byte source over a local file, read with `pread` so that reads at any offset are
/// independent and share no file position.
///
/// The file is opened once in `init` and its descriptor is closed when the source is
/// released. `length` is the file's size when it was opened. Reads at or past the end
/// return 0. `cancel()` makes every later read throw `.cancelled`; a read already inside
/// `pread` finishes first, which for a local file takes little time.
public final class FileByteSource: ByteSource, Sendable {
  public let url: URL
  private let fd: Int32
  private let fileLength: Int64
  private let cancelled = Locked(false)

  /// Opens the local file that `url` names.
  ///
  /// Throws `.unsupportedScheme` for a URL that is not a `file:` URL, `.fileNotFound` when
  /// nothing exists at the path (`.unsupportedFormat` when the missing name is an image
  /// sequence pattern such as `frame%03d.png`, which FFmpeg would expand), `.isDirectory`
  /// for a directory, `.notRegularFile` for a
  /// character or block device (`/dev/zero`, `/dev/urandom`), a FIFO or a socket (refused
  /// before they are opened: reading one may never end or block for ever), `.emptySource`
  /// for a file of zero bytes, and `.ioError` when the file exists but cannot be opened (for
  /// example, no permission).
  public init(url: URL) throws(PlayheadError) {
    guard url.isFileURL else {
      throw PlayheadError(.unsupportedScheme, "not a file URL: \(url.absoluteString)", url: url)
    }
    self.url = url
    let path = url.path
    var info = stat()
    if stat(path, &info) != 0 {
      let code = errno
      if code == ENOENT || code == ENOTDIR {
        if let pattern = ImageSequencePattern.find(in: url.lastPathComponent) {
          throw PlayheadError(
            .unsupportedFormat,
            "\(path) is an image sequence pattern ('\(pattern)'), which Playhead does not play: "
              + "it opens one media file or stream at a time", url: url)
        }
        throw PlayheadError(.fileNotFound, "file not found: \(path)", url: url)
      }
      throw PlayheadError(.ioError, "cannot open \(path): \(Self.describe(code))", url: url)
    }
    try Self.requireRegularFile(mode: info.st_mode, path: path, url: url)
    if info.st_size == 0 {
      throw PlayheadError(.emptySource, "file is empty: \(path)", url: url)
    }
    // O_NONBLOCK: should the path have become a FIFO since `stat`, opening it must not
    // wait for a writer; the descriptor is checked again below.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if descriptor < 0 {
      let code = errno
      if code == ENOENT {
        throw PlayheadError(.fileNotFound, "file not found: \(path)", url: url)
      }
      throw PlayheadError(.ioError, "cannot open \(path): \(Self.describe(code))", url: url)
    }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0 else {
      let code = errno
      close(descriptor)
      throw PlayheadError(.ioError, "cannot open \(path): \(Self.describe(code))", url: url)
    }
    do throws(PlayheadError) {
      try Self.requireRegularFile(mode: opened.st_mode, path: path, url: url)
    } catch {
      close(descriptor)
      throw error
    }
    guard opened.st_size > 0 else {
      close(descriptor)
      throw PlayheadError(.emptySource, "file is empty: \(path)", url: url)
    }
    fd = descriptor
    fileLength = Int64(opened.st_size)
  }

  /// Throws `.isDirectory` or `.notRegularFile`, naming what the path is, unless `mode`
  /// is a regular file's.
  static func requireRegularFile(mode: mode_t, path: String, url: URL) throws(PlayheadError) {
    let kind: String
    switch mode & S_IFMT {
    case S_IFREG: return
    case S_IFDIR:
      throw PlayheadError(.isDirectory, "is a directory, not a file: \(path)", url: url)
    case S_IFCHR: kind = "a character device"
    case S_IFBLK: kind = "a block device"
    case S_IFIFO: kind = "a FIFO (named pipe)"
    case S_IFSOCK: kind = "a socket"
    default: kind = "a special file"
    }
    throw PlayheadError(.notRegularFile, "\(path) is \(kind), not a regular file", url: url)
  }

  deinit {
    close(fd)
  }

  /// The file's size in bytes when it was opened.
  public var length: Int64? { fileLength }

  /// Reads up to `buffer.count` bytes at `offset`; returns 0 at or past the end.
  ///
  /// Throws `.cancelled` after `cancel()`, `.invalidArgument` for a negative offset, and
  /// `.ioError` when the operating system reports a read error.
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
    throws(PlayheadError)
    -> Int
  {
    if isCancelled {
      throw PlayheadError(.cancelled, "read cancelled: \(url.path)", url: url)
    }
    guard offset >= 0 else {
      throw PlayheadError(.invalidArgument, "negative read offset \(offset)", url: url)
    }
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let count = pread(fd, base, buffer.count, off_t(offset))
      if count >= 0 { return count }
      let code = errno
      if code == EINTR { continue }
      throw PlayheadError(
        .ioError, "read failed at byte \(offset) of \(url.path): \(Self.describe(code))",
        url: url)
    }
  }

  /// Makes every later read throw `.cancelled`. Safe from any thread.
  public func cancel() {
    cancelled.withLock { $0 = true }
  }

  private var isCancelled: Bool { cancelled.value }

  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
