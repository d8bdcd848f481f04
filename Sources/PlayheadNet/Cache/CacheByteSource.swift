import Foundation
import PlayheadCore

/// A byte source that reads a resource in fixed-size chunks through a data source —
/// typically a `CacheDataSource`, so that progressive media plays through the disk cache.
///
/// Chunk `k` is the range `[k × chunkBytes, (k + 1) × chunkBytes)`; a read loads the
/// chunk that holds its offset (a seek loads the chunk there), and up to
/// `readAheadChunks` chunks after it are loaded ahead, so sequential reading does not
/// wait for each request. With a `CacheDataSource`, cached chunks come from disk and a
/// chunk that is partly cached fetches only its missing bytes. A read-ahead that the
/// reader has seeked away from is not cancelled: it finishes in the background (its bytes
/// still reach the cache) and is dropped.
///
/// `open()` loads the first chunk and learns the length (from the response's
/// `totalLength`, or from a short last chunk). Errors are the data source's; `open()` of
/// an empty resource throws `.emptySource`. A failed chunk is tried again by the next
/// read. `cancel()` makes blocked and later reads throw `.cancelled` at once; requests
/// already sent finish in the background and none is sent after (cancelling a URLSession
/// task as it completes can crash FoundationNetworking on Linux, so the source never
/// cancels one). Over a `CacheDataSource`, the resource's cache entry stays in use (never
/// evicted) from creation until `cancel()` or deinitialisation.
public final class CacheByteSource: ByteSource, ByteBufferReporting, Sendable {
  // The `let`s never change; the shared state is guarded by its condition.
  public let url: URL
  /// The bytes per request and per chunk.
  public let chunkBytes: Int
  /// How many chunks past the one being read are loaded ahead.
  public let readAheadChunks: Int
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
    self.chunkBytes = max(4096, chunkBytes)
    self.readAheadChunks = max(0, readAheadChunks)
    state = ChunkState(
      url: url, dataSource: dataSource, chunkBytes: Int64(self.chunkBytes),
      readAhead: self.readAheadChunks)
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

  /// What the source holds: the chunks in memory and, over a cache, the resource's bytes
  /// on disk (both as `cachedRanges`); holding back while no chunk is loading.
  public var bufferState: ByteBufferState {
    let onDisk = lease?.cachedRanges ?? []
    state.condition.lock()
    defer { state.condition.unlock() }
    return ByteBufferState(
      isHoldingBack: state.inFlight.isEmpty, reachesEnd: state.holdsRestOfResource,
      cachedRanges: onDisk + state.heldRanges)
  }

  /// Sets what to call (on a loading thread) when a chunk load ends.
  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    state.condition.lock()
    state.onChange = handler
    state.condition.unlock()
  }

  /// Makes blocked and later reads throw `.cancelled`; no request is sent after it. Safe
  /// from any thread.
  public func cancel() {
    state.condition.lock()
    state.cancelled = true
    state.condition.broadcast()
    state.condition.unlock()
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
      state.prune()
    }
    // A chunk whose failure was thrown before is tried again now.
    state.skipped.remove(index)
    state.scheduleLoads()
    while true {
      if state.cancelled { throw cancelledError() }
      if let chunk = state.chunks[index] { return chunk }
      if let error = state.failures.removeValue(forKey: index) {
        state.skipped.insert(index)
        throw error
      }
      // A fast-mode worker lets the player's other threads run while a chunk loads.
      let turn = ClockTurn.release()
      state.condition.wait()
      if let turn {
        state.condition.unlock()
        turn.reacquire()
        state.condition.lock()
      }
    }
  }
}
