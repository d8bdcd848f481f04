import Foundation
import PlayheadCore
import PlayheadText

extension TextFetcher {
  /// The text track of the initialization section `initialization`; one without a `wvtt`
  /// or `stpp` track, or with broken boxes, throws `.unsupportedFormat` naming the box.
  func mp4TextTrack(_ initialization: SubtitleInitialization) throws(PlayheadError)
    -> MP4TextTrack
  {
    let url = initialization.url
    let bytes = try data(
      at: url, range: initialization.byteRange, purpose: .initializationSection)
    do {
      return try MP4TextTrack.parse(bytes)
    } catch {
      throw PlayheadError(
        .unsupportedFormat, "bad fMP4 text initialization \(url.absoluteString): \(error)",
        url: url)
    }
  }

  /// The cues of the fMP4 text segment `segment` of `track`; broken boxes or TTML throw
  /// `.unsupportedFormat` naming the box.
  func mp4Text(_ segment: SubtitleSegment, track: MP4TextTrack) throws(PlayheadError)
    -> MP4TextSegment
  {
    let bytes = try data(at: segment.url, range: segment.byteRange, purpose: .text)
    do {
      return try MP4TextParser.parse(segment: bytes, track: track)
    } catch {
      throw PlayheadError(
        .unsupportedFormat, "bad fMP4 text segment \(segment.url.absoluteString): \(error)",
        url: segment.url)
    }
  }
}
