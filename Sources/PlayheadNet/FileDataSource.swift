import Foundation
import PlayheadCore

/// Loads whole local files, or byte ranges of them.
///
/// Opening errors are `FileByteSource`'s: `.unsupportedScheme` for a URL that is not a
/// `file:` URL, `.fileNotFound`, `.isDirectory`, `.emptySource` for a file of zero bytes,
/// `.ioError` for anything else. Like an HTTP server, a range that runs past the end of the
/// file is cut at the end, and a range that starts at or past the end throws
/// `.invalidArgument`. The file is read in 1 MiB pieces; the progress callback runs after
/// each one, and returning `false` abandons the load with `.cancelled`.
public final class FileDataSource: DataSource, Sendable {
  /// The clock that timestamps transfers.
  public let clock: any Clock
  /// Told about every successful load.
  public let transferListener: (any TransferListener)?
  private let cancelled = Locked(false)

  static let pieceBytes = 1024 * 1024

  /// Creates a source that timestamps loads with `clock`.
  public init(clock: any Clock = HostClock.shared, transferListener: (any TransferListener)? = nil)
  {
    self.clock = clock
    self.transferListener = transferListener
  }

  /// Reads the file or range that `request` names; see the type for the errors.
  public func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse {
    try throwIfCancelled(request.url)
    let startClock = clock.now
    let source = try FileByteSource(url: request.url)
    let fileLength = source.length ?? 0
    let offset = request.range?.offset ?? 0
    if request.range?.length == 0 {
      return DataResponse(
        data: Data(), url: request.url, startClock: startClock, endClock: clock.now,
        totalLength: fileLength)
    }
    guard offset < fileLength else {
      throw PlayheadError(
        .invalidArgument,
        "byte range \(request.range?.description ?? "") starts past the end of the "
          + "\(fileLength)-byte file \(request.url.path)", url: request.url)
    }
    let end = min(fileLength, request.range?.end ?? fileLength)
    let total = Int(end - offset)
    var data = Data(count: total)
    var loaded = 0
    while loaded < total {
      try throwIfCancelled(request.url)
      let piece = min(Self.pieceBytes, total - loaded)
      let result = data.withUnsafeMutableBytes { raw in
        Result { () throws(PlayheadError) -> Int in
          try source.read(
            into: UnsafeMutableRawBufferPointer(rebasing: raw[loaded..<(loaded + piece)]),
            at: offset + Int64(loaded))
        }
      }
      let count = try result.get()
      if count == 0 {
        throw PlayheadError(
          .ioError,
          "file \(request.url.path) ended at byte \(offset + Int64(loaded)) while reading",
          url: request.url)
      }
      loaded += count
      if let progress {
        let report = TransferProgress(
          request: request, bytesLoaded: loaded, bytesExpected: total,
          elapsed: clock.now - startClock)
        if !progress(report) {
          throw PlayheadError(
            .cancelled, "load abandoned after \(loaded) bytes: \(request.url.path)",
            url: request.url)
        }
      }
    }
    let endClock = clock.now
    transferListener?.transferEnded(request: request, bytes: total, duration: endClock - startClock)
    return DataResponse(
      data: data, url: request.url, startClock: startClock, endClock: endClock,
      totalLength: fileLength)
  }

  /// Makes every later load, and a load between two pieces, throw `.cancelled`.
  public func cancelAll() {
    cancelled.withLock { $0 = true }
  }

  private func throwIfCancelled(_ url: URL) throws(PlayheadError) {
    if cancelled.value {
      throw PlayheadError(.cancelled, "load cancelled: \(url.absoluteString)", url: url)
    }
  }
}
