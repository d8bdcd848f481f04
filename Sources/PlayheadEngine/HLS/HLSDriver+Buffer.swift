import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet

/// What the cached ranges of a level were computed for: they are computed again when any
/// of it changes.
struct CachedRangesKey: Equatable {
  var level: Int
  var segmentCount: Int
  var cacheBytes: Int64
}

extension HLSDriver {
  /// What the stream holds ahead of the demuxer (decision 0025): the segments downloaded
  /// in this stretch (from the first one's start to the last one's end, by the playlist's
  /// durations, whether or not a run has taken them yet) and the segments of the level
  /// being loaded that the disk cache holds. The stretch reaches the end once every
  /// segment to the end of the media, or to the item's forward end, is downloaded (or once
  /// loading failed: nothing more will come, and the reader gets the error next); it
  /// holds back while the downloader waits at its target.
  func buffer(demuxedUpTo: MediaTime?) -> SourceBuffer {
    let holdings = queue.holdings
    var ranges = holdings.range.map { [$0] } ?? []
    ranges += cachedSegmentRanges()
    return SourceBuffer(
      ranges: MediaTimeRange.merged(ranges), isKnown: true, reachesEnd: holdings.loadingOver,
      isHoldingBack: holdings.parked)
  }

  /// The disk cache the stream loads through, if any.
  private var diskCache: MediaCache? {
    stack.cache
  }

  /// The item-time ranges of the current level's segments that the disk cache holds
  /// whole (VOD only: a live playlist's segments move on). Computed again only when the
  /// level, its playlist or the cache's size changes.
  private func cachedSegmentRanges() -> [MediaTimeRange] {
    guard let cache = diskCache, MediaCache.isEnabled, !cache.isClosed else { return [] }
    lock.lock()
    let level = currentLevel
    let media = playlists[level]
    let memo = cachedRangesMemo
    let isLive = liveTimeline != nil
    lock.unlock()
    guard let media, media.endList, !isLive else { return [] }
    let key = CachedRangesKey(
      level: level, segmentCount: media.segments.count, cacheBytes: cache.totalBytes)
    if let memo, memo.key == key { return memo.ranges }
    var ranges: [MediaTimeRange] = []
    var start = MediaTime.zero
    for segment in media.segments {
      let end = start + segment.duration
      if Self.holds(cache, segment) { ranges.append(MediaTimeRange(start: start, end: end)) }
      start = end
    }
    let merged = MediaTimeRange.merged(ranges)
    lock.lock()
    cachedRangesMemo = (key, merged)
    lock.unlock()
    return merged
  }

  /// Whether `cache` holds every byte of `segment` (its byte range, or the whole resource).
  private static func holds(_ cache: MediaCache, _ segment: MediaSegment) -> Bool {
    guard let entry = cache.entry(forKey: cache.key(for: segment.uri)) else { return false }
    if entry.isComplete { return true }
    guard let range = segment.byteRange, let end = range.end else { return false }
    return entry.cachedRanges.contains { cached in
      cached.offset <= range.offset && (cached.end.map { $0 >= end } ?? true)
    }
  }
}
