import Foundation
import PlayheadCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Streams local files, or byte ranges of them, read with `pread`.
///
/// `open` checks the path and opens the file; its size then is the resource's length.
/// Errors: `.unsupportedScheme` for a URL that is not a `file:` URL, `.fileNotFound` when
/// nothing exists at the path (`.unsupportedFormat` when the missing name is an image
/// sequence pattern such as `frame%03d.png`, which FFmpeg would expand), `.isDirectory`
/// for a directory, `.notRegularFile` for a character or block device (`/dev/zero`), a
/// FIFO or a socket (refused before they are opened: reading one may never end or block
/// for ever), `.ioError` when the file exists but cannot be opened or read. Like an HTTP
/// server, a range that runs past the end of the file is cut at the end; a range that
/// starts at or past the end throws `.invalidArgument`, and so does a request with a `body`
/// (a POST): a file cannot answer one, and reading it instead would hand the caller the
/// file as the answer. An empty file opens with length 0.
/// `cancel()` makes every later call throw `.cancelled`; a read already inside `pread`
/// finishes first, which for a local file takes little time.
public final class FileDataSource: DataSource, Sendable {
  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var file: OpenFile?
  }

  /// One open file: its descriptor, closed when the last holder lets it go.
  final class OpenFile: Sendable {
    let url: URL
    let fd: Int32
    let size: Int64
    let start: Int64
    let end: Int64
    let position: Locked<Int64>

    init(url: URL, fd: Int32, size: Int64, start: Int64, end: Int64) {
      self.url = url
      self.fd = fd
      self.size = size
      self.start = start
      self.end = end
      position = Locked(start)
    }

    deinit { closeDescriptor(fd) }
  }

  public init() {}

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    let url = request.url
    try throwIfCancelled(url)
    close()
    if let body = request.body {
      throw PlayheadError(
        .invalidArgument,
        "cannot send a \(body.count)-byte request body (POST) to the file \(url.path)", url: url)
    }
    let (fd, size) = try Self.openFile(url)
    let start = request.range?.offset ?? 0
    if start > 0 && start >= size || (start > 0 && size == 0) {
      closeDescriptor(fd)
      throw PlayheadError(
        .invalidArgument,
        "byte range \(request.range?.description ?? "") starts past the end of the "
          + "\(size)-byte file \(url.path)", url: url)
    }
    let end = min(size, request.range?.end ?? size)
    let file = OpenFile(url: url, fd: fd, size: size, start: start, end: max(start, end))
    let kept = state.withLock { state -> Bool in
      if state.cancelled { return false }
      state.file = file
      return true
    }
    if !kept { throw PlayheadError.sourceCancelled(url) }
    return DataResponseHead(url: url, length: file.end - file.start, totalLength: size)
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    let (cancelled, opened) = state.withLock { ($0.cancelled, $0.file) }
    guard let file = opened else {
      if cancelled { throw PlayheadError.sourceCancelled(nil) }
      throw PlayheadError.notOpen(nil)
    }
    if cancelled { throw PlayheadError.sourceCancelled(file.url) }
    let position = file.position.value
    let wanted = Int(min(Int64(buffer.count), file.end - position))
    guard wanted > 0, let base = buffer.baseAddress else { return 0 }
    while true {
      let count = pread(file.fd, base, wanted, off_t(position))
      if count > 0 {
        file.position.withLock { $0 = position + Int64(count) }
        return count
      }
      if count == 0 {
        throw PlayheadError(
          .ioError, "file \(file.url.path) ended at byte \(position) while reading",
          url: file.url)
      }
      let code = errno
      if code == EINTR { continue }
      throw PlayheadError(
        .ioError,
        "read failed at byte \(position) of \(file.url.path): \(Self.describe(code))",
        url: file.url)
    }
  }

  public func close() {
    state.withLock { $0.file = nil }
  }

  public func cancel() {
    state.withLock { $0.cancelled = true }
  }

  /// A local file: every byte is at hand.
  public var bufferState: DataBufferState? { .local }

  private func throwIfCancelled(_ url: URL) throws(PlayheadError) {
    if state.withLock({ $0.cancelled }) { throw PlayheadError.sourceCancelled(url) }
  }

  // MARK: Opening

  /// Opens the regular file `url` names; returns its descriptor and size.
  static func openFile(_ url: URL) throws(PlayheadError) -> (Int32, Int64) {
    guard url.isFileURL else {
      throw PlayheadError(.unsupportedScheme, "not a file URL: \(url.absoluteString)", url: url)
    }
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
      throw PlayheadError(.ioError, "cannot open \(path): \(describe(code))", url: url)
    }
    try requireRegularFile(mode: info.st_mode, path: path, url: url)
    // O_NONBLOCK: should the path have become a FIFO since `stat`, opening it must not
    // wait for a writer; the descriptor is checked again below.
    let descriptor = openDescriptor(path)
    if descriptor < 0 {
      let code = errno
      if code == ENOENT {
        throw PlayheadError(.fileNotFound, "file not found: \(path)", url: url)
      }
      throw PlayheadError(.ioError, "cannot open \(path): \(describe(code))", url: url)
    }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0 else {
      let code = errno
      closeDescriptor(descriptor)
      throw PlayheadError(.ioError, "cannot open \(path): \(describe(code))", url: url)
    }
    do throws(PlayheadError) {
      try requireRegularFile(mode: opened.st_mode, path: path, url: url)
    } catch {
      closeDescriptor(descriptor)
      throw error
    }
    return (descriptor, Int64(opened.st_size))
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

  static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// `close(2)`, out of reach of the sources' own `close()`.
private func closeDescriptor(_ fd: Int32) {
  _ = close(fd)
}

/// `open(2)` for reading, without waiting for a FIFO's writer.
private func openDescriptor(_ path: String) -> Int32 {
  open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
}
