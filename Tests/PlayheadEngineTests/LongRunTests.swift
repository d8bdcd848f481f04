import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Long runs must not grow memory: players, loaders, HLS drivers, demuxers and decoders
/// are all released when a player closes.
final class LongRunTests: XCTestCase {
  private func playToEnd(_ url: URL) {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: .fast())
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    player.close()
  }

  func testRepeatedHLSAndProgressivePlaybackDoesNotGrowMemory() throws {
    let hls = try Fixtures.url("hls/master.m3u8")
    let progressive = try Fixtures.url("sample-h264-aac.mp4")
    // Warm up first: the allocator's per-thread arenas and FFmpeg's frame pools grow to a
    // plateau over the first dozen plays (measured: flat after about 16 HLS plays).
    for _ in 0..<16 { playToEnd(hls) }
    for _ in 0..<4 { playToEnd(progressive) }
    let before = try XCTUnwrap(ProcessMemory.residentBytes())
    for _ in 0..<12 {
      playToEnd(hls)
      playToEnd(progressive)
    }
    let after = try XCTUnwrap(ProcessMemory.residentBytes())
    let grownMB = Double(after - before) / 1_048_576
    // Before the thread-reference fix each HLS play kept its driver, loader and decoders
    // (about 4.5 MB a play, over 60 MB here). What remains is the allocator's arenas
    // settling (each decoder brings new threads); it stays under this bound.
    XCTAssertLessThan(grownMB, 40, "resident memory grew \(grownMB) MB over 24 plays")
  }
}
