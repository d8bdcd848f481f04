import Foundation
import PlayheadCore

/// Serves bytes already in memory: one resource whatever the URL, or a resource per URL.
///
/// A URL with no resource throws `.fileNotFound`; a range that runs past the end is cut at
/// the end, and one that starts past the end throws `.invalidArgument`, as for a file. A
/// request's `body` is ignored: the source stands in for a server, and answers a POST with
/// the bytes of its URL as it answers a GET.
///
/// ```swift
/// let source = MemoryDataSource(data: pngBytes)
/// let demuxer = try Demuxer(source: source, url: URL(string: "memory:image.png")!)
/// ```
public final class MemoryDataSource: DataSource, Sendable {
  private let single: Data?
  private let resources: [URL: Data]
  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var open: (url: URL, bytes: Data, position: Int, end: Int)?
  }

  /// A source that answers every request with `data`.
  public init(data: Data) {
    single = data
    resources = [:]
  }

  /// A source that answers a request for a URL of `resources` with its bytes.
  public init(resources: [URL: Data]) {
    single = nil
    self.resources = resources
  }

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    let url = request.url
    guard let bytes = single ?? resources[url] else {
      throw PlayheadError(.fileNotFound, "no resource in memory at \(url.absoluteString)", url: url)
    }
    let start = Int(clamping: request.range?.offset ?? 0)
    if start > 0 && start >= bytes.count {
      throw PlayheadError(
        .invalidArgument,
        "byte range \(request.range?.description ?? "") starts past the end of the "
          + "\(bytes.count)-byte resource \(url.absoluteString)", url: url)
    }
    let end = min(bytes.count, request.range?.end.map { Int(clamping: $0) } ?? bytes.count)
    let opened = state.withLock { state -> Bool in
      if state.cancelled { return false }
      state.open = (url, bytes, start, max(start, end))
      return true
    }
    if !opened { throw PlayheadError.sourceCancelled(url) }
    return DataResponseHead(
      url: url, length: Int64(max(start, end) - start), totalLength: Int64(bytes.count))
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    try state.withLock { (state) throws(PlayheadError) -> Int in
      if state.cancelled { throw PlayheadError.sourceCancelled(state.open?.url) }
      guard let open = state.open else { throw PlayheadError.notOpen(nil) }
      let count = min(buffer.count, open.end - open.position)
      guard count > 0, let base = buffer.baseAddress else { return 0 }
      open.bytes.withUnsafeBytes { raw in
        base.copyMemory(from: raw.baseAddress! + open.position, byteCount: count)
      }
      state.open?.position += count
      return count
    }
  }

  public func close() {
    state.withLock { $0.open = nil }
  }

  public func cancel() {
    state.withLock { $0.cancelled = true }
  }

  /// Bytes in memory: every byte is at hand.
  public var bufferState: DataBufferState? { .local }
}
