import Foundation
import PlayheadCore
import XCTest

/// `JSONReader` does work linear in its input, counted in its own work units (never in
/// seconds): ten times the text costs about ten times the work, whatever its shape.
final class JSONReaderLinearityTests: XCTestCase {
  /// The work units to read `data` (or to refuse it).
  private func work(_ data: Data, limits: JSONReader.Limits = .standard) -> Int {
    var units = 0
    _ = try? JSONReader.read(data, limits: limits, workUnits: &units)
    return units
  }

  /// A JSON array holding `copies` copies of `element`.
  private func repeated(_ element: String, _ copies: Int) -> Data {
    Data(("[" + Array(repeating: element, count: copies).joined(separator: ",") + "]").utf8)
  }

  /// For each shape: 10× the text is at most 11× the work (and at least 9×), and the work
  /// stays within a small constant per byte.
  func testWork_growsLinearlyWithTheInput_forEveryShape() throws {
    let shapes: [(name: String, element: String)] = [
      ("nested 60 deep", JSONTestDocuments.nestedObjects(depth: 60)),
      ("arrays 60 deep", JSONTestDocuments.nestedArrays(depth: 60)),
      ("catalog video", JSONTestDocuments.video(7)),
      ("numbers", "[1.5e3,-0.25,12345678901234567,0,7]"),
      ("escaped string", "\"" + String(repeating: #"\u00e9\n\"x\ud83d\ude00"#, count: 50) + "\""),
      ("plain string", "\"" + String(repeating: "abcdéf中", count: 200) + "\""),
      ("wide object", "{" + (0..<200).map { #""key\#($0)":\#($0)"# }.joined(separator: ",") + "}"),
    ]
    for shape in shapes {
      let small = repeated(shape.element, 20)
      let large = repeated(shape.element, 200)
      XCTAssertNoThrow(try JSONReader.read(large), shape.name)
      let (smallWork, largeWork) = (work(small), work(large))
      let ratio = Double(largeWork) / Double(smallWork)
      XCTAssertLessThanOrEqual(ratio, 11, "\(shape.name): \(smallWork) → \(largeWork) units")
      XCTAssertGreaterThanOrEqual(ratio, 9, "\(shape.name): \(smallWork) → \(largeWork) units")
      XCTAssertLessThanOrEqual(
        largeWork, 4 * large.count, "\(shape.name): at most 4 units per byte")
    }
  }

  /// Refused text costs at most its own length: the reader stops at the problem.
  func testWork_forRefusedText_stopsAtTheProblem() throws {
    let deep = JSONTestDocuments.deepPlaylist(count: 20, depth: 500)
    let deeper = JSONTestDocuments.deepPlaylist(count: 200, depth: 500)
    XCTAssertEqual(work(deep), work(deeper), "refused at the first value, however many follow")
    XCTAssertLessThan(work(deep), deep.count / 50)
    // A long, truncated document: the work is linear up to the end of the text.
    let truncated = JSONTestDocuments.videos(400).dropLast()
    XCTAssertLessThanOrEqual(work(Data(truncated)), 4 * truncated.count)
    // A duplicate key at the end of a wide object.
    let wide = "{" + (0..<5_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + #","k0":1}"#
    XCTAssertLessThanOrEqual(work(Data(wide.utf8)), 4 * wide.utf8.count)
  }

  /// Containers with many members grow in place: a copy per element would make these
  /// take minutes (the work units cannot see copies, so the sizes are large).
  func testRead_wideContainers_readInOnePass() throws {
    let numbers = "[" + (0..<300_000).map { String($0 % 1000) }.joined(separator: ",") + "]"
    XCTAssertEqual(try JSONReader.read(Data(numbers.utf8)).arrayValue?.count, 300_000)
    let members = "{" + (0..<100_000).map { #""k\#($0)":[\#($0)]"# }.joined(separator: ",") + "}"
    let object = try JSONReader.read(Data(members.utf8)).objectValue
    XCTAssertEqual(object?.count, 100_000)
    XCTAssertEqual(object?["k99999"], [99_999])
    let nested =
      "["
      + Array(
        repeating: "[" + Array(repeating: "1", count: 1_000).joined(separator: ",") + "]",
        count: 300
      ).joined(separator: ",") + "]"
    XCTAssertEqual(
      try JSONReader.read(Data(nested.utf8)).arrayValue?.last?.arrayValue?.count, 1_000)
  }

  /// The same text is the same work on every run (the count is a property of the text).
  func testWork_isTheSameOnEveryRun() throws {
    let data = JSONTestDocuments.videos(30)
    let first = work(data)
    XCTAssertGreaterThan(first, data.count, "every byte is at least one unit")
    for _ in 0..<3 { XCTAssertEqual(work(data), first) }
  }
}
