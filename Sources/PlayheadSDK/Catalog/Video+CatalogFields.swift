import Foundation
import PlayheadCore

extension VideoKey {
  static let accountID = "account_id"
  static let longDescription = "long_description"
  static let labels = "labels"
  static let economics = "economics"
  static let link = "link"
  static let offlineEnabled = "offline_enabled"
  static let posterSources = "poster_sources"
  static let thumbnailSources = "thumbnail_sources"
  static let createdAt = "created_at"
  static let updatedAt = "updated_at"
  static let publishedAt = "published_at"
  static let bumperID = "bumper_id"
}

/// The Playback API video fields beyond the core ones (see docs/catalog.md for the table).
///
/// Each accessor reads `properties`; a field that is absent, `null` or of another type reads
/// as nil (or empty) and stays in `properties` as the API sent it.
extension Video {
  /// The account the video belongs to (`account_id`).
  public var accountID: String? { properties[VideoKey.accountID]?.stringValue }
  /// The short description (`description`).
  public var shortDescription: String? { properties[VideoKey.description]?.stringValue }
  /// The long description (`long_description`).
  public var longDescription: String? { properties[VideoKey.longDescription]?.stringValue }
  /// The tags (`tags`), in catalog order.
  public var tags: [String] { properties.strings(VideoKey.tags) }
  /// The labels (`labels`), in catalog order.
  public var labels: [String] { properties.strings(VideoKey.labels) }
  /// Whether ads may be requested (`economics`); nil when absent or not a known value.
  public var economics: VideoEconomics? {
    properties[VideoKey.economics]?.stringValue.flatMap(VideoEconomics.init(rawValue:))
  }
  /// The related link (`link`); nil when absent or `null`.
  public var link: VideoLink? { VideoLink(json: properties[VideoKey.link]) }
  /// Whether the video may be downloaded for offline viewing (`offline_enabled`).
  public var isOfflineEnabled: Bool? { properties.bool(VideoKey.offlineEnabled) }
  /// Every poster URL (`poster_sources[].src`), such as an http and an https one.
  public var posterSources: [URL] { properties.sourceURLs(VideoKey.posterSources) }
  /// Every thumbnail URL (`thumbnail_sources[].src`).
  public var thumbnailSources: [URL] { properties.sourceURLs(VideoKey.thumbnailSources) }
  /// When the video was added to the account (`created_at`).
  public var createdAt: Date? { properties.date(VideoKey.createdAt) }
  /// When the video was last changed (`updated_at`).
  public var updatedAt: Date? { properties.date(VideoKey.updatedAt) }
  /// When the video was published (`published_at`).
  public var publishedAt: Date? { properties.date(VideoKey.publishedAt) }
  /// The bumper this video asks for (`custom_fields.bumper_id`, a video ID); nil when absent
  /// or empty.
  public var bumperID: String? {
    guard let value = customFields[VideoKey.bumperID], !value.isEmpty else { return nil }
    return value
  }
  /// The WebVTT thumbnail track: the first text track of kind `metadata` labelled
  /// `thumbnails` (case ignored), as the video cloud delivers seek thumbnails.
  public var thumbnailTrack: TextTrack? {
    textTracks.first { $0.kind == "metadata" && $0.label?.lowercased() == "thumbnails" }
  }
}

extension Video.Mutable {
  /// The account (`account_id`); nil removes it.
  public var accountID: String? {
    get { properties[VideoKey.accountID]?.stringValue }
    set { properties.setString(VideoKey.accountID, newValue) }
  }
  /// The short description (`description`); nil removes it.
  public var shortDescription: String? {
    get { properties[VideoKey.description]?.stringValue }
    set { properties.setString(VideoKey.description, newValue) }
  }
  /// The long description (`long_description`); nil removes it.
  public var longDescription: String? {
    get { properties[VideoKey.longDescription]?.stringValue }
    set { properties.setString(VideoKey.longDescription, newValue) }
  }
  /// The tags (`tags`); setting replaces the array.
  public var tags: [String] {
    get { properties.strings(VideoKey.tags) }
    set { properties.setStrings(VideoKey.tags, newValue) }
  }
  /// The labels (`labels`); setting replaces the array.
  public var labels: [String] {
    get { properties.strings(VideoKey.labels) }
    set { properties.setStrings(VideoKey.labels, newValue) }
  }
  /// Whether ads may be requested (`economics`); nil removes it.
  public var economics: VideoEconomics? {
    get { properties[VideoKey.economics]?.stringValue.flatMap(VideoEconomics.init(rawValue:)) }
    set { properties.setString(VideoKey.economics, newValue?.rawValue) }
  }
  /// The related link (`link`); nil removes it.
  public var link: VideoLink? {
    get { VideoLink(json: properties[VideoKey.link]) }
    set { properties[VideoKey.link] = newValue?.json }
  }
  /// Offline viewing allowed (`offline_enabled`); nil removes it.
  public var isOfflineEnabled: Bool? {
    get { properties.bool(VideoKey.offlineEnabled) }
    set { properties.setBool(VideoKey.offlineEnabled, newValue) }
  }
  /// The poster URLs (`poster_sources`); setting replaces the array.
  public var posterSources: [URL] {
    get { properties.sourceURLs(VideoKey.posterSources) }
    set { properties.setSourceURLs(VideoKey.posterSources, newValue) }
  }
  /// The thumbnail URLs (`thumbnail_sources`); setting replaces the array.
  public var thumbnailSources: [URL] {
    get { properties.sourceURLs(VideoKey.thumbnailSources) }
    set { properties.setSourceURLs(VideoKey.thumbnailSources, newValue) }
  }
  /// When the video was created (`created_at`, written with milliseconds in UTC).
  public var createdAt: Date? {
    get { properties.date(VideoKey.createdAt) }
    set { properties.setDate(VideoKey.createdAt, newValue) }
  }
  /// When the video was last changed (`updated_at`).
  public var updatedAt: Date? {
    get { properties.date(VideoKey.updatedAt) }
    set { properties.setDate(VideoKey.updatedAt, newValue) }
  }
  /// When the video was published (`published_at`).
  public var publishedAt: Date? {
    get { properties.date(VideoKey.publishedAt) }
    set { properties.setDate(VideoKey.publishedAt, newValue) }
  }
  /// The bumper this video asks for (`custom_fields.bumper_id`); nil removes it and keeps
  /// the other custom fields.
  public var bumperID: String? {
    get { customFields[VideoKey.bumperID].flatMap { $0.isEmpty ? nil : $0 } }
    set {
      var object = properties[VideoKey.customFields]?.objectValue ?? [:]
      object[VideoKey.bumperID] = newValue.map { .string($0) }
      properties[VideoKey.customFields] = .object(object)
    }
  }
}
