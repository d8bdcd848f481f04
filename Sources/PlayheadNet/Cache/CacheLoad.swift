import Foundation
import PlayheadCore

/// One load of a `CacheDataSource` for a resource that is not a playlist: walks the
/// requested bytes in order, reading cached spans and fetching each hole from upstream.
struct CacheLoad {
  let source: CacheDataSource
  let request: DataRequest
  let entry: CacheEntry
  let progress: (@Sendable (TransferProgress) -> Bool)?

  private(set) var cachedBytes = 0
  private(set) var upstreamBytes = 0
  private var data = Data()
  private var upstreamStart: MediaTime?
  private var upstreamEnd: MediaTime?
  /// Clock time spent in upstream transfers so far (the progress `elapsed`).
  private var upstreamElapsed = MediaTime.zero
  private var lastUpstream: DataResponse?
  private var upstreamCount = 0
  /// The resource's length as this load learned it (also when the cache did not store it).
  private var learnedLength: Int64?

  init(
    source: CacheDataSource, request: DataRequest, entry: CacheEntry,
    progress: (@Sendable (TransferProgress) -> Bool)?
  ) {
    self.source = source
    self.request = request
    self.entry = entry
    self.progress = progress
  }

  /// Loads the requested bytes; see `CacheDataSource`.
  mutating func run() throws(PlayheadError) -> DataResponse {
    let cache = source.cache
    let start = request.range?.offset ?? 0
    var end = request.range?.end
    var position = start
    while true {
      try source.throwIfCancelled(request.url)
      let state = cache.state(of: entry)
      let total = state.totalLength ?? learnedLength
      if let total {
        if position == start, start >= total, request.range != nil {
          throw PlayheadError(
            .httpStatus,
            "byte range \(request.range?.description ?? "") is past the end of the "
              + "\(total)-byte resource \(request.url.absoluteString)", url: request.url,
            httpStatusCode: 416)
        }
        end = min(end ?? total, total)
      }
      if let end, position >= end { break }
      if let span = CacheSpans.span(containing: position, in: state.spans) {
        let pieceEnd = min(span.end, end ?? span.end)
        let count = Int(pieceEnd - position)
        guard let bytes = cache.read(entry, span: span, at: position, count: count) else {
          cache.discard(span, of: entry)
          continue
        }
        data.append(bytes)
        cachedBytes += count
        position = pieceEnd
        try report(expected: end.map { Int($0 - start) })
        continue
      }
      let next = CacheSpans.nextStart(after: position, in: state.spans)
      let holeEnd = [next, end].compactMap { $0 }.min()
      let fetched = try fetch(
        from: position, to: holeEnd, expected: end.map { Int($0 - start) })
      position += Int64(fetched)
      if fetched == 0 {
        learnedLength = position
        break
      }
    }
    return response(totalLength: cache.state(of: entry).totalLength ?? learnedLength)
  }

  /// Fetches `[position, holeEnd)` (to the end when nil) from upstream, stores it, and
  /// appends it; returns how many bytes came.
  private mutating func fetch(from position: Int64, to holeEnd: Int64?, expected: Int?)
    throws(PlayheadError) -> Int
  {
    // Nothing cached and the whole resource wanted: ask exactly as the caller did.
    let range: ByteRange? =
      position == 0 && holeEnd == nil && request.range == nil
      ? nil : ByteRange(offset: position, length: holeEnd.map { $0 - position })
    let upstreamRequest = DataRequest(
      url: request.url, range: range, purpose: request.purpose, headers: request.headers)
    let response: DataResponse
    do {
      response = try source.upstream.load(
        upstreamRequest, progress: forwardedProgress(expected: expected))
    } catch {
      // With the length unknown, a range just past the last byte is refused with 416:
      // the resource ends there.
      if error.code == .httpStatus, error.httpStatusCode == 416, holeEnd == nil,
        position > (request.range?.offset ?? 0)
      {
        return 0
      }
      throw error
    }
    upstreamStart = upstreamStart ?? response.startClock
    upstreamEnd = response.endClock
    upstreamElapsed = upstreamElapsed + response.duration
    lastUpstream = response
    upstreamCount += 1
    let count = response.data.count
    var length = response.totalLength
    if let holeEnd, Int64(count) < holeEnd - position {
      length = length ?? position + Int64(count)
    }
    if holeEnd == nil { length = length ?? position + Int64(count) }
    if let length { learnedLength = length }
    if shouldStore(response.data, at: position, wholeResource: range == nil) {
      source.cache.store(response.data, at: position, totalLength: length, in: entry)
    }
    data.append(response.data)
    upstreamBytes += count
    return count
  }

  /// Whether fetched bytes go into the cache: anything but a playlist met under another
  /// URL, which is stored only whole and complete.
  private func shouldStore(_ bytes: Data, at position: Int64, wholeResource: Bool) -> Bool {
    guard position == 0, CacheDataSource.looksLikePlaylist(bytes) else { return true }
    return wholeResource && CacheDataSource.isCompletePlaylist(bytes)
  }

  /// The caller's progress callback, shifted by the bytes this load already has.
  private func forwardedProgress(expected: Int?) -> (@Sendable (TransferProgress) -> Bool)? {
    guard let progress else { return nil }
    let base = data.count
    let elapsedBase = upstreamElapsed
    let request = request
    return { report in
      progress(
        TransferProgress(
          request: request, bytesLoaded: base + report.bytesLoaded,
          bytesExpected: expected ?? report.bytesExpected.map { base + $0 },
          elapsed: elapsedBase + report.elapsed))
    }
  }

  /// Tells the caller about bytes read from the cache; throws `.cancelled` when it says
  /// stop.
  private func report(expected: Int?) throws(PlayheadError) {
    guard let progress else { return }
    let report = TransferProgress(
      request: request, bytesLoaded: data.count, bytesExpected: expected,
      elapsed: upstreamElapsed)
    if !progress(report) {
      throw PlayheadError(
        .cancelled, "load abandoned after \(data.count) bytes: \(request.url.absoluteString)",
        url: request.url)
    }
  }

  private func response(totalLength: Int64?) -> DataResponse {
    if upstreamCount == 1, cachedBytes == 0, let only = lastUpstream {
      var response = only
      response.data = data
      response.totalLength = totalLength
      return response
    }
    let now = source.clock.now
    return DataResponse(
      data: data, url: request.url, statusCode: request.range == nil ? 200 : 206,
      startClock: upstreamStart ?? now, endClock: upstreamEnd ?? now, totalLength: totalLength)
  }
}
