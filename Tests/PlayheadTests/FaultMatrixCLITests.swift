import Foundation
import PlayheadTestSupport
import XCTest

/// The network fault matrix (`FaultMatrix`) through `playhead play --fast` over a real
/// loopback server: each fault on a playlist, a segment, a key and a progressive file
/// ends with the exit status, the one-line message and the number of attempts the row
/// names (or plays to the end).
///
/// Retry delays run on the fast player's manual clock; timeouts are real time, so a row
/// that times out takes `timeout × (retries + 1)` of wall time. The request count bounds
/// the time without measuring it.
final class FaultMatrixCLITests: XCTestCase {
  static let timeoutMs = 1_000
  static let retries = 2

  func testPlaylistFaults() throws { try runMatrix(.playlist) }
  func testSegmentFaults() throws { try runMatrix(.segment) }
  func testKeyFaults() throws { try runMatrix(.key) }
  func testProgressiveFaults() throws { try runMatrix(.progressive) }

  private func runMatrix(_ target: FaultMatrix.Target) throws {
    for row in FaultMatrix.rows(for: target) {
      try check(row)
    }
  }

  private func check(_ row: FaultMatrix.Row, file: StaticString = #filePath, line: UInt = #line)
    throws
  {
    let server = HTTPTestServer(
      directory: try Fixtures.directory(), faults: [row.target.faultedPath: row.fault])
    try server.start()
    defer { server.stop() }
    let result = try CLIRunner.run([
      "play", server.url(row.target.playedPath).absoluteString, "--fast", "--json",
      "--timeout", String(Self.timeoutMs), "--retries", String(Self.retries),
    ])
    XCTAssertFalse(result.timedOut, "\(row): playhead hung", file: file, line: line)
    let requests = row.attempts(in: server.requests)
    switch row.outcome {
    case .plays:
      XCTAssertEqual(result.status, 0, "\(row): \(result.stderr)", file: file, line: line)
      XCTAssertEqual(
        result.jsonLines().last?["outcome"] as? String, "ended", "\(row)", file: file, line: line)
    case .fails(let code, _, let attempts):
      XCTAssertEqual(result.status, 3, "\(row): \(result.stderr)", file: file, line: line)
      let errorLines = result.stderr.split(separator: "\n").map(String.init)
      XCTAssertEqual(errorLines.count, 1, "\(row): \(result.stderr)", file: file, line: line)
      let message = errorLines.first ?? ""
      let fragment =
        row.fragment(url: server.url(row.target.faultedPath), timeoutMs: Self.timeoutMs) ?? ""
      XCTAssertTrue(
        message.hasPrefix("playhead: ") && message.contains(fragment),
        "\(row): '\(message)' should contain '\(fragment)'", file: file, line: line)
      XCTAssertFalse(
        FaultMatrix.showsRawErrorNumber(message), "\(row): \(message)", file: file, line: line)
      let failure = result.jsonLines().first {
        ["failed", "failedToPlayToEnd"].contains($0["event"] as? String ?? "")
      }
      XCTAssertEqual(
        failure?["errorCode"] as? String, code.rawValue, "\(row)", file: file, line: line)
      XCTAssertEqual(
        requests, attempts.count(retries: Self.retries), "\(row): requests for the faulted file",
        file: file, line: line)
    }
    if case .redirect = row.fault {
      XCTAssertFalse(
        server.requests.contains { $0.path == "/etc/passwd" },
        "\(row): a refused redirect is not followed", file: file, line: line)
    }
  }
}
