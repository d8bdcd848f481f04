import Foundation
import PlayheadCore

/// The Playback API source fields (see docs/catalog.md for the table).
///
/// Each accessor reads `properties`; a field that is absent, `null` or of another type reads
/// as nil (or empty) and stays in `properties` as the API sent it.
extension Source {
  /// The rendition's ID in the video cloud (`asset_id`).
  public var assetID: String? { properties["asset_id"]?.stringValue }
  /// The video codec (`codec`), such as `H264`.
  public var codec: String? { properties["codec"]?.stringValue }
  /// The container (`container`), such as `MP4` or `M2TS`.
  public var container: String? { properties["container"]?.stringValue }
  /// The frame width in pixels (`width`).
  public var width: Int? { properties.integer("width").flatMap { Int(exactly: $0) } }
  /// The frame height in pixels (`height`).
  public var height: Int? { properties.integer("height").flatMap { Int(exactly: $0) } }
  /// The average bit rate in bits per second (`avg_bitrate`).
  public var averageBitRate: Int? {
    properties.integer("avg_bitrate").flatMap { Int(exactly: $0) }
  }
  /// The file size in bytes (`size`).
  public var sizeBytes: Int64? { properties.integer("size") }
  /// The rendition's duration (`duration`, milliseconds in the API); nil when absent or
  /// negative.
  public var duration: MediaTime? { properties.duration("duration") }
  /// The DRM key systems (`key_systems`), by name (`com.widevine.alpha`,
  /// `com.microsoft.playready`, `com.apple.fps.1_0`); empty for clear content.
  public var keySystems: [String: KeySystem] {
    (properties["key_systems"]?.objectValue ?? [:]).mapValues(KeySystem.init(json:))
  }
  /// Whether the source is DRM-protected (it lists at least one key system).
  public var isProtected: Bool { !keySystems.isEmpty }
  /// The DASH profiles (`profiles`), such as `urn:mpeg:dash:profile:isoff-live:2011`.
  public var profiles: String? { properties["profiles"]?.stringValue }
  /// The HLS version the playlist needs (`ext_x_version`, a string in the API).
  public var extXVersion: String? {
    switch properties["ext_x_version"] {
    case .string(let text)?: return text
    case .number(let number)?: return CatalogNumber.integer(number).map { String($0) }
    default: return nil
    }
  }
  /// The RTMP application address (`app_name`), for RTMP renditions.
  public var appName: String? { properties["app_name"]?.stringValue }
  /// The RTMP stream name (`stream_name`), for RTMP renditions.
  public var streamName: String? { properties["stream_name"]?.stringValue }
  /// When the rendition was uploaded (`uploaded_at`).
  public var uploadedAt: Date? { properties.date("uploaded_at") }
}
