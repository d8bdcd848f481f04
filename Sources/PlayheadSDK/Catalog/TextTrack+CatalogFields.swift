import Foundation

/// The Playback API text-track fields beyond the core ones (see docs/catalog.md).
extension TextTrack {
  /// The track's ID (`id`).
  public var id: String? { properties["id"]?.stringValue }
  /// The account (`account_id`).
  public var accountID: String? { properties["account_id"]?.stringValue }
  /// The WebVTT asset's ID (`asset_id`).
  public var assetID: String? { properties["asset_id"]?.stringValue }
  /// Every URL of the file (`sources[].src`), such as an http and an https one.
  public var sourceURLs: [URL] { properties.sourceURLs("sources") }
  /// The in-band metadata dispatch type (`in_band_metadata_track_dispatch_type`); when
  /// present, the track's cues are in the video's manifest.
  public var inBandMetadataTrackDispatchType: String? {
    properties["in_band_metadata_track_dispatch_type"]?.stringValue
  }
  /// Whether the track's cues come in the video's manifest rather than from `src`.
  public var isInBand: Bool {
    properties.bool("in_band") == true || inBandMetadataTrackDispatchType != nil
  }
}
