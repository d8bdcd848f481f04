import Foundation

/// The base URL, keys and initialization section of media segments: one immutable object
/// that every segment between two `EXT-X-KEY`/`EXT-X-MAP` tags shares, so that a segment
/// holds one reference to them instead of a copy of each.
///
/// Immutable, so sharing it between segments and threads is safe; a segment whose value
/// changes gets a new object.
final class SegmentSharedState: Sendable {
  let baseURL: URL
  let keys: [EncryptionKey]
  let map: InitializationSection?

  init(baseURL: URL, keys: [EncryptionKey], map: InitializationSection?) {
    self.baseURL = baseURL
    self.keys = keys
    self.map = map
  }

  /// Whether `other` is this object or holds equal values.
  func hasSameValues(as other: SegmentSharedState) -> Bool {
    self === other || (baseURL == other.baseURL && keys == other.keys && map == other.map)
  }
}

/// How a segment keeps its `EXT-X-PROGRAM-DATE-TIME` text.
///
/// Most playlists write dates exactly as the writer does (`YYYY-MM-DDThh:mm:ss.sssZ`), so
/// such a text is kept as its date and formatted again when read, which spares a string
/// per segment; any other text is kept as written.
enum ProgramDateText: Sendable, Equatable {
  case none
  /// The text is `ISO8601Text.format(date)`.
  case formatted(Date)
  /// The text as written.
  case written(String)

  /// The text, or nil for `.none`.
  var text: String? {
    switch self {
    case .none: return nil
    case .formatted(let date): return ISO8601Text.format(date)
    case .written(let text): return text
    }
  }

  /// Whether both give the same `text`.
  static func == (lhs: ProgramDateText, rhs: ProgramDateText) -> Bool {
    switch (lhs, rhs) {
    case (.none, .none): return true
    case (.none, _), (_, .none): return false
    case (.formatted(let left), .formatted(let right)) where left == right: return true
    default: return lhs.text == rhs.text
    }
  }
}
