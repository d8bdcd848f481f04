import Foundation
import PlayheadCore
import PlayheadDASH

extension ThumbnailLoader {
  /// The largest MPD loaded for its thumbnails, in bytes (the MPD reader's limit, 16 MiB).
  public static let maximumManifestBytes = 16 * 1024 * 1024

  /// Fetches the DASH MPD at `url` and makes the track of its thumbnail tile sets (see
  /// `ThumbnailTrack.init(mpd:representationID:at:maximumCues:)`, widest tiles); nil when
  /// the MPD has no usable thumbnail set (why is logged at warning level).
  ///
  /// A dynamic MPD gives the thumbnails available at `now`, none when `now` is nil. Throws
  /// the data source's error, and `.unsupportedFormat` when the bytes are not an MPD
  /// (`MPDParser`'s error in the message) or are larger than `maximumManifestBytes`.
  public func loadDASHTrack(from url: URL, at now: Date? = nil) async throws(PlayheadError)
    -> ThumbnailTrack?
  {
    try await run { () throws(PlayheadError) -> ThumbnailTrack? in
      let data = try self.load(url, limit: Self.maximumManifestBytes, what: "MPD")
      let mpd: MPD
      do {
        mpd = try MPDParser.parse(data, url: url)
      } catch {
        throw PlayheadError(
          .unsupportedFormat, "\(url.absoluteString) is not a DASH MPD: \(error)", url: url)
      }
      var warnings: [String] = []
      let track = ThumbnailTrack.dashThumbnails(of: mpd, at: now, warnings: &warnings)
      if !warnings.isEmpty {
        Logger(label: "playhead.sdk.thumbnails").warning(
          "\(url.absoluteString): \(warnings.joined(separator: "; "))")
      }
      return track
    }
  }
}
