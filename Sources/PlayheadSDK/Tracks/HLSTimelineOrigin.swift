import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia

/// Finds the media time at which an HLS item's timeline starts: the presentation time of
/// the first segment of the variant being played, as the engine counts it (its item time 0
/// is the container start time of that segment, docs/decisions/0003).
///
/// WebVTT segments place their cues on the media timeline (`X-TIMESTAMP-MAP`); subtracting
/// this origin puts them on the item timeline.
enum HLSTimelineOrigin {
  /// How much of a transport-stream segment is read: enough for the first packets of
  /// every stream.
  static let probeBytes: Int64 = 256 * 1024

  /// The start time of the first segment of the media playlist at `variantURL`; throws
  /// when it cannot be read (an encrypted segment, a failed load, nothing to demux).
  static func measure(variantURL: URL, fetcher: TextTrackFetcher) throws(PlayheadError)
    -> MediaTime
  {
    let playlist = try fetcher.mediaPlaylist(at: variantURL)
    guard let first = playlist.segments.first else {
      throw PlayheadError(.unsupportedFormat, "variant playlist has no segments", url: variantURL)
    }
    if let key = first.key, key.method != .none {
      throw PlayheadError(
        .unsupportedFormat, "first segment is encrypted; its start time is not read",
        url: first.uri)
    }
    var bytes = Data()
    if let map = first.map {
      bytes += try fetcher.data(at: map.uri, range: map.byteRange, purpose: .initializationSection)
      bytes += try fetcher.data(at: first.uri, range: first.byteRange, purpose: .segment)
    } else {
      let offset = first.byteRange?.offset ?? 0
      let length = min(first.byteRange?.length ?? probeBytes, probeBytes)
      bytes = try fetcher.data(
        at: first.uri, range: ByteRange(offset: offset, length: length), purpose: .segment)
    }
    let demuxer = try Demuxer(source: MemoryByteSource(bytes: bytes, url: first.uri))
    let start = demuxer.startTime
    guard start.isNumeric else {
      throw PlayheadError(.unsupportedFormat, "first segment has no start time", url: first.uri)
    }
    return start
  }
}
