import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// The network fault matrix (`FaultMatrix`) through the public player API, on the fast
/// player's manual clock (retry delays pass on it at once; network timeouts are real
/// time): each fault on a playlist, a segment, a key and a progressive file ends with the
/// typed error and the number of attempts the row names, or plays to the end.
final class FaultMatrixPlayerTests: XCTestCase {
  static let timeoutMs = 1_000
  static let retries = 2

  func testPlaylistFaults() throws { try runMatrix(.playlist) }
  func testSegmentFaults() throws { try runMatrix(.segment) }
  func testKeyFaults() throws { try runMatrix(.key) }
  func testProgressiveFaults() throws { try runMatrix(.progressive) }

  /// A fast configuration with the timeout and retries every load (HLS and progressive) uses.
  static func configuration() -> PlayerConfiguration {
    var configuration = PlayerConfiguration.fast()
    configuration.request.timeoutMs = timeoutMs
    configuration.request.retryCount = retries
    return configuration
  }

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
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url(row.target.playedPath), configuration: Self.configuration())
    defer { player.close() }
    player.play()
    let end = recorder.waitForEnd(file: file, line: line)
    let requests = row.attempts(in: server.requests)
    switch row.outcome {
    case .plays:
      XCTAssertEqual(
        end?.name, "didPlayToEnd", "\(row): \(String(describing: end?.error))", file: file,
        line: line)
    case .fails(let code, _, let attempts):
      let error = end?.error
      XCTAssertEqual(
        error?.code, code, "\(row): \(String(describing: error))", file: file, line: line)
      XCTAssertEqual(error?.category, .source, "\(row)", file: file, line: line)
      let fragment =
        row.fragment(url: server.url(row.target.faultedPath), timeoutMs: Self.timeoutMs) ?? ""
      let message = error?.message ?? ""
      XCTAssertTrue(
        message.contains(fragment), "\(row): '\(message)' should contain '\(fragment)'",
        file: file, line: line)
      XCTAssertFalse(
        FaultMatrix.showsRawErrorNumber(message), "\(row): \(message)", file: file, line: line)
      XCTAssertEqual(
        requests, attempts.count(retries: Self.retries), "\(row): requests for the faulted file",
        file: file, line: line)
    }
  }
}
