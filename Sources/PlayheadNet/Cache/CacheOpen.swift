import Foundation
import PlayheadCore

/// One open of a `CacheDataSource`: walks the requested bytes in order, reading cached
/// spans from disk and streaming each hole from upstream into the cache.
///
/// Used by the source's reading thread only (`open`, `read`, `close` come one at a time);
/// `readsFromDisk` and the lease may be read from any thread.
final class CacheOpen: @unchecked Sendable {
  // Unchecked Sendable: every `var` is the reading thread's; `disk` is locked.
  let request: DataRequest
  let passthrough: Bool
  let lease: CacheLease?

  /// What the open reads now.
  private enum Piece {
    /// Nothing yet: the next read finds the next piece.
    case next
    /// The open has delivered all it will.
    case done
    /// A cached span, read from disk.
    case cached(CacheSpan)
    /// A hole, streamed from upstream up to `holeEnd` (the resource's end when nil).
    case upstream(holeEnd: Int64?, wholeResource: Bool)
    /// A complete playlist read whole from the cache.
    case memory(Data, offset: Int)
    /// A playlist streamed from upstream, kept whole when collected.
    case playlist
  }

  private var piece = Piece.next
  private var position: Int64 = 0
  /// Where the open ends (exclusive), once known.
  private var end: Int64?
  /// The resource's length as this open learned it (also when the cache did not store it).
  private var learnedLength: Int64?
  /// Upstream bytes read but not stored yet, from `pendingStart`.
  private var pending = Data()
  private var pendingStart: Int64 = 0
  /// Set once the resource starts like a playlist under another name: stored only whole
  /// and complete, so every byte is kept until the end.
  private var playlistLike = false
  private var checkedForPlaylist = false
  /// A playlist being collected from upstream (nil: not collected).
  private var playlistBytes: Data?
  private var cachedCount: Int64 = 0
  private var upstreamCount: Int64 = 0
  private let disk = Locked(false)

  /// An open that goes straight to upstream.
  init(request: DataRequest, passthrough: Bool) {
    self.request = request
    self.passthrough = passthrough
    lease = nil
  }

  /// An open through the cache entry `lease` holds.
  init(request: DataRequest, lease: CacheLease) {
    self.request = request
    passthrough = false
    self.lease = lease
  }

  /// Whether the open is reading a cached span now (nothing to wait for).
  var readsFromDisk: Bool { disk.value }

  /// Takes the bytes delivered from the cache and from upstream since the last call.
  func takeCounts() -> (Int64, Int64) {
    defer {
      cachedCount = 0
      upstreamCount = 0
    }
    return (cachedCount, upstreamCount)
  }

  /// Finds the first piece and returns the open's head.
  func start(cache: MediaCache, upstream: any DataSource) throws(PlayheadError)
    -> DataResponseHead
  {
    let url = request.url
    guard let entry = lease?.entry else { throw PlayheadError.notOpen(url) }
    if request.range?.length == 0 {
      piece = .done
      return DataResponseHead(url: url, length: 0, isFromCache: true)
    }
    if CacheDataSource.isPlaylist(request) {
      return try startPlaylist(entry: entry, cache: cache, upstream: upstream)
    }
    let start = request.range?.offset ?? 0
    position = start
    pendingStart = start
    let known = cache.state(of: entry)
    if let total = known.totalLength {
      if start >= total, request.range != nil, !(start == 0 && total == 0) {
        throw PlayheadError(
          .httpStatus,
          "byte range \(request.range?.description ?? "") is past the end of the "
            + "\(total)-byte resource \(url.absoluteString)", url: url, httpStatusCode: 416)
      }
      end = min(request.range?.end ?? total, total)
    } else {
      end = request.range?.end
    }
    let upstreamHead = try advance(entry: entry, cache: cache, upstream: upstream)
    let total = cache.state(of: entry).totalLength ?? learnedLength
    if let total { end = min(end ?? total, total) }
    let length = end.map { max(0, $0 - start) } ?? upstreamHead?.length
    let coveredByCache =
      end.map {
        CacheSpans.uncovered(offset: start, end: $0, by: cache.state(of: entry).spans).isEmpty
      } ?? false
    guard let upstreamHead else {
      return DataResponseHead(
        url: url, statusCode: request.range == nil ? 200 : 206, length: length,
        totalLength: total, isFromCache: coveredByCache)
    }
    var head = upstreamHead
    head.length = length
    head.totalLength = total ?? upstreamHead.totalLength
    return head
  }

  /// Reads the next bytes of the open; 0 at its end.
  func read(
    into buffer: UnsafeMutableRawBufferPointer, cache: MediaCache, upstream: any DataSource,
    isCancelled: () -> Bool
  ) throws(PlayheadError) -> Int {
    guard let entry = lease?.entry else { throw PlayheadError.notOpen(request.url) }
    guard buffer.count > 0 else { return 0 }
    while true {
      if isCancelled() { throw PlayheadError.sourceCancelled(request.url) }
      switch piece {
      case .done:
        return 0
      case .next:
        _ = try advance(entry: entry, cache: cache, upstream: upstream)
      case .memory(let data, let offset):
        let count = min(buffer.count, data.count - offset)
        guard count > 0 else {
          piece = .done
          return 0
        }
        data.withUnsafeBytes { raw in
          buffer.baseAddress!.copyMemory(from: raw.baseAddress! + offset, byteCount: count)
        }
        piece = .memory(data, offset: offset + count)
        cachedCount += Int64(count)
        return count
      case .playlist:
        return try readPlaylist(into: buffer, entry: entry, cache: cache, upstream: upstream)
      case .cached(let span):
        let pieceEnd = min(span.end, end ?? span.end)
        let count = Int(min(Int64(buffer.count), pieceEnd - position))
        guard count > 0 else {
          piece = .next
          continue
        }
        guard let bytes = cache.read(entry, span: span, at: position, count: count) else {
          cache.discard(span, of: entry)
          piece = .next
          continue
        }
        bytes.withUnsafeBytes { raw in
          buffer.baseAddress!.copyMemory(from: raw.baseAddress!, byteCount: count)
        }
        position += Int64(count)
        cachedCount += Int64(count)
        if position >= pieceEnd { piece = .next }
        return count
      case .upstream(let holeEnd, let wholeResource):
        let count: Int
        do {
          count = try upstream.read(into: buffer)
        } catch {
          store(entry: entry, cache: cache, wholeResource: wholeResource, atEnd: false)
          throw error
        }
        if count > 0 {
          pending.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
          position += Int64(count)
          upstreamCount += Int64(count)
          if !checkedForPlaylist, pendingStart == 0, pending.count >= 16 {
            checkedForPlaylist = true
            playlistLike = CacheDataSource.looksLikePlaylist(pending)
          }
          if !playlistLike, pending.count >= cache.configuration.effectiveChunkBytes {
            store(entry: entry, cache: cache, wholeResource: wholeResource, atEnd: false)
          }
          // A hole read to its known end is stored now: a reader that has what it wants
          // (a demuxer at the end of the media) may never ask for the zero-byte read.
          if let holeEnd, position >= holeEnd {
            endHole(entry: entry, cache: cache, upstream: upstream, wholeResource: wholeResource)
          }
          return count
        }
        // The hole (or the resource) ended.
        if let holeEnd {
          if position < holeEnd { learnedLength = position }
        } else {
          learnedLength = learnedLength ?? position
        }
        endHole(entry: entry, cache: cache, upstream: upstream, wholeResource: wholeResource)
      }
    }
  }

  /// Stores a hole that upstream has delivered to its end and lets upstream go.
  private func endHole(
    entry: CacheEntry, cache: MediaCache, upstream: any DataSource, wholeResource: Bool
  ) {
    if !checkedForPlaylist, pendingStart == 0 {
      checkedForPlaylist = true
      playlistLike = CacheDataSource.looksLikePlaylist(pending)
    }
    store(entry: entry, cache: cache, wholeResource: wholeResource, atEnd: true)
    upstream.close()
    piece = .next
  }

  /// Stores what is pending, closes upstream, and lets the entry go.
  func finish(cache: MediaCache, upstream: any DataSource) {
    if let entry = lease?.entry {
      switch piece {
      case .upstream(_, let wholeResource):
        store(entry: entry, cache: cache, wholeResource: wholeResource, atEnd: false)
        upstream.close()
      case .playlist:
        upstream.close()
      default: break
      }
    }
    piece = .done
    lease?.release()
  }

  // MARK: Pieces

  /// Finds the piece at `position`: a cached span, the end, or a hole that is opened
  /// upstream (whose head is returned).
  private func advance(entry: CacheEntry, cache: MediaCache, upstream: any DataSource)
    throws(PlayheadError) -> DataResponseHead?
  {
    let known = cache.state(of: entry)
    if let total = known.totalLength ?? learnedLength { end = min(end ?? total, total) }
    if let end, position >= end {
      piece = .done
      disk.withLock { $0 = false }
      return nil
    }
    if let span = CacheSpans.span(containing: position, in: known.spans) {
      piece = .cached(span)
      disk.withLock { $0 = true }
      return nil
    }
    disk.withLock { $0 = false }
    let next = CacheSpans.nextStart(after: position, in: known.spans)
    let holeEnd = [next, end].compactMap { $0 }.min()
    // Nothing cached and the whole resource wanted: ask exactly as the caller did.
    let wholeResource = position == 0 && holeEnd == nil && request.range == nil
    let range: ByteRange? =
      wholeResource ? nil : ByteRange(offset: position, length: holeEnd.map { $0 - position })
    var holeRequest = request
    holeRequest.range = range
    let head: DataResponseHead
    do {
      head = try upstream.open(holeRequest)
    } catch {
      // With the length unknown, a range just past the last byte is refused with 416:
      // the resource ends there.
      if error.code == .httpStatus, error.httpStatusCode == 416, holeEnd == nil,
        position > (request.range?.offset ?? 0)
      {
        learnedLength = position
        piece = .done
        return nil
      }
      throw error
    }
    if let total = head.totalLength { learnedLength = total }
    pending = Data()
    pendingStart = position
    piece = .upstream(holeEnd: holeEnd, wholeResource: wholeResource)
    return head
  }

  /// Stores the pending upstream bytes (all of them at a hole's end; a playlist met under
  /// another name only whole and complete).
  private func store(entry: CacheEntry, cache: MediaCache, wholeResource: Bool, atEnd: Bool) {
    defer {
      if !playlistLike || atEnd {
        pending = Data()
        pendingStart = position
      }
    }
    guard !pending.isEmpty else { return }
    if playlistLike {
      guard atEnd, wholeResource, CacheDataSource.isCompletePlaylist(pending) else { return }
    }
    cache.store(pending, at: pendingStart, totalLength: learnedLength, in: entry)
  }

  // MARK: Playlists

  /// A playlist: served whole from the cache when a complete copy is there; otherwise
  /// streamed from upstream and stored when it is a complete VOD playlist.
  private func startPlaylist(entry: CacheEntry, cache: MediaCache, upstream: any DataSource)
    throws(PlayheadError) -> DataResponseHead
  {
    let known = cache.state(of: entry)
    if request.range == nil, let length = known.totalLength,
      let span = known.spans.first, span.offset == 0, span.length == length,
      let data = cache.read(entry, span: span, at: 0, count: Int(length))
    {
      piece = .memory(data, offset: 0)
      disk.withLock { $0 = true }
      return DataResponseHead(
        url: request.url, statusCode: 200, length: length, totalLength: length,
        isFromCache: true)
    }
    let head = try upstream.open(request)
    piece = .playlist
    playlistBytes = request.range == nil ? Data() : nil
    return head
  }

  private func readPlaylist(
    into buffer: UnsafeMutableRawBufferPointer, entry: CacheEntry, cache: MediaCache,
    upstream: any DataSource
  ) throws(PlayheadError) -> Int {
    let count = try upstream.read(into: buffer)
    if count > 0 {
      playlistBytes?.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
      upstreamCount += Int64(count)
      return count
    }
    if let bytes = playlistBytes, CacheDataSource.isCompletePlaylist(bytes) {
      cache.store(bytes, at: 0, totalLength: Int64(bytes.count), in: entry)
    }
    playlistBytes = nil
    upstream.close()
    piece = .done
    return 0
  }
}
