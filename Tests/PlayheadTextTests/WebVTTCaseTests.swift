import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// Runs every table of cases: each must parse to the facts it checks or fail with its
/// error kind and line; every case that parses must survive a write-and-parse round trip.
final class WebVTTCaseTests: XCTestCase {
  static let tables: [(name: String, cases: [WebVTTCase])] = [
    ("header", HeaderCases.all + HeaderCases.failures),
    ("timing", TimingCases.all),
    ("blocks", BlockCases.all),
    ("settings", SettingsCases.all),
    ("regions", RegionCases.all),
    ("text", TextCases.all),
    ("limits", LimitCases.all + LimitCases.failures),
  ]

  static var allCases: [WebVTTCase] { tables.flatMap(\.cases) }

  func testCaseTable_hasAtLeast50UniquelyNamedCases() {
    let names = Self.allCases.map(\.name)
    XCTAssertGreaterThanOrEqual(names.count, 50)
    print("WebVTT case table: \(names.count) cases in \(Self.tables.count) tables")
    XCTAssertEqual(Set(names).count, names.count, "case names are unique")
  }

  func testEveryCase_parsesOrFailsAsExpected() {
    for testCase in Self.allCases {
      switch testCase.expectation {
      case .parses(let check):
        do {
          let document = try testCase.parse()
          // Assertions inside `check` report the case's own source line.
          try check(document)
          for warning in document.warnings {
            XCTAssertEqual(warning.description, "line \(warning.line): \(warning.message)")
            XCTAssertFalse(warning.message.contains("\n"), "\(testCase.name): one-line warnings")
          }
        } catch {
          XCTFail("\(testCase.name): \(error)")
        }
      case .fails(let kind, let line):
        do {
          let document = try testCase.parse()
          XCTFail("\(testCase.name): parsed, expected \(kind) on line \(line): \(document)")
        } catch {
          XCTAssertEqual(error.kind, kind, "\(testCase.name): \(error)")
          XCTAssertEqual(error.line, line, "\(testCase.name): \(error)")
          XCTAssertEqual(error.description, "line \(error.line): \(error.message)")
          XCTAssertFalse(error.message.isEmpty)
        }
      }
    }
  }

  /// parse(write(parse(x))) == parse(x), warnings aside, and writing is stable.
  func testEveryParsingCase_roundTripsThroughTheWriter() {
    var checked = 0
    for testCase in Self.allCases {
      guard case .parses = testCase.expectation, let first = try? testCase.parse() else { continue }
      let written = WebVTTWriter.write(first)
      do {
        let second = try WebVTTParser.parse(written)
        XCTAssertEqual(
          second.withoutWarnings, first.withoutWarnings,
          "\(testCase.name): the written file parses differently:\n\(written)")
        XCTAssertEqual(WebVTTWriter.write(second), written, "\(testCase.name): writing is stable")
        checked += 1
      } catch {
        XCTFail("\(testCase.name): the written file does not parse: \(error)\n\(written)")
      }
    }
    XCTAssertGreaterThanOrEqual(checked, 100)
    print("WebVTT round trip: \(checked) parsing cases checked")
  }
}
