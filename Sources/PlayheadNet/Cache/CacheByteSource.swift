import Foundation
import PlayheadCore

/// A byte source that reads a resource in fixed-size chunks through a data source —
/// typically a `CacheDataSource`, so that progressive media plays through the disk cache.
///
/// Chunk `k` is the range `[k × chunkBytes, (k + 1) × chunkBytes)`; a read loads the
/// chunk that holds its offset (a seek loads the chunk there), and a loader thread keeps
/// up to `readAheadChunks` chunks after it loaded, so sequential reading does not wait
/// for each request. With a `CacheDataSource`, cached chunks come from disk and a chunk
/// that is partly cached fetches only its missing bytes. A read-ahead that the reader
/// has seeked away from is abandoned.
///
/// `open()` loads the first chunk and learns the length (from the response's
/// `totalLength`, or from a short last chunk). Errors are the data source's; `open()` of
/// an empty resource throws `.emptySource`. A failed chunk is tried again by the next
/// read. `cancel()` makes blocked and later reads throw `.cancelled` and cancels the data
/// source. Over a `CacheDataSource`, the resource's cache entry stays in use (never
/// evicted) from creation until `cancel()` or deinitialisation.
public final class CacheByteSource: ByteSource, @unchecked Sendable {
  // Unchecked Sendable: the `let`s never change; the shared state is guarded by its
  // condition.
  public let url: URL
  /// The bytes per request and per chunk.
  public let chunkBytes: Int
  /// How many chunks past the one being read are loaded ahead.
  public let readAheadChunks: Int
  private let dataSource: any DataSource
  private let state: ChunkState
  /// Keeps the resource's cache entry from eviction while the source is open.
  private let lease: CacheLease?

  /// Creates a source for `url` that loads through `dataSource`; nothing is requested
  /// until `open()` or the first read. `chunkBytes` is at least 4 KiB and
  /// `readAheadChunks` at least 0.
  public init(
    url: URL, dataSource: any DataSource, chunkBytes: Int = 1024 * 1024, readAheadChunks: Int = 2
  ) {
    self.url = url
    self.dataSource = dataSource
    self.chunkBytes = max(4096, chunkBytes)
    self.readAheadChunks = max(0, readAheadChunks)
    state = ChunkState()
    if let cached = dataSource as? CacheDataSource, MediaCache.isEnabled {
      lease = CacheLease(cache: cached.cache, key: cached.cache.key(for: url))
    } else {
      lease = nil
    }
  }

  deinit {
    state.stop()
    lease?.release()
  }

  /// The resource's length once known (after `open()` in practice).
  public var length: Int64? {
    state.condition.lock()
    defer { state.condition.unlock() }
    return state.length
  }

  /// Loads the first chunk, so that a missing resource or a refused connection fails
  /// here and `length` is known.
  public func open() throws(PlayheadError) {
    state.condition.lock()
    defer { state.condition.unlock() }
    let chunk = try waitForChunk(0)
    if chunk.isEmpty {
      throw PlayheadError(.emptySource, "resource is empty: \(url.absoluteString)", url: url)
    }
  }

  /// Reads up to `buffer.count` bytes at `offset` (at most to the end of its chunk),
  /// blocking until the chunk is loaded; returns 0 at the end of the resource.
  ///
  /// Throws `.invalidArgument` for a negative offset, and the data source's errors.
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
    throws(PlayheadError) -> Int
  {
    guard offset >= 0 else {
      throw PlayheadError(.invalidArgument, "negative read offset \(offset)", url: url)
    }
    state.condition.lock()
    defer { state.condition.unlock() }
    if state.cancelled { throw cancelledError() }
    if let length = state.length, offset >= length { return 0 }
    guard buffer.count > 0 else { return 0 }
    let index = offset / Int64(chunkBytes)
    let chunk = try waitForChunk(index)
    let within = Int(offset - index * Int64(chunkBytes))
    guard within < chunk.count else { return 0 }
    let count = min(buffer.count, chunk.count - within)
    chunk.withUnsafeBytes { raw in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[within..<(within + count)]))
    }
    return count
  }

  /// Makes blocked and later reads throw `.cancelled` and cancels the data source. Safe
  /// from any thread.
  public func cancel() {
    state.condition.lock()
    let first = !state.cancelled
    state.cancelled = true
    state.loadToken?.abandon()
    state.condition.broadcast()
    state.condition.unlock()
    if first { dataSource.cancelAll() }
    lease?.release()
  }

  // MARK: Internals (the caller holds the state's lock)

  private func cancelledError() -> PlayheadError {
    PlayheadError(.cancelled, "read cancelled: \(url.absoluteString)", url: url)
  }

  /// Makes `index` the wanted chunk and waits until it is loaded or has failed.
  private func waitForChunk(_ index: Int64) throws(PlayheadError) -> Data {
    if state.wanted != index {
      state.wanted = index
      state.skipped.removeAll()
      state.prune(readAhead: readAheadChunks)
    }
    // A chunk whose failure was thrown before is tried again now.
    state.skipped.remove(index)
    startWorkerIfNeeded()
    state.condition.broadcast()
    while true {
      if state.cancelled { throw cancelledError() }
      if let chunk = state.chunks[index] { return chunk }
      if let error = state.failures.removeValue(forKey: index) {
        state.skipped.insert(index)
        throw error
      }
      state.condition.wait()
    }
  }

  private func startWorkerIfNeeded() {
    guard !state.workerStarted else { return }
    state.workerStarted = true
    let worker = ChunkWorker(
      url: url, dataSource: dataSource, state: state, chunkBytes: Int64(chunkBytes),
      readAhead: readAheadChunks)
    let thread = Thread { worker.run() }
    thread.name = "playhead.cache-reader"
    thread.start()
  }
}
