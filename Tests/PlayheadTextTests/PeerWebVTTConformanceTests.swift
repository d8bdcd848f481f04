import Foundation
import PlayheadCore
import PlayheadTestSupport
import PlayheadText
import XCTest

/// Every WebVTT file of the peer corpus (web-platform-tests' file-parsing cases, read from
/// `shared/interop/hls-webvtt-peers/wpt-webvtt` where it lies): the parser keeps as many
/// cues as the browser test asserts (`assert_equals(cues.length, N)`, the base case's
/// count for a `DERIVED` one, whose "FAIL" cues must not appear), and the written document
/// parses back to the same cues.
final class PeerWebVTTConformanceTests: XCTestCase {
  /// The `cues.length` a case's expectation asserts (following `DERIVED from X.vtt`).
  static func expectedCount(_ peerCase: PeerCorpus.Case) throws -> Int? {
    var text = try String(contentsOf: peerCase.expectation, encoding: .utf8)
    if text.hasPrefix("DERIVED from "), let end = text.range(of: ".vtt") {
      let base = text[text.index(text.startIndex, offsetBy: 13)..<end.lowerBound]
      let url = peerCase.expectation.deletingLastPathComponent()
        .appendingPathComponent("\(base).expect.txt")
      text = try String(contentsOf: url, encoding: .utf8)
    }
    guard let range = text.range(of: "assert_equals(cues.length, ") else { return nil }
    let digits = text[range.upperBound...].prefix { $0.isNumber }
    return Int(digits)
  }

  func testEveryPeerWebVTTFile_keepsThePeersCueCount_andRoundTrips() throws {
    let cases = try PeerCorpus.cases(withExtension: "vtt")
    XCTAssertEqual(cases.count, 26, "the corpus holds 26 WebVTT files")
    var agreeing = 0
    for peerCase in cases {
      let expected = try XCTUnwrap(try Self.expectedCount(peerCase), "\(peerCase.id): no count")
      let data = try Data(contentsOf: peerCase.input)
      let document: WebVTTDocument
      do {
        document = try WebVTTParser.parse(data)
      } catch {
        // A file the browser reads as no cues at all may be refused, with its line.
        XCTAssertEqual(expected, 0, "\(peerCase.id): \(error)")
        XCTAssertEqual(Self.refused[peerCase.id], error.line, "\(peerCase.id): \(error)")
        agreeing += 1
        continue
      }
      XCTAssertNil(Self.refused[peerCase.id], "\(peerCase.id) parsed")
      let kept = expected - (Self.disagreements[peerCase.id]?.fewerCues ?? 0)
      XCTAssertEqual(document.cues.count, kept, "\(peerCase.id): cue count")
      if document.cues.count == expected { agreeing += 1 }
      if peerCase.isDerived {
        XCTAssertFalse(document.cues.contains { $0.text.contains("FAIL") }, "\(peerCase.id)")
      }
      let again = try WebVTTParser.parse(WebVTTWriter.write(document))
      XCTAssertEqual(again.cues, document.cues, "\(peerCase.id): round trip")
    }
    print("peer WebVTT corpus: \(agreeing) of \(cases.count) files agree with web-platform-tests")
    XCTAssertEqual(agreeing, cases.count - Self.disagreements.count)
  }

  /// Where Playhead keeps fewer cues than the browser, how many fewer, and why.
  static let disagreements: [String: (fewerCues: Int, reason: String)] = [
    "wpt-webvtt/timings-negative": (
      3,
      "cues that end before they start are dropped with a warning: such a cue can never be "
        + "active, so there is nothing to deliver; the browser keeps it in the cue list"
    )
  ]

  /// Files Playhead refuses (the browser reads them as zero cues), with the error's line.
  static let refused: [String: Int] = [:]
}
