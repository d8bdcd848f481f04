import Foundation
import PlayheadCore

extension MPDSegmentBase {
  /// How many bytes `indexFetchRange` asks for when no `@indexRange` says: 32 KiB (a `sidx`
  /// of about 2,700 subsegments).
  public static let guessedIndexLength: Int64 = 32 * 1024

  /// The bytes of `media` to fetch for the segment index: `@indexRange`; without it, the
  /// `guessedIndexLength` bytes after the initialization range when that range is in the
  /// media file (packagers write the `sidx` right after the `moov`), else the first
  /// `guessedIndexLength` bytes of the file.
  ///
  /// Hand what arrives to `MPDSegmentIndex.parse(_:offset:)` with this range's offset; when
  /// it answers `.needsBytes`, fetch more from the same offset (a guess may fall short of a
  /// large `moov` or `sidx`).
  public var indexFetchRange: ByteRange {
    if let indexRange { return indexRange }
    var start: Int64 = 0
    if let initialization, initialization.url == media, let end = initialization.range?.end {
      start = end
    }
    return ByteRange(offset: start, length: Self.guessedIndexLength)
  }

  /// Whether the initialization and the index are one contiguous range of the media file
  /// (fetched with one request): the initialization range ends where `@indexRange` starts,
  /// or the other way round. That range, or nil.
  public var initializationAndIndexRange: ByteRange? {
    guard let indexRange, let initialization, initialization.url == media,
      let initRange = initialization.range, let initEnd = initRange.end,
      let indexEnd = indexRange.end
    else { return nil }
    if initEnd == indexRange.offset {
      return ByteRange(offset: initRange.offset, length: indexEnd - initRange.offset)
    }
    if indexEnd == initRange.offset {
      return ByteRange(offset: indexRange.offset, length: initEnd - indexRange.offset)
    }
    return nil
  }

  /// The media segments that `index` (this Representation's `sidx`) lists, in `period`:
  /// each a byte range of `media`, numbered from `startNumber`, at
  /// `Period.start + time / sidx timescale - presentationTimeOffset / timescale`.
  public func segments(
    from index: MPDSegmentIndex, in period: MPDPeriod, startNumber: Int64 = 1
  ) -> [MPDSegmentReference] {
    let offset = MediaTime(value: presentationTimeOffset, timescale: Int32(clamping: timescale))
    return index.entries.enumerated().map { number, entry in
      let scale = Int32(clamping: entry.timescale)
      return MPDSegmentReference(
        url: media, range: entry.range, number: startNumber + Int64(number),
        start: period.start + MediaTime(value: entry.time, timescale: scale) - offset,
        duration: MediaTime(value: entry.duration, timescale: scale), time: entry.time)
    }
  }
}
