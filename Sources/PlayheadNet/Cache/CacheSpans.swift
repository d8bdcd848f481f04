import Foundation
import PlayheadCore

/// A run of cached bytes of one resource: `[offset, offset + length)`, stored in one file.
struct CacheSpan: Codable, Hashable, Sendable {
  var offset: Int64
  var length: Int64

  var end: Int64 { offset + length }

  /// The span's file name inside its entry's directory.
  var fileName: String { "\(offset).span" }
}

/// Operations on a sorted list of non-overlapping spans.
enum CacheSpans {
  /// The span that holds byte `position`, if any.
  /// The byte ranges `spans` cover, adjacent spans joined, in order.
  static func mergedRanges(_ spans: [CacheSpan]) -> [ByteRange] {
    var ranges: [ByteRange] = []
    for span in spans.sorted(by: { $0.offset < $1.offset }) {
      if let last = ranges.last, let lastEnd = last.end, lastEnd >= span.offset {
        ranges[ranges.count - 1] = ByteRange(
          offset: last.offset, length: max(lastEnd, span.end) - last.offset)
      } else {
        ranges.append(ByteRange(offset: span.offset, length: span.length))
      }
    }
    return ranges
  }

  static func span(containing position: Int64, in spans: [CacheSpan]) -> CacheSpan? {
    spans.first { $0.offset <= position && position < $0.end }
  }

  /// The start of the first span after `position`, if any.
  static func nextStart(after position: Int64, in spans: [CacheSpan]) -> Int64? {
    spans.first { $0.offset > position }?.offset
  }

  /// The parts of `[offset, end)` that no span covers, in order.
  static func uncovered(offset: Int64, end: Int64, by spans: [CacheSpan]) -> [CacheSpan] {
    var pieces: [CacheSpan] = []
    var cursor = offset
    for span in spans where span.end > cursor && span.offset < end {
      if span.offset > cursor {
        pieces.append(CacheSpan(offset: cursor, length: span.offset - cursor))
      }
      cursor = max(cursor, span.end)
      if cursor >= end { break }
    }
    if cursor < end { pieces.append(CacheSpan(offset: cursor, length: end - cursor)) }
    return pieces
  }

  /// `spans` with `added` (which overlap neither `spans` nor each other) merged in order.
  static func inserting(_ added: [CacheSpan], into spans: [CacheSpan]) -> [CacheSpan] {
    (spans + added).sorted { $0.offset < $1.offset }
  }

  /// Whether `spans` cover `[0, length)` entirely.
  static func covers(length: Int64, with spans: [CacheSpan]) -> Bool {
    uncovered(offset: 0, end: length, by: spans).isEmpty
  }

  /// Whether `spans` are well formed: positive lengths, sorted, not overlapping, and
  /// inside `totalLength` when it is known.
  static func areValid(_ spans: [CacheSpan], totalLength: Int64?) -> Bool {
    var previousEnd: Int64 = 0
    for span in spans {
      guard span.offset >= previousEnd, span.length > 0, span.offset <= Int64.max - span.length
      else { return false }
      if let totalLength, span.end > totalLength { return false }
      previousEnd = span.end
    }
    return true
  }
}

/// The index of one cache entry as stored in its `index.json`.
struct CacheEntryIndex: Codable, Sendable {
  /// The index format; only 1 is known.
  var format: Int
  /// The cache key the entry stores.
  var key: String
  /// The resource's whole length, once known.
  var totalLength: Int64?
  /// The spans whose files are on disk, sorted by offset.
  var spans: [CacheSpan]

  static let currentFormat = 1
}
