import Foundation
import PlayheadCore

/// Lets a chunk load in flight be abandoned (through its progress callback).
final class AbandonToken: @unchecked Sendable {
  // Unchecked Sendable: `abandoned` is guarded by `lock`.
  private let lock = NSLock()
  private var abandoned = false

  func abandon() {
    lock.lock()
    abandoned = true
    lock.unlock()
  }

  var isAbandoned: Bool {
    lock.lock()
    defer { lock.unlock() }
    return abandoned
  }
}

/// The state a `CacheByteSource` shares with its loader thread; every `var` is guarded by
/// `condition`, which is broadcast on every change.
final class ChunkState: @unchecked Sendable {
  // Unchecked Sendable: see above.
  let condition = NSCondition()
  /// Loaded chunks by index (the wanted one, the one before, and the read-ahead).
  var chunks: [Int64: Data] = [:]
  /// The chunk the reader is on.
  var wanted: Int64 = 0
  /// The chunk being loaded, and how to abandon it.
  var loading: Int64?
  var loadToken: AbandonToken?
  /// Errors of the wanted chunk, for the reader to throw (once).
  var failures: [Int64: PlayheadError] = [:]
  /// Chunks not to load until the reader asks again: read-ahead chunks that failed
  /// since the reader last moved, and the wanted chunk once its error was thrown.
  var skipped: Set<Int64> = []
  var length: Int64?
  var cancelled = false
  /// Set when the source is gone: the loader thread ends.
  var stopped = false
  var workerStarted = false

  /// Ends the loader thread.
  func stop() {
    condition.lock()
    stopped = true
    loadToken?.abandon()
    condition.broadcast()
    condition.unlock()
  }

  /// Drops chunks outside `[wanted - 1, wanted + readAhead]` and abandons a load there.
  /// The caller holds the lock.
  func prune(readAhead: Int) {
    let keep = (wanted - 1)...(wanted + Int64(readAhead))
    chunks = chunks.filter { keep.contains($0.key) }
    failures = failures.filter { $0.key == wanted }
    if let loading, !keep.contains(loading) || loading < wanted { loadToken?.abandon() }
  }

  /// The next chunk to load: the wanted one, then the read-ahead, within the length.
  /// The caller holds the lock.
  func nextTarget(chunkBytes: Int64, readAhead: Int) -> Int64? {
    let lastIndex = length.map { max(0, ($0 + chunkBytes - 1) / chunkBytes - 1) }
    for index in wanted...(wanted + Int64(readAhead)) {
      if let lastIndex, index > lastIndex { break }
      // Past the wanted chunk, read ahead only once the length is known.
      if index > wanted && length == nil { break }
      if chunks[index] == nil && failures[index] == nil && !skipped.contains(index) {
        return index
      }
    }
    return nil
  }
}

/// The loader thread of a `CacheByteSource`: loads the wanted chunk, then reads ahead.
struct ChunkWorker: Sendable {
  let url: URL
  let dataSource: any DataSource
  let state: ChunkState
  let chunkBytes: Int64
  let readAhead: Int

  func run() {
    state.condition.lock()
    while !state.stopped && !state.cancelled {
      guard let index = state.nextTarget(chunkBytes: chunkBytes, readAhead: readAhead) else {
        state.condition.wait()
        continue
      }
      let token = AbandonToken()
      state.loading = index
      state.loadToken = token
      let length = state.length
      state.condition.unlock()
      let result = load(index, length: length, token: token)
      state.condition.lock()
      state.loading = nil
      state.loadToken = nil
      record(result, for: index, abandoned: token.isAbandoned)
      state.condition.broadcast()
    }
    state.condition.unlock()
  }

  /// Loads chunk `index`; the resource's length when the response tells it.
  private func load(_ index: Int64, length: Int64?, token: AbandonToken)
    -> Result<(Data, Int64?), PlayheadError>
  {
    let offset = index * chunkBytes
    let size = length.map { min(chunkBytes, $0 - offset) } ?? chunkBytes
    let request = DataRequest(
      url: url, range: ByteRange(offset: offset, length: size), purpose: .media)
    do throws(PlayheadError) {
      let response = try dataSource.load(request) { _ in !token.isAbandoned }
      var total = response.totalLength
      if total == nil && Int64(response.data.count) < size {
        total = offset + Int64(response.data.count)
      }
      return .success((response.data, total))
    } catch {
      // With the length unknown, a chunk just past the end is refused with 416; the
      // first chunk refused means an empty resource.
      if length == nil, error.code == .httpStatus, error.httpStatusCode == 416 {
        guard index > 0 else {
          return .failure(
            PlayheadError(.emptySource, "resource is empty: \(url.absoluteString)", url: url))
        }
        return .success((Data(), offset))
      }
      return .failure(error)
    }
  }

  /// Keeps a loaded chunk (if still wanted) or the wanted chunk's error. The caller holds
  /// the lock.
  private func record(
    _ result: Result<(Data, Int64?), PlayheadError>, for index: Int64, abandoned: Bool
  ) {
    let keep = (state.wanted - 1)...(state.wanted + Int64(readAhead))
    switch result {
    case .success(let (data, total)):
      if let total, state.length == nil { state.length = total }
      if keep.contains(index) { state.chunks[index] = data }
    case .failure(let error):
      if abandoned || state.cancelled || state.stopped { return }
      if index == state.wanted {
        state.failures[index] = error
      } else {
        state.skipped.insert(index)
      }
    }
  }
}
