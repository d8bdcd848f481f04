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
  /// The URI of the first and of the latest segment the run has taken (a run on a live
  /// stream can last for hours, so the ones between are not kept).
  private var firstURI: URL?
  private var latestURI: URL?

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
    firstURI = first.uri
    latestURI = first.uri
  }

  /// The URIs of the first and of the latest segment the run has taken so far (one URI
  /// when they are the same segment); empty when the segments have no URI.
  var segmentURIs: [URL] {
    lock.lock()
    defer { lock.unlock() }
    guard let firstURI else { return [] }
    guard let latestURI, latestURI != firstURI else { return [firstURI] }
    return [firstURI, latestURI]
  }

  var length: Int64? { nil }

  /// A run is read in order as its segments arrive: demuxers must not scan ahead (the MP4
  /// demuxer would wait for every fragment of the run, which the downloader only fetches
  /// as playback moves, before giving its first packet).
  var isSeekable: Bool { false }

  /// How far behind the read position the feed keeps media bytes (the initialisation
  /// section, or the run's first chunk, is always kept). Demuxers read a run in order and
  /// step back only within their probe window or to the initialisation section, so 2 MiB
  /// is ample; a larger window is memory a long run holds for nothing.
  static let retainedHistoryBytes: Int64 = 2 << 20

  /// The bytes the feed holds now (the kept first chunk and the history window).
  var retainedByteCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return chunks.reduce(0) { $0 + $1.data.count }
  }

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
      if let uri = next.uri { latestURI = uri }
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
