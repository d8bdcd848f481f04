import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// One row of the table-driven parser tests: a WebVTT file and what parsing it gives.
struct WebVTTCase: Sendable {
  /// What parsing the file must give.
  enum Expectation: Sendable {
    /// A document, checked by the closure (which asserts facts about it).
    case parses(@Sendable (WebVTTDocument) throws -> Void)
    /// A fatal error of this kind on this line.
    case fails(WebVTTError.Kind, line: Int)
  }

  var name: String
  var data: Data
  var limits: WebVTTParserLimits
  var expectation: Expectation

  init(
    _ name: String, limits: WebVTTParserLimits = .default, _ text: String,
    _ expectation: Expectation
  ) {
    self.init(name, limits: limits, bytes: Data(text.utf8), expectation)
  }

  init(
    _ name: String, limits: WebVTTParserLimits = .default, bytes: Data,
    _ expectation: Expectation
  ) {
    self.name = name
    self.data = bytes
    self.limits = limits
    self.expectation = expectation
  }

  func parse() throws(WebVTTError) -> WebVTTDocument {
    try WebVTTParser.parse(data, limits: limits)
  }
}

/// A WebVTT file: the signature line, a blank line, then `body`.
func vtt(_ body: String) -> String {
  "WEBVTT\n\n" + body
}

/// `milliseconds` ms as a media time.
func ms(_ milliseconds: Int64) -> MediaTime {
  MediaTime(value: milliseconds, timescale: 1000)
}

/// Whether some warning of `document` contains `text` (and, when given, is on `line`).
func hasWarning(_ document: WebVTTDocument, _ text: String, line: Int? = nil) -> Bool {
  document.warnings.contains { $0.message.contains(text) && (line == nil || $0.line == line) }
}

/// The only cue of `document`, or a thrown failure.
func onlyCue(_ document: WebVTTDocument, file: StaticString = #filePath, line: UInt = #line)
  throws -> WebVTTCue
{
  XCTAssertEqual(document.cues.count, 1, "cue count", file: file, line: line)
  return try XCTUnwrap(document.cues.first, "expected a cue", file: file, line: line)
}

/// The settings of the only cue of a file whose timing line is
/// `00:01.000 --> 00:02.000 <settings>`, after any regions in `regions`.
func settingsFile(_ settings: String, regions: String = "") -> String {
  vtt(regions + "00:01.000 --> 00:02.000 " + settings + "\nText\n")
}
