import Foundation
import PlayheadCore
import PlayheadNet

/// The bytes of one demuxer run: the initialisation section (if any) followed by
/// consecutive segments of one rendition, read from the segment queue as they arrive.
///
/// The run ends (reads return 0) before a segment that cannot continue it: another
/// rendition, a discontinuity, a new initialisation section, or a gap in the sequence. A
/// data source over memory the downloader fills: an open at an offset (a demuxer stepping
/// back within the retained window) goes on from there; closing keeps what the run holds.
final class HLSRunFeed: DataSource, Sendable {
  let url: URL
  private let queue: HLSSegmentQueue
  /// The queue generation the feed reads.
  let generation: Int
  /// The first segment of the run (already downloaded).
  let first: DownloadedSegment
  /// Where each segment starts in the run, with its sample key.
  let keySchedule = RunKeySchedule()
  private let state: Locked<State>

  /// What the run has taken from the queue so far.
  private struct State: Sendable {
    /// Loaded chunks: (offset of the chunk in the run, bytes).
    var chunks: [(offset: Int64, data: Data)] = []
    var loadedLength: Int64 = 0
    /// The end of the furthest bytes a read has copied out.
    var handedOutEnd: Int64 = 0
    var lastSegment: DownloadedSegment?
    /// The ordinal of the next segment to append.
    var nextOrdinal: Int
    var finished = false
    var cancelled = false
    /// The URI of the first and of the latest segment the run has taken (a run on a live
    /// stream can last for hours, so the ones between are not kept).
    var firstURI: URL?
    var latestURI: URL?
    /// The run offset the next read starts at.
    var position: Int64 = 0
  }

  /// What one pass of `read` under the lock found.
  private enum ReadStep: Sendable {
    /// This many bytes were copied.
    case copied(Int)
    /// The run has ended.
    case ended
    /// The bytes are not loaded yet: the segment with this ordinal is next, after
    /// `previous`.
    case fetch(ordinal: Int, previous: DownloadedSegment?)
  }

  init(queue: HLSSegmentQueue, first: DownloadedSegment, generation: Int, url: URL)
    throws(PlayheadError)
  {
    self.queue = queue
    self.first = first
    self.generation = generation
    self.url = url
    var initial = State(nextOrdinal: first.ordinal + 1)
    if let initSection = first.initSection {
      initial.chunks.append((0, initSection))
      initial.loadedLength = Int64(initSection.count)
    }
    try keySchedule.add(offset: initial.loadedLength, key: first.sampleKey)
    initial.chunks.append((initial.loadedLength, first.data))
    initial.loadedLength += Int64(first.data.count)
    initial.lastSegment = first
    initial.firstURI = first.uri
    initial.latestURI = first.uri
    state = Locked(initial)
  }

  /// The URIs of the first and of the latest segment the run has taken so far (one URI
  /// when they are the same segment); empty when the segments have no URI.
  var segmentURIs: [URL] {
    state.withLock { state in
      guard let firstURI = state.firstURI else { return [] }
      guard let latestURI = state.latestURI, latestURI != firstURI else { return [firstURI] }
      return [firstURI, latestURI]
    }
  }

  /// Goes to the run offset `request.range.offset` (0 by default); the run's length is not
  /// known until it ends. A run is read in order as its segments arrive, so its demuxer is
  /// told it is not seekable (`Demuxer(reader:isSeekable:)`): the MP4 demuxer would wait
  /// for every fragment of the run, which the downloader only fetches as playback moves,
  /// before giving its first packet.
  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    let url = url
    try state.withLock { (state) throws(PlayheadError) in
      if state.cancelled { throw PlayheadError(.cancelled, "read cancelled", url: url) }
      state.position = request.range?.offset ?? 0
    }
    return DataResponseHead(url: url)
  }

  /// Reads at the position and moves it on.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    let offset = state.withLock { $0.position }
    let count = try read(into: buffer, at: offset)
    state.withLock { $0.position = offset + Int64(count) }
    return count
  }

  /// Nothing to let go: the run keeps its bytes for a later open.
  func close() {}

  /// How far behind the read position the feed keeps media bytes (the initialisation
  /// section, or the run's first chunk, is always kept). Demuxers read a run in order and
  /// step back only within their probe window or to the initialisation section, so 2 MiB
  /// is ample; a larger window is memory a long run holds for nothing.
  static let retainedHistoryBytes: Int64 = 2 << 20

  /// The bytes the feed holds now (the kept first chunk and the history window).
  var retainedByteCount: Int {
    state.withLock { state in state.chunks.reduce(0) { $0 + $1.data.count } }
  }

  /// The ordinal after the last segment this run took (where the next run starts).
  var endOrdinal: Int {
    state.withLock { $0.nextOrdinal }
  }

  /// True once every loaded byte has been read and the segment the run needs next is
  /// neither here nor known not to come: the demuxer's next read would wait for it.
  var nextReadMayWait: Bool {
    let (waitsForSegment, ordinal) = state.withLock { state in
      (
        !state.finished && !state.cancelled && state.handedOutEnd >= state.loadedLength,
        state.nextOrdinal
      )
    }
    return waitsForSegment && queue.wouldWait(forOrdinal: ordinal, generation: generation)
  }

  private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
    throws(PlayheadError) -> Int
  {
    let url = url
    while true {
      let step = try state.withLock { (state) throws(PlayheadError) -> ReadStep in
        if state.cancelled {
          throw PlayheadError(.cancelled, "read cancelled", url: url)
        }
        if let chunk = state.chunks.last(where: { $0.offset <= offset }),
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
          while state.chunks.count > 2,
            state.chunks[1].offset + Int64(state.chunks[1].data.count) < keepFrom
          {
            state.chunks.remove(at: 1)
          }
          state.handedOutEnd = max(state.handedOutEnd, offset + Int64(count))
          return .copied(count)
        }
        if let firstChunk = state.chunks.first,
          offset >= firstChunk.offset + Int64(firstChunk.data.count),
          state.chunks.count > 1, offset < state.chunks[1].offset
        {
          throw PlayheadError(.ioError, "HLS run read before its retained window", url: url)
        }
        if offset < (state.chunks.first?.offset ?? 0) {
          throw PlayheadError(.ioError, "HLS run read before its retained window", url: url)
        }
        if state.finished { return .ended }
        return .fetch(ordinal: state.nextOrdinal, previous: state.lastSegment)
      }
      let wanted: Int
      let previous: DownloadedSegment?
      switch step {
      case .copied(let count): return count
      case .ended: return 0
      case .fetch(let ordinal, let last): (wanted, previous) = (ordinal, last)
      }
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
        state.withLock { $0.finished = true }
        continue
      }
      let offset = state.withLock { $0.loadedLength }
      try keySchedule.add(offset: offset, key: next.sampleKey)
      state.withLock { state in
        state.chunks.append((state.loadedLength, next.data))
        state.loadedLength += Int64(next.data.count)
        state.lastSegment = next
        state.nextOrdinal = wanted + 1
        if let uri = next.uri { state.latestURI = uri }
      }
      queue.discard(before: wanted + 1)
    }
  }

  func cancel() {
    state.withLock { $0.cancelled = true }
    queue.cancel()
  }
}
