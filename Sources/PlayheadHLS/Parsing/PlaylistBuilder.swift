import Foundation
import PlayheadCore

/// The fields of a playlist model that both builders fill in the same way.
protocol BuiltPlaylist {
  var version: Int? { get set }
  var independentSegments: Bool { get set }
  var start: StartPoint? { get set }
  var definitions: [String: String] { get set }
  var substitutionSources: SubstitutionSources { get set }
  var unknownTags: [UnknownTag] { get set }
  var warnings: [ParseWarning] { get set }
}

extension MasterPlaylist: BuiltPlaylist {}
extension MediaPlaylist: BuiltPlaylist {}

/// What the master and media playlist builders share: the line loop, the tags both kinds
/// of playlist accept, unknown tags, and what the context collected by the end.
///
/// A builder reads its own tags in `handle(_:value:line:)` and sends the shared ones
/// (`#EXTM3U`, `EXT-X-VERSION`, `EXT-X-INDEPENDENT-SEGMENTS`, `EXT-X-START`,
/// `EXT-X-DEFINE`) to `readCommonTag(_:value:line:)`.
protocol PlaylistBuilder {
  associatedtype Built: BuiltPlaylist

  var context: ParserContext { get set }
  var playlist: Built { get set }
  /// Whether the builder builds a master playlist (`EXT-X-DEFINE` differs there).
  static var buildsMaster: Bool { get }
  /// Where an unknown tag kept now stands: the number of variants or segments so far.
  var unknownTagPosition: Int { get }

  /// Reads a URI line; `position` is the offset in the playlist just after it.
  mutating func addURILine(_ span: ByteSpan, position: Int) throws(PlaylistParseError)
  /// Reads a tag the parser models.
  mutating func handle(_ tag: TagName, value: ByteSpan, line: ByteSpan)
    throws(PlaylistParseError)
}

extension PlaylistBuilder {
  var text: ByteText { context.text }

  /// Reads every line `reader` has left.
  mutating func readLines(_ reader: inout LineReader) throws(PlaylistParseError) {
    while let raw = try reader.next() {
      context.line = reader.lineNumber
      switch PlaylistLine(raw, in: text) {
      case .ignorable: continue
      case .uri(let span): try addURILine(span, position: reader.position)
      case .tag(let name, let value, let line):
        guard let tag = TagName.lookup(name, in: text) else {
          try keepUnknown(line)
          continue
        }
        try handle(tag, value: value, line: line)
      }
    }
  }

  /// Keeps `line` verbatim at the current position.
  mutating func keepUnknown(_ line: ByteSpan) throws(PlaylistParseError) {
    guard playlist.unknownTags.count < context.limits.maxSegments else {
      throw context.error(.limitExceeded, "more than \(context.limits.maxSegments) unknown tags")
    }
    playlist.unknownTags.append(UnknownTag(text: text.string(line), position: unknownTagPosition))
  }

  /// Reads a tag that master and media playlists both accept; any other tag is left alone.
  mutating func readCommonTag(_ tag: TagName, value: ByteSpan, line: ByteSpan)
    throws(PlaylistParseError)
  {
    switch tag {
    case .extm3u:
      context.warn("#EXTM3U appears again; ignored")
    case .version:
      if let version = context.version(value) {
        if try context.firstOccurrence(of: .version, value: String(version)) {
          playlist.version = version
        }
      } else {
        try keepUnknown(line)
      }
    case .independentSegments:
      if try context.firstOccurrence(of: .independentSegments, value: "") {
        playlist.independentSegments = true
      }
    case .start:
      if let start = context.startPoint(value) {
        if try context.firstOccurrence(of: .start, value: CommonTagText.start(start)) {
          playlist.start = start
        }
      } else {
        try keepUnknown(line)
      }
    case .define: try context.define(value, inMaster: Self.buildsMaster)
    default: break
    }
  }

  /// The playlist with the definitions, substitution sources and warnings collected while
  /// reading it.
  mutating func collected() -> Built {
    playlist.definitions = context.definitions
    playlist.substitutionSources = context.substitutionSources
    playlist.warnings = context.finalWarnings
    return playlist
  }
}
