import Foundation
import PlayheadCore

/// The bytes of one demuxer run: the initialisation section (if any) followed by
/// consecutive segments of one rendition, read from the segment queue as they arrive.
///
/// The run ends (reads return 0) before a segment that cannot continue it: another
/// rendition, a discontinuity, a new initialisation section, or a gap in the sequence.
final class HLSRunFeed: ByteSource, @unchecked Sendable {
  let url: URL
  private let queue: HLSSegmentQueue
  /// The queue generation the feed reads.
  let generation: Int
  private let lock = NSLock()
  /// Loaded chunks: (offset of the chunk in the run, bytes).
  private var chunks: [(offset: Int64, data: Data)] = []
  private var loadedLength: Int64 = 0
  private var lastSegment: DownloadedSegment?
  /// The ordinal of the next segment to append.
  private(set) var nextOrdinal: Int
  private var finished = false
  private var cancelled = false

  /// The first segment of the run (already downloaded).
  let first: DownloadedSegment
  /// The URIs of the segments the run has taken so far, in order.
  private var takenURIs: [URL] = []

  init(queue: HLSSegmentQueue, first: DownloadedSegment, generation: Int, url: URL) {
    self.queue = queue
    self.first = first
    self.generation = generation
    self.url = url
    self.nextOrdinal = first.ordinal + 1
    if let initSection = first.initSection {
      chunks.append((0, initSection))
      loadedLength = Int64(initSection.count)
    }
    chunks.append((loadedLength, first.data))
    loadedLength += Int64(first.data.count)
    lastSegment = first
    if let uri = first.uri { takenURIs.append(uri) }
  }

  /// The URIs of the segments the run has taken so far (the first, and those appended
  /// as the demuxer read on).
  var segmentURIs: [URL] {
    lock.lock()
    defer { lock.unlock() }
    return takenURIs
  }

  var length: Int64? { nil }

  /// How far behind the read position the feed keeps bytes.
  static let retainedHistoryBytes: Int64 = 16 << 20

  /// The ordinal after the last segment this run took (where the next run starts).
  var endOrdinal: Int {
    lock.lock()
    defer { lock.unlock() }
    return nextOrdinal
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(PlayheadError)
    -> Int
  {
    while true {
      lock.lock()
      if cancelled {
        lock.unlock()
        throw PlayheadError(.cancelled, "read cancelled", url: url)
      }
      if let chunk = chunks.last(where: { $0.offset <= offset }),
        offset < chunk.offset + Int64(chunk.data.count)
      {
        let start = Int(offset - chunk.offset)
        let count = min(buffer.count, chunk.data.count - start)
        chunk.data.withUnsafeBytes { raw in
          buffer.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: count)
        }
        // Keep history for demuxers that step back (the MP4 demuxer returns to the
        // initialisation section): drop only media chunks well behind the read position.
        let keepFrom = offset - Self.retainedHistoryBytes
        while chunks.count > 2,
          chunks[1].offset + Int64(chunks[1].data.count) < keepFrom
        {
          chunks.remove(at: 1)
        }
        lock.unlock()
        return count
      }
      if let firstChunk = chunks.first, offset >= firstChunk.offset + Int64(firstChunk.data.count),
        chunks.count > 1, offset < chunks[1].offset
      {
        lock.unlock()
        throw PlayheadError(.ioError, "HLS run read before its retained window", url: url)
      }
      if offset < (chunks.first?.offset ?? 0) {
        lock.unlock()
        throw PlayheadError(.ioError, "HLS run read before its retained window", url: url)
      }
      if finished {
        lock.unlock()
        return 0
      }
      let wanted = nextOrdinal
      let previous = lastSegment
      lock.unlock()
      let found: DownloadedSegment?
      do throws(PlayheadError) {
        found = try queue.segment(ordinal: wanted, generation: generation)
      } catch {
        if error.code == .cancelled { throw error }
        // End the run cleanly so the demuxer flushes what it holds; the error stays in
        // the queue and surfaces when the driver is asked for the next run.
        found = nil
      }
      guard let next = found, let previous, previous.continues(into: next) else {
        lock.lock()
        finished = true
        lock.unlock()
        continue
      }
      lock.lock()
      chunks.append((loadedLength, next.data))
      loadedLength += Int64(next.data.count)
      lastSegment = next
      nextOrdinal = wanted + 1
      if let uri = next.uri { takenURIs.append(uri) }
      lock.unlock()
      queue.discard(before: wanted + 1)
    }
  }

  func cancel() {
    lock.lock()
    cancelled = true
    lock.unlock()
    queue.cancel()
  }
}
