import Foundation
import PlayheadCore

/// The chunks of a `CacheByteSource` and the loads that fetch them.
///
/// Every `var` is guarded by `condition`, which is broadcast on every change. Each chunk
/// load runs on a thread of its own, so that the chunk a reader waits for never queues
/// behind a read-ahead it has seeked away from. A load is never cancelled once sent:
/// cancelling a URLSession task at the moment it completes can crash FoundationNetworking
/// on Linux, so a load nobody wants any more simply finishes (its bytes still reach the
/// cache) and its chunk is dropped.
final class ChunkState: @unchecked Sendable {
  // Unchecked Sendable: the `let`s never change; the `var`s are guarded as above.
  let url: URL
  let dataSource: any DataSource
  let chunkBytes: Int64
  let readAhead: Int
  /// The most read-ahead loads at once (the wanted chunk always starts at once).
  let parallelReadAhead = 2

  let condition = NSCondition()
  /// Loaded chunks by index (the wanted one, the one before, and the read-ahead).
  var chunks: [Int64: Data] = [:]
  /// The chunk the reader is on.
  var wanted: Int64 = 0
  /// Chunks being loaded.
  var inFlight: Set<Int64> = []
  /// Errors of the wanted chunk, for the reader to throw (once).
  var failures: [Int64: PlayheadError] = [:]
  /// Chunks not to load until the reader asks again: read-ahead chunks that failed
  /// since the reader last moved, and the wanted chunk once its error was thrown.
  var skipped: Set<Int64> = []
  var length: Int64?
  var cancelled = false
  /// Set when the source is gone: no new load starts.
  var stopped = false
  /// Called (without the lock held) when a chunk load ends.
  var onChange: (@Sendable () -> Void)?

  init(url: URL, dataSource: any DataSource, chunkBytes: Int64, readAhead: Int) {
    self.url = url
    self.dataSource = dataSource
    self.chunkBytes = chunkBytes
    self.readAhead = readAhead
  }

  /// Stops starting loads.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  /// The chunks worth keeping: the one before the wanted one, to the read-ahead's end.
  private var keep: ClosedRange<Int64> { (wanted - 1)...(wanted + Int64(readAhead)) }

  /// Drops chunks and errors outside the chunks worth keeping. The caller holds the lock.
  func prune() {
    let keep = keep
    chunks = chunks.filter { keep.contains($0.key) }
    failures = failures.filter { $0.key == wanted }
  }

  /// Starts the loads that are due: the wanted chunk at once, then the read-ahead (within
  /// the length, once known), a few at a time. The caller holds the lock.
  func scheduleLoads() {
    guard !cancelled, !stopped else { return }
    let lastIndex = length.map { max(0, ($0 + chunkBytes - 1) / chunkBytes - 1) }
    for index in wanted...(wanted + Int64(readAhead)) {
      if let lastIndex, index > lastIndex { break }
      if index > wanted && length == nil { break }
      if chunks[index] != nil || failures[index] != nil || skipped.contains(index)
        || inFlight.contains(index)
      {
        continue
      }
      if index > wanted && inFlight.count >= parallelReadAhead { break }
      inFlight.insert(index)
      let length = length
      let thread = Thread { [self] in
        let result = load(index, length: length)
        condition.lock()
        inFlight.remove(index)
        record(result, for: index)
        scheduleLoads()
        let handler = onChange
        condition.broadcast()
        condition.unlock()
        handler?()
      }
      thread.name = "playhead.cache-reader"
      thread.start()
    }
  }

  /// Loads chunk `index`; also the resource's length when the response tells it.
  private func load(_ index: Int64, length: Int64?) -> Result<(Data, Int64?), PlayheadError> {
    let offset = index * chunkBytes
    let size = length.map { min(chunkBytes, $0 - offset) } ?? chunkBytes
    let request = DataRequest(
      url: url, range: ByteRange(offset: offset, length: size), purpose: .media)
    do throws(PlayheadError) {
      let response = try dataSource.load(request)
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

  /// The byte ranges of the chunks in memory, in order. The caller holds the lock.
  var heldRanges: [ByteRange] {
    chunks.keys.sorted().map { index in
      ByteRange(offset: index * chunkBytes, length: Int64(chunks[index]?.count ?? 0))
    }
  }

  /// Whether the chunks in memory run without a gap from the wanted one to the end of the
  /// resource. The caller holds the lock.
  var holdsRestOfResource: Bool {
    guard let length else { return false }
    var index = wanted
    while index * chunkBytes < length {
      guard chunks[index] != nil else { return false }
      index += 1
    }
    return true
  }

  /// Keeps a loaded chunk (if still worth keeping) or the wanted chunk's error. The
  /// caller holds the lock.
  private func record(_ result: Result<(Data, Int64?), PlayheadError>, for index: Int64) {
    switch result {
    case .success(let (data, total)):
      if let total, length == nil { length = total }
      if keep.contains(index) { chunks[index] = data }
    case .failure(let error):
      if cancelled || stopped { return }
      if index == wanted {
        failures[index] = error
      } else {
        skipped.insert(index)
      }
    }
  }
}
