import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead snapshot` run as a subprocess.
final class SnapshotCommandTests: XCTestCase {
  func testSnapshotAt5_scaledTo160x120_writesAPNGOfThatSize() throws {
    let output = try makeTemporaryDirectory().appendingPathComponent("X.png")
    let result = try CLIRunner.run([
      "snapshot", try Fixtures.url("sample-h264-aac.mp4").path, "--at", "5", "-o", output.path,
      "--width", "160", "--height", "120",
    ])
    assertStatus(result, 0)
    XCTAssertEqual(result.stdout, "\(output.path) (160x120)\n")
    let size = try XCTUnwrap(pngSize(try Data(contentsOf: output)), "a PNG with an IHDR chunk")
    XCTAssertEqual(size.width, 160)
    XCTAssertEqual(size.height, 120)
  }

  func testSnapshot_withoutSize_keepsTheFrameSize() throws {
    let output = try makeTemporaryDirectory().appendingPathComponent("full.png")
    let result = try CLIRunner.run([
      "snapshot", try Fixtures.url("sample-h264-aac.mp4").path, "--at", "0:02.5", "--output",
      output.path,
    ])
    assertStatus(result, 0)
    let size = try XCTUnwrap(pngSize(try Data(contentsOf: output)))
    XCTAssertEqual(size.width, 320)
    XCTAssertEqual(size.height, 240)
  }

  func testSnapshots_atDifferentTimes_differ() throws {
    let directory = try makeTemporaryDirectory()
    let mp4 = try Fixtures.url("sample-h264-aac.mp4").path
    var images: [Data] = []
    for time in ["1", "6"] {
      let output = directory.appendingPathComponent("at-\(time).png")
      let result = try CLIRunner.run(["snapshot", mp4, "--at", time, "-o", output.path])
      assertStatus(result, 0)
      images.append(try Data(contentsOf: output))
    }
    XCTAssertNotEqual(
      images[0], images[1], "the fixture's frame counter changes between 1 s and 6 s")
  }

  func testSnapshot_intoAMissingDirectory_createsIt() throws {
    let output = try makeTemporaryDirectory().appendingPathComponent("new/dir/x.png")
    let result = try CLIRunner.run([
      "snapshot", try Fixtures.url("sample-h264-aac.mp4").path, "--at", "1", "-o", output.path,
    ])
    assertStatus(result, 0)
    XCTAssertNotNil(pngSize(try Data(contentsOf: output)))
  }

  func testSnapshot_underAFile_exits3() throws {
    let file = try makeTemporaryDirectory().appendingPathComponent("file")
    try Data("x".utf8).write(to: file)
    let output = file.appendingPathComponent("x.png")
    let result = try CLIRunner.run([
      "snapshot", try Fixtures.url("sample-h264-aac.mp4").path, "--at", "1", "-o", output.path,
    ])
    assertStatus(result, 3)
    XCTAssertTrue(result.stderr.hasPrefix("playhead: "), result.stderr)
  }
}
