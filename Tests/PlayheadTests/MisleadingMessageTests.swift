import Foundation
import PlayheadTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Messages that used to mislead (issue 11 §4), each now saying what went wrong: special
/// files, playlists whose segments all last zero seconds, a bad segment in a local
/// playlist, an unfinished download folder. (Redirects, stalls and closes mid-body are
/// rows of `FaultMatrixCLITests`.)
final class MisleadingMessageTests: XCTestCase {
  /// Runs `play --fast` and `probe` on `path`; both must fail with `status` and print
  /// exactly `message` as their one error line.
  private func assertBothSay(
    _ path: String, status: Int32, _ message: String, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    for arguments in [["play", "--fast", "--quiet", path], ["probe", path]] {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, status, file: file, line: line)
      XCTAssertEqual(
        result.stderr, "playhead: \(message)\n", "\(arguments)", file: file, line: line)
    }
  }

  func testCharacterDevices_sayWhatTheyAre_insteadOfEmpty() throws {
    try assertBothSay("/dev/zero", status: 3, "/dev/zero is a character device, not a regular file")
    try assertBothSay(
      "/dev/urandom", status: 3, "/dev/urandom is a character device, not a regular file")
  }

  func testFIFO_isRefusedUpFront_withoutWaitingForAWriter() throws {
    let fifo = try makeTemporaryDirectory().appendingPathComponent("pipe.mp4").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    try assertBothSay(fifo, status: 3, "\(fifo) is a FIFO (named pipe), not a regular file")
  }

  func testSocket_isRefusedUpFront() throws {
    let path = try makeTemporaryDirectory().appendingPathComponent("s.sock").path
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    XCTAssertGreaterThanOrEqual(fd, 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8)
      raw.copyBytes(from: bytes.prefix(raw.count - 1))
    }
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    XCTAssertEqual(bound, 0)
    try assertBothSay(path, status: 3, "\(path) is a socket, not a regular file")
  }

  func testPlaylistWhoseSegmentsAllLastZero_saysSo_insteadOfNoSegments() throws {
    let folder = try copyOf144p()
    let playlist = folder.appendingPathComponent("zero.m3u8")
    let text = try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
      .replacingOccurrences(of: "#EXTINF:2.000000,", with: "#EXTINF:0,")
    try Data(text.utf8).write(to: playlist)
    let result = try CLIRunner.run(["play", "--fast", "--quiet", playlist.path])
    assertStatus(result, 4)
    XCTAssertEqual(
      result.stderr,
      "playhead: all 6 segments of \(playlist.path) have zero duration (EXTINF:0): nothing to play\n"
    )
  }

  func testBadSegmentOfALocalPlaylist_namesTheSegmentAndThePlaylist() throws {
    let folder = try copyOf144p()
    let garbage = folder.appendingPathComponent("garbage.ts")
    try Data(contentsOf: try Fixtures.url("not-a-video.mp4")).write(to: garbage)
    let playlist = folder.appendingPathComponent("bad.m3u8")
    try Data(
      "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\ngarbage.ts\n#EXT-X-ENDLIST\n".utf8
    ).write(to: playlist)
    let result = try CLIRunner.run(["play", "--fast", "--quiet", playlist.path])
    assertStatus(result, 4)
    XCTAssertTrue(
      result.stderr.contains("segment \(garbage.path) of playlist \(playlist.path)"), result.stderr)
    XCTAssertFalse(result.stderr.contains("Could not open file://"), result.stderr)
  }

  func testMissingSegmentOfALocalPlaylist_namesThePlaylistToo() throws {
    let folder = try copyOf144p()
    let playlist = folder.appendingPathComponent("missing.m3u8")
    let text = try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
      .replacingOccurrences(of: "segment001.ts", with: "gone.ts")
    try Data(text.utf8).write(to: playlist)
    let result = try CLIRunner.run(["play", "--fast", "--quiet", playlist.path])
    assertStatus(result, 3)
    XCTAssertEqual(
      result.stderr,
      "playhead: file not found: \(folder.appendingPathComponent("gone.ts").path) "
        + "(in playlist \(playlist.path))\n")
  }

  func testDirectoryThatIsNoDownload_stillSaysIsADirectory() throws {
    let folder = try makeTemporaryDirectory().path
    try assertBothSay(folder, status: 3, "is a directory, not a file: \(folder)")
  }

  /// A copy of `Fixtures/hls/144p` in a temporary folder.
  private func copyOf144p() throws -> URL {
    let folder = try makeTemporaryDirectory().appendingPathComponent("144p")
    try FileManager.default.copyItem(at: try Fixtures.url("hls/144p"), to: folder)
    return folder
  }
}
