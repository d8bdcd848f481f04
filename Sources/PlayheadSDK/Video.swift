import Foundation
import PlayheadCore

/// A video: its sources, its cue points and the catalog's fields.
///
/// An immutable value compared by value; `update` returns a changed copy. `properties` holds
/// every catalog field except `sources` and `cue_points`; the typed accessors (`id`, `name`,
/// `duration`, …) read it, so unknown fields survive a round trip through JSON.
public struct Video: Sendable, Equatable, Hashable {
  /// The fields of a video while `update` changes them; the typed accessors write `properties`.
  public struct Mutable: Sendable {
    public var sources: [Source]
    public var cuePoints: CuePointCollection
    public var properties: [String: JSONValue]

    /// The catalog ID (`id`); `nil` removes it.
    public var id: String? {
      get { properties[VideoKey.id]?.stringValue }
      set { properties.setString(VideoKey.id, newValue) }
    }
    /// The name (`name`); `nil` removes it.
    public var name: String? {
      get { properties[VideoKey.name]?.stringValue }
      set { properties.setString(VideoKey.name, newValue) }
    }
    /// The reference ID (`reference_id`); `nil` removes it.
    public var referenceID: String? {
      get { properties[VideoKey.referenceID]?.stringValue }
      set { properties.setString(VideoKey.referenceID, newValue) }
    }
    /// The duration (`duration`, whole milliseconds); `nil` removes it.
    public var duration: MediaTime? {
      get { properties.duration(VideoKey.duration) }
      set {
        properties[VideoKey.duration] = newValue.map {
          .number(Double($0.convertScale(1_000, rounding: .roundHalfAwayFromZero).value))
        }
      }
    }
    /// The poster image (`poster`); `nil` removes it.
    public var poster: URL? {
      get { properties.url(VideoKey.poster) }
      set { properties.setString(VideoKey.poster, newValue?.absoluteString) }
    }
    /// The thumbnail image (`thumbnail`); `nil` removes it.
    public var thumbnail: URL? {
      get { properties.url(VideoKey.thumbnail) }
      set { properties.setString(VideoKey.thumbnail, newValue?.absoluteString) }
    }
    /// The WebVTT file of seek thumbnails (`thumbnail_vtt_url`, a Playhead key); `nil` removes it.
    public var thumbnailVTTURL: URL? {
      get { properties.url(VideoKey.thumbnailVTTURL) }
      set { properties.setString(VideoKey.thumbnailVTTURL, newValue?.absoluteString) }
    }
    /// The projection (`projection`, such as `equirectangular`); `nil` removes it.
    public var projection: String? {
      get { properties[VideoKey.projection]?.stringValue }
      set { properties.setString(VideoKey.projection, newValue) }
    }
    /// The string-valued custom fields (`custom_fields`); setting replaces the whole object.
    public var customFields: [String: String] {
      get { properties.customFields(VideoKey.customFields) }
      set { properties[VideoKey.customFields] = .object(newValue.mapValues { .string($0) }) }
    }
    /// The text tracks (`text_tracks`); setting replaces the whole array.
    public var textTracks: [TextTrack] {
      get { properties.textTracks(VideoKey.textTracks) }
      set { properties[VideoKey.textTracks] = .array(newValue.map(\.json)) }
    }
  }

  /// The ways to fetch the video, in catalog order.
  public let sources: [Source]
  /// The cue points, in position order.
  public let cuePoints: CuePointCollection
  /// The catalog's fields other than `sources` and `cue_points`.
  public let properties: [String: JSONValue]

  public init(
    sources: [Source], cuePoints: CuePointCollection = CuePointCollection(),
    properties: [String: JSONValue] = [:]
  ) {
    self.sources = sources
    self.cuePoints = cuePoints
    self.properties = properties
  }

  /// A video with one source at `url`, its delivery method from the URL's extension, and no
  /// properties.
  public init(url: URL) {
    self.init(sources: [Source(url: url)])
  }

  /// A copy changed by `body`; this value stays as it is.
  public func update<E: Error>(_ body: (inout Mutable) throws(E) -> Void) throws(E) -> Video {
    var mutable = Mutable(sources: sources, cuePoints: cuePoints, properties: properties)
    try body(&mutable)
    return Video(
      sources: mutable.sources, cuePoints: mutable.cuePoints, properties: mutable.properties)
  }

  private var reader: Mutable {
    Mutable(sources: [], cuePoints: CuePointCollection(), properties: properties)
  }

  /// The catalog ID (`id`).
  public var id: String? { reader.id }
  /// The name (`name`).
  public var name: String? { reader.name }
  /// The reference ID (`reference_id`).
  public var referenceID: String? { reader.referenceID }
  /// The duration from `duration` in milliseconds; `nil` when absent, negative or not a number.
  public var duration: MediaTime? { reader.duration }
  /// The poster image (`poster`); `nil` when absent or empty.
  public var poster: URL? { reader.poster }
  /// The thumbnail image (`thumbnail`); `nil` when absent or empty.
  public var thumbnail: URL? { reader.thumbnail }
  /// The WebVTT file of seek thumbnails (`thumbnail_vtt_url`).
  public var thumbnailVTTURL: URL? { reader.thumbnailVTTURL }
  /// The projection (`projection`), such as `equirectangular` for 360° video.
  public var projection: String? { reader.projection }
  /// The custom fields whose values are strings; others are left out (they stay in
  /// `properties`).
  public var customFields: [String: String] { reader.customFields }
  /// The text tracks; entries that do not parse are left out (they stay in `properties`).
  public var textTracks: [TextTrack] { reader.textTracks }
}
