import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Runs every table of cases: each must parse to the facts it checks or fail with its
/// error kind and line; every case that parses must survive a write-and-parse round trip.
final class PlaylistCaseTests: XCTestCase {
  static let tables: [(name: String, cases: [PlaylistCase])] = [
    ("media segments", MediaSegmentCases.all),
    ("encryption", EncryptionCases.all + EncryptionCases.failures),
    ("dates", DateCases.all),
    ("low latency", LowLatencyCases.all),
    ("variables", VariableCases.all + VariableCases.failures),
    ("master", MasterCases.all + MasterCases.failures),
    ("structure errors", StructureErrorCases.failures),
    ("origin", OriginCases.all + OriginCases.failures),
    ("leniency", LeniencyCases.all + LeniencyCases.failures),
    ("repeated tags", RepeatedTagCases.all + RepeatedTagCases.failures),
    ("ad markers", AdMarkerCases.all),
  ]

  static var allCases: [PlaylistCase] { tables.flatMap(\.cases) }

  func testCaseTable_hasAtLeast80UniquelyNamedCases() {
    let names = Self.allCases.map(\.name)
    XCTAssertGreaterThanOrEqual(names.count, 80)
    XCTAssertEqual(Set(names).count, names.count, "case names are unique")
  }

  func testEveryCase_parsesOrFailsAsExpected() {
    for testCase in Self.allCases {
      switch testCase.expectation {
      case .parses(let check):
        do {
          let playlist = try testCase.parse()
          // Assertions inside `check` report the case's own source line.
          try check(playlist)
        } catch {
          XCTFail("\(testCase.name): \(error)")
        }
      case .fails(let kind, let line):
        do {
          let playlist = try testCase.parse()
          XCTFail("\(testCase.name): parsed, expected \(kind) on line \(line): \(playlist)")
        } catch {
          XCTAssertEqual(error.kind, kind, "\(testCase.name): \(error)")
          XCTAssertEqual(error.line, line, "\(testCase.name): \(error)")
          XCTAssertEqual(error.description, "line \(error.line): \(error.message)")
          XCTAssertFalse(error.message.isEmpty)
        }
      }
    }
  }

  func testEveryParsingCase_roundTripsThroughTheWriter() {
    var checked = 0
    for testCase in Self.allCases {
      guard case .parses = testCase.expectation, let first = try? testCase.parse() else { continue }
      let written = PlaylistWriter.write(first)
      var again = testCase
      again.text = written
      do {
        let second = try again.parse()
        XCTAssertEqual(
          second.withoutWarnings, first.withoutWarnings,
          "\(testCase.name): the written playlist parses differently:\n\(written)")
        XCTAssertEqual(PlaylistWriter.write(second), written, "\(testCase.name): writing is stable")
        checked += 1
      } catch {
        XCTFail("\(testCase.name): the written playlist does not parse: \(error)\n\(written)")
      }
    }
    XCTAssertGreaterThanOrEqual(checked, 60)
  }
}
