import Foundation
import PlayheadCore

/// Typed reads and writes of Playback API fields kept in a `properties` dictionary, shared by
/// the catalog accessors of `Video`, `Source`, `TextTrack`, `CuePoint` and `Playlist`.
///
/// Every read is lenient: a field that is absent, `null` or of another JSON type reads as
/// `nil` (or empty), and stays in `properties` untouched.
extension Dictionary where Key == String, Value == JSONValue {
  /// A whole number (`width`, `avg_bitrate`, `size`); nil for fractions, non-finite numbers
  /// and numbers beyond ±2^53.
  func integer(_ key: String) -> Int64? {
    guard let number = self[key]?.numberValue else { return nil }
    return CatalogNumber.integer(number)
  }

  /// A Boolean field.
  func bool(_ key: String) -> Bool? { self[key]?.boolValue }

  /// An array of strings (`tags`, `labels`, `video_ids`); entries that are not strings are
  /// left out.
  func strings(_ key: String) -> [String] {
    self[key]?.arrayValue?.compactMap(\.stringValue) ?? []
  }

  /// The `src` URLs of an array of `{"src": ...}` objects (`poster_sources`, a text track's
  /// `sources`); entries without a usable URL are left out.
  func sourceURLs(_ key: String) -> [URL] {
    guard let items = self[key]?.arrayValue else { return [] }
    return items.compactMap { item in
      guard let text = item.objectValue?["src"]?.stringValue, !text.isEmpty else { return nil }
      return URL(string: text)
    }
  }

  /// An ISO 8601 date-time string (`created_at`), with or without fractional seconds.
  func date(_ key: String) -> Date? {
    self[key]?.stringValue.flatMap(CatalogDate.parse)
  }

  mutating func setInteger(_ key: String, _ value: Int64?) {
    self[key] = value.map { .number(Double($0)) }
  }

  mutating func setBool(_ key: String, _ value: Bool?) {
    self[key] = value.map { .bool($0) }
  }

  mutating func setStrings(_ key: String, _ value: [String]) {
    self[key] = .array(value.map { .string($0) })
  }

  mutating func setSourceURLs(_ key: String, _ value: [URL]) {
    self[key] = .array(value.map { .object(["src": .string($0.absoluteString)]) })
  }

  mutating func setDate(_ key: String, _ value: Date?) {
    self[key] = value.map { .string(CatalogDate.format($0)) }
  }
}

/// Whole numbers from JSON doubles.
enum CatalogNumber {
  /// `number` as an integer when it is one and JSON can hold it exactly (|n| ≤ 2^53).
  static func integer(_ number: Double) -> Int64? {
    guard number.isFinite, number.rounded() == number, abs(number) <= 9_007_199_254_740_992
    else { return nil }
    return Int64(number)
  }
}

/// The Playback API's date-time strings: ISO 8601 in UTC, such as `2014-12-09T06:07:11.877Z`.
enum CatalogDate {
  /// Parses a date-time with or without fractional seconds; nil for anything else.
  static func parse(_ text: String) -> Date? {
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = fractional.date(from: text) { return date }
    let plain = ISO8601DateFormatter()
    plain.formatOptions = [.withInternetDateTime]
    return plain.date(from: text)
  }

  /// Formats `date` in UTC with milliseconds, as the API writes it.
  static func format(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    return formatter.string(from: date)
  }
}
