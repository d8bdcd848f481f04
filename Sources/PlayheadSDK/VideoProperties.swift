import Foundation
import PlayheadCore

/// Typed reads and writes of the Playback API fields that `Video` keeps in `properties`.
///
/// Shared by `Video` (read) and `Video.Mutable` (read and write), so both agree on keys.
enum VideoKey {
  static let id = "id"
  static let name = "name"
  static let referenceID = "reference_id"
  static let duration = "duration"
  static let poster = "poster"
  static let thumbnail = "thumbnail"
  static let thumbnailVTTURL = "thumbnail_vtt_url"
  static let projection = "projection"
  static let customFields = "custom_fields"
  static let textTracks = "text_tracks"
  static let description = "description"
  static let tags = "tags"
}

extension Dictionary where Key == String, Value == JSONValue {
  func url(_ key: String) -> URL? {
    guard let text = self[key]?.stringValue, !text.isEmpty else { return nil }
    return URL(string: text)
  }

  mutating func setString(_ key: String, _ value: String?) {
    self[key] = value.map { .string($0) }
  }

  func duration(_ key: String) -> MediaTime? {
    guard let ms = self[key]?.numberValue, ms.isFinite, ms >= 0, ms < 9.0e15 else { return nil }
    return MediaTime(milliseconds: Int64(ms.rounded()))
  }

  func customFields(_ key: String) -> [String: String] {
    guard let object = self[key]?.objectValue else { return [:] }
    return object.compactMapValues(\.stringValue)
  }

  func textTracks(_ key: String) -> [TextTrack] {
    guard let array = self[key]?.arrayValue else { return [] }
    return array.enumerated().compactMap { index, value in
      try? TextTrack(json: value, path: "\(key)[\(index)]")
    }
  }
}
