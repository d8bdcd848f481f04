import Foundation
import XCTest

/// `playhead play --playlist FILE` with hostile files: each exits non-zero at once with a
/// one-line message naming the problem and where it is.
final class PlaylistFileJSONTests: XCTestCase {
  private func write(_ data: Data) throws -> String {
    let file = try makeTemporaryDirectory().appendingPathComponent("list.json")
    try data.write(to: file)
    return file.path
  }

  /// The issue's case: 20 values nested 500 deep (60 KB), which cost 22 s of CPU before.
  func testPlaylist_twentyValuesNested500Deep_exitsOneWithTheDepth() throws {
    let video = { (index: Int) in
      #"{"id":"v\#(index)","x":"# + String(repeating: #"{"a":"#, count: 500) + "1"
        + String(repeating: "}", count: 500) + "}"
    }
    let text = #"{"videos":["# + (0..<20).map(video).joined(separator: ",") + "]}"
    let path = try write(Data(text.utf8))
    let result = try CLIRunner.run(["play", "--playlist", path, "--fast", "--auto-play"])
    assertStatus(result, 1)
    XCTAssertEqual(
      result.stderr,
      "playhead: invalid playlist \(path): nested deeper than 64 levels at line 1, column 332 (byte offset 331)\n"
    )
    XCTAssertEqual(result.stdout, "")
  }

  func testPlaylist_hostileFiles_exitOneNamingTheProblem() throws {
    let cases: [(name: String, data: Data, problem: String)] = [
      (
        "truncated", Data(#"{"videos": [{"id": "a""#.utf8),
        "the text ends inside an object opened at line 1, column 13 (byte offset 12)"
      ),
      (
        "duplicate key", Data("{\"videos\": [],\n \"videos\": []}".utf8),
        #"the key "videos" appears twice in one object at line 2, column 2 (byte offset 16)"#
      ),
      (
        "invalid UTF-8", Data(#"{"videos": [], "name": ""#.utf8) + Data([0xFF]) + Data(#""}"#.utf8),
        "invalid UTF-8 (byte 0xFF cannot start a character) at line 1, column 25 (byte offset 24)"
      ),
      (
        "lone surrogate", Data(#"{"videos": [], "name": "\udfff"}"#.utf8),
        #"a lone surrogate \uDFFF (a low surrogate without a high one before it) at line 1, column 25 (byte offset 24)"#
      ),
      (
        "huge number", Data(#"[{"duration": 1e400}]"#.utf8),
        "the number 1e400 is too large (beyond ±1.8e308, the range of a double) at line 1, column 15 (byte offset 14)"
      ),
      ("empty", Data(), "the text is empty"),
    ]
    for testCase in cases {
      let path = try write(testCase.data)
      let result = try CLIRunner.run(["play", "--playlist", path, "--fast"])
      assertStatus(result, 1)
      XCTAssertEqual(
        result.stderr, "playhead: invalid playlist \(path): \(testCase.problem)\n", testCase.name)
    }
  }

  /// A device would be read forever: it is refused before reading, as what it is.
  func testPlaylist_aDevice_isRefusedBeforeReading() throws {
    let result = try CLIRunner.run(["play", "--playlist", "/dev/zero", "--fast"])
    assertStatus(result, 3)
    XCTAssertEqual(
      result.stderr,
      "playhead: cannot read playlist /dev/zero: a character device, not a regular file\n")
  }
}
