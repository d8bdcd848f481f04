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
public final class FileByteSource: ByteSource, @unchecked Sendable {
  // Unchecked Sendable: `fd` and `fileLength` never change after init; `cancelled` is
  // guarded by `lock`.
  public let url: URL
  private let fd: Int32
  private let fileLength: Int64
  private let lock = NSLock()
  private var cancelled = false

  /// Opens the local file that `url` names.
  ///
  /// Throws `.unsupportedScheme` for a URL that is not a `file:` URL, `.fileNotFound` when
  /// nothing exists at the path (`.unsupportedFormat` when the missing name is an image
  /// sequence pattern such as `frame%03d.png`, which FFmpeg would expand), `.isDirectory` for a directory, `.emptySource` for a file
  /// of zero bytes (and for special files such as FIFOs, which have no size), and
  /// `.ioError` when the file exists but cannot be opened (for example, no permission).
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
    if (info.st_mode & S_IFMT) == S_IFDIR {
      throw PlayheadError(.isDirectory, "is a directory, not a file: \(path)", url: url)
    }
    // Only regular files have a meaningful size; opening a FIFO could block forever.
    if (info.st_mode & S_IFMT) != S_IFREG || info.st_size == 0 {
      throw PlayheadError(.emptySource, "file is empty: \(path)", url: url)
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 {
      let code = errno
      if code == ENOENT {
        throw PlayheadError(.fileNotFound, "file not found: \(path)", url: url)
      }
      throw PlayheadError(.ioError, "cannot open \(path): \(Self.describe(code))", url: url)
    }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0, opened.st_size > 0 else {
      close(descriptor)
      throw PlayheadError(.emptySource, "file is empty: \(path)", url: url)
    }
    fd = descriptor
    fileLength = Int64(opened.st_size)
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
    lock.lock()
    cancelled = true
    lock.unlock()
  }

  private var isCancelled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled
  }

  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
