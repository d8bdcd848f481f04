import Foundation

/// The Playback API playlist fields (see docs/catalog.md).
extension Playlist {
  /// The account (`account_id`).
  public var accountID: String? { properties["account_id"]?.stringValue }
  /// The reference ID (`reference_id`).
  public var referenceID: String? { properties["reference_id"]?.stringValue }
  /// The description (`description`).
  public var shortDescription: String? { properties["description"]?.stringValue }
  /// `EXPLICIT`, or the smart-playlist ordering (`type`).
  public var type: String? { properties["type"]?.stringValue }
  /// The IDs of the videos of an explicit playlist (`video_ids`), all of them, whatever
  /// page `videos` holds.
  public var videoIDs: [String] { properties.strings("video_ids") }
  /// The search that selects a smart playlist's videos (`search`).
  public var search: String? { properties["search"]?.stringValue }
  /// When the playlist was created (`created_at`).
  public var createdAt: Date? { properties.date("created_at") }
  /// When the playlist was last changed (`updated_at`).
  public var updatedAt: Date? { properties.date("updated_at") }
}
