import Foundation
import PlayheadTestSupport
import XCTest

/// Ctrl-C (SIGINT) ends `playhead` with status 130 at any point: while a server hangs,
/// during a trickle, between two retries, while playing, and while downloading.
///
/// Each test sends the signal once the server's log shows the process reached the point
/// under test, then checks that the process exited by itself (status 130, not killed by
/// the signal) and that it needed nothing more from the server: a hung request is still
/// hung when the process is gone, and no request came after the signal. The latency
/// (0.5 s at most) is measured by `Benchmarks/ctrl-c.sh`, not here.
final class InterruptTests: XCTestCase {
  /// A timeout no test reaches: only Ctrl-C can end these runs.
  private let longTimeout = "600000"

  private func startServer(_ faults: [String: HTTPTestServer.Fault]) throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory(), faults: faults)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  /// Interrupts `process` and checks that it exits with 130 by itself, without another
  /// request to `server`.
  @discardableResult
  private func interruptAndCheck(
    _ process: CLIProcess, server: HTTPTestServer, file: StaticString = #filePath,
    line: UInt = #line
  ) -> CLIResult {
    let requestsBefore = server.requests.count
    process.interrupt()
    let result = process.wait()
    assertStatus(result, 130, file: file, line: line)
    XCTAssertTrue(process.exitedNormally, "exit(130), not death by SIGINT", file: file, line: line)
    XCTAssertEqual(
      server.requests.count, requestsBefore, "no request after Ctrl-C", file: file, line: line)
    return result
  }

  func testCtrlC_whileAProgressiveServerHangsBeforeHeaders_exits130() throws {
    let server = try startServer(["/sample-h264-aac.mp4": .hang])
    let process = try CLIRunner.start([
      "play", server.url("/sample-h264-aac.mp4").absoluteString, "--timeout", longTimeout,
    ])
    XCTAssertTrue(server.waitForRequests(count: 1))
    let result = interruptAndCheck(process, server: server)
    XCTAssertTrue(result.stdoutLines.contains("interrupted"), result.stdout)
  }

  func testCtrlC_whileAnHLSSegmentHangsAfterItsHeaders_exits130() throws {
    let server = try startServer(["/hls/144p/segment001.ts": .hangAfter(bytes: 0)])
    let process = try CLIRunner.start([
      "play", server.url("/hls/144p/index.m3u8").absoluteString, "--timeout", longTimeout,
      "--quiet",
    ])
    XCTAssertTrue(waitFor(server, path: "/hls/144p/segment001.ts"))
    interruptAndCheck(process, server: server)
  }

  func testCtrlC_duringATrickleThatOutlivesSeveralTimeouts_exits130() throws {
    // 1 kB/s with a 1 s timeout: bytes keep coming more often than the timeout, so the
    // request never times out (a retry would ask for the same range again) until Ctrl-C
    // ends it. MPEG-TS is read front to back: one request, for the whole file (no Range).
    let path = "/sample-h264-aac.ts"
    let server = try startServer([path: .slow(bytesPerSecond: 1_000)])
    let process = try CLIRunner.start([
      "play", server.url(path).absoluteString, "--timeout", "1000", "--retries", "3", "--quiet",
    ])
    XCTAssertTrue(server.waitForSentBodyBytes(atLeast: 3_500, timeoutMs: 60_000))
    XCTAssertEqual(server.requests.map(\.range), [nil], "no timeout, no retry")
    interruptAndCheck(process, server: server)
  }

  func testCtrlC_duringTheWaitBeforeARetry_exits130() throws {
    // 503 is retried after 0.5 s, 1 s, 2 s, …: the signal comes during a wait.
    let server = try startServer(["/sample-h264-aac.mp4": .status(503)])
    let process = try CLIRunner.start([
      "play", server.url("/sample-h264-aac.mp4").absoluteString, "--timeout", longTimeout,
      "--retries", "20", "--quiet",
    ])
    XCTAssertTrue(server.waitForRequests(count: 2))
    interruptAndCheck(process, server: server)
  }

  func testCtrlC_whilePlaying_exits130_sayingInterrupted() throws {
    let server = try startServer(["/sample-h264-aac.mp4": .slow(bytesPerSecond: 40_000)])
    let process = try CLIRunner.start([
      "play", server.url("/sample-h264-aac.mp4").absoluteString, "--timeout", longTimeout,
    ])
    // The moov atom at the end and the first 90 kB of media: ready, and playing.
    XCTAssertTrue(server.waitForSentBodyBytes(atLeast: 100_000, timeoutMs: 60_000))
    let result = interruptAndCheck(process, server: server)
    // The summary follows when closing takes less than the grace period (it does on an
    // idle machine); only the status and the line are promised.
    XCTAssertTrue(result.stdoutLines.contains("interrupted"), result.stdout)
  }

  func testCtrlC_whileDownloading_exits130_andPlayThenSaysHowToResume() throws {
    let server = try startServer(["/hls/144p/segment002.ts": .hang])
    let folder = try makeTemporaryDirectory().appendingPathComponent("download")
    let url = server.url("/hls/144p/index.m3u8").absoluteString
    let process = try CLIRunner.start([
      "download", url, "--out", folder.path, "--timeout", longTimeout, "--quiet",
    ])
    XCTAssertTrue(waitFor(server, path: "/hls/144p/segment002.ts"))
    interruptAndCheck(process, server: server)
    let play = try CLIRunner.run(["play", "--fast", folder.path])
    assertStatus(play, 3)
    XCTAssertEqual(
      play.stderr,
      "playhead: \(folder.path) holds a download that is not complete (state: downloading); "
        + "resume it with: playhead download \(url) --out \(folder.path)\n")
    XCTAssertFalse(play.stderr.contains("is a directory"))
  }

  /// Waits until the server has a request for `path`.
  private func waitFor(_ server: HTTPTestServer, path: String) -> Bool {
    var seen = server.requests.count
    while server.waitForRequests(count: seen + 1, timeoutMs: 60_000) {
      if server.requestCount(for: path) > 0 { return true }
      seen = server.requests.count
    }
    return server.requestCount(for: path) > 0
  }
}
