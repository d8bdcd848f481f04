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

/// How a segment keeps its URI: a string, or the place of its URI line in a copy of the
/// playlist, made into a string only when read.
///
/// A long playlist would otherwise allocate a string for every segment while parsing;
/// most are never read, and those that are cost one string each time.
enum SegmentURIText: Sendable {
  case string(String)
  /// The bytes `start..<end` of `source`.
  case line(PlaylistSourceBytes, start: Int, end: Int)

  /// The URI.
  var string: String {
    switch self {
    case .string(let text): return text
    case .line(let source, let start, let end): return source.string(start, end)
    }
  }

  /// Whether both hold the same URI (as `String` compares them).
  static func == (lhs: SegmentURIText, rhs: SegmentURIText) -> Bool {
    if case .line(let left, let leftStart, let leftEnd) = lhs,
      case .line(let right, let rightStart, let rightEnd) = rhs, left === right,
      leftStart == rightStart, leftEnd == rightEnd
    {
      return true
    }
    return lhs.string == rhs.string
  }
}

/// A copy of a parsed playlist's bytes, shared by the segments whose URIs it holds.
///
/// Immutable, so segments on any thread may read it.
final class PlaylistSourceBytes: Sendable {
  let bytes: [UInt8]

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = Array(bytes)
  }

  /// The bytes `start..<end` decoded as UTF-8, as the parser decodes them.
  func string(_ start: Int, _ end: Int) -> String {
    bytes.withUnsafeBufferPointer { buffer in
      String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
    }
  }
}
