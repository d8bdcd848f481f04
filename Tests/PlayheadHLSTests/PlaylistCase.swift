import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// One row of the table-driven parser tests: a playlist text and what parsing it gives.
struct PlaylistCase: Sendable {
  /// What parsing the text must give.
  enum Expectation: Sendable {
    /// A playlist, checked by the closure (which asserts model facts).
    case parses(@Sendable (Playlist) throws -> Void)
    /// A fatal error of this kind on this line.
    case fails(PlaylistParseError.Kind, line: Int)
  }

  var name: String
  var text: String
  var url: URL
  /// The master playlist's variables, for `IMPORT`.
  var importing: [String: String]?
  var expectation: Expectation

  init(
    _ name: String, url: URL = PlaylistCase.defaultURL, importing: [String: String]? = nil,
    _ text: String, _ expectation: Expectation
  ) {
    self.name = name
    self.text = text
    self.url = url
    self.importing = importing
    self.expectation = expectation
  }

  static let defaultURL = URL(string: "https://example.com/live/index.m3u8")!

  /// Parses the case's text as the case says (with or without imported variables).
  func parse() throws(PlaylistParseError) -> Playlist {
    if let importing {
      return try PlaylistParser.parse(text, url: url, importing: importing)
    }
    return try PlaylistParser.parse(text, url: url)
  }
}

/// The media playlist in `playlist`, or a thrown failure.
func media(_ playlist: Playlist, file: StaticString = #filePath, line: UInt = #line) throws
  -> MediaPlaylist
{
  try XCTUnwrap(playlist.mediaPlaylist, "expected a media playlist", file: file, line: line)
}

/// The master playlist in `playlist`, or a thrown failure.
func master(_ playlist: Playlist, file: StaticString = #filePath, line: UInt = #line) throws
  -> MasterPlaylist
{
  try XCTUnwrap(playlist.masterPlaylist, "expected a master playlist", file: file, line: line)
}

/// `value / timescale` seconds.
func time(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime {
  MediaTime(value: value, timescale: timescale)
}

/// A date from an ISO 8601 text, for expectations.
func date(_ text: String) -> Date {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  if let date = formatter.date(from: text) { return date }
  formatter.formatOptions = [.withInternetDateTime]
  return formatter.date(from: text) ?? Date.distantPast
}

/// Whether some warning of `playlist` contains `text` (and, when given, is on `line`).
func hasWarning(_ playlist: Playlist, _ text: String, line: Int? = nil) -> Bool {
  playlist.warnings.contains { $0.message.contains(text) && (line == nil || $0.line == line) }
}

/// A media playlist header followed by `body`.
func mediaText(_ body: String, target: Int = 10) -> String {
  "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(target)\n" + body
}
