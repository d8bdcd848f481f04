import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Progressive HTTP media through the player: a dropped connection is resumed with a
/// range request from the byte where it stopped (or, from a server that ignores `Range`,
/// by skipping the bytes already read), and every frame still plays.
final class ProgressiveRetryPlaybackTests: XCTestCase {
  /// MPEG-TS is read front to back, so the request order is known: the demuxer's probe
  /// reads past byte 100000, where the fault strikes, then returns to the start (read from
  /// the head the reader keeps, with no request).
  private let path = "/sample-h264-aac.ts"

  private func play(_ fault: HTTPTestServer.Fault, retries: Int = 2) throws -> (
    end: PlayerEvent?, frames: Int, ranges: [String]
  ) {
    let server = HTTPTestServer(directory: try Fixtures.directory(), faults: [path: fault])
    try server.start()
    defer { server.stop() }
    var configuration = PlayerConfiguration.fast()
    configuration.request.retryCount = retries
    configuration.request.timeoutMs = 5_000
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url(path), configuration: configuration)
    defer { player.close() }
    player.play()
    let end = recorder.waitForEnd()
    let frames = player.currentItem?.statistics.framesDecoded ?? -1
    return (end, frames, server.requests.filter { $0.path == path }.map { $0.range ?? "none" })
  }

  /// The frames the file decodes to when nothing goes wrong.
  private func referenceFrames() throws -> Int {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.ts"), configuration: .fast())
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    return player.currentItem?.statistics.framesDecoded ?? -1
  }

  func testCloseMidBody_resumesWithARange_andPlaysEveryFrame() throws {
    let played = try play(.sequence([.closeAfter(bytes: 100_000)], then: nil))
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.frames, try referenceFrames())
    XCTAssertEqual(Array(played.ranges.prefix(2)), ["none", "bytes=100000-"], "resumed there")
    XCTAssertEqual(played.ranges.filter { $0 == "bytes=100000-" }.count, 1, "in one retry")
  }

  func testCloseMidBody_fromAServerThatIgnoresRange_skipsWhatWasRead_andPlaysEveryFrame() throws {
    let played = try play(.sequence([.closeAfter(bytes: 100_000)], then: .ignoreRange))
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.frames, try referenceFrames())
    XCTAssertEqual(Array(played.ranges.prefix(2)), ["none", "bytes=100000-"], "resumed there")
    XCTAssertEqual(played.ranges.filter { $0 == "bytes=100000-" }.count, 1, "in one retry")
  }

  func testWithoutRetries_aCloseMidBodyFailsTheItem() throws {
    let played = try play(.sequence([.closeAfter(bytes: 100_000)], then: nil), retries: 0)
    // The close comes while the demuxer probes the file, so the item fails to open.
    XCTAssertEqual(played.end?.name, "failed")
    XCTAssertEqual(played.end?.error?.code, .connectionFailed)
    XCTAssertEqual(
      played.end?.error?.message.hasSuffix("closed after 100000 of 272036 bytes"), true,
      "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.ranges, ["none"])
  }
}
