import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// An AES-128 HLS stream over a simulated network plugged in as the player's network, on
/// the fast clock: segments are decrypted as their bytes stream in (`AES128DataSource` on
/// each segment's transfer), whatever size the network's reads come in.
final class HLSEncryptedSimulatedNetworkTests: XCTestCase {
  private let base = URL(string: "http://sim.test/aes/")!

  /// The `hls-aes` fixture (two keys: an explicit IV, then the media sequence's) under
  /// `base`, as it is served.
  private func encryptedStream() throws -> [URL: Data] {
    var files: [URL: Data] = [:]
    for name in ["index.m3u8", "key.bin", "key2.bin"] + segmentNames {
      files[base.appendingPathComponent(name)] = try Data(
        contentsOf: try Fixtures.url("hls-aes/" + name))
    }
    return files
  }

  private let segmentNames = (10...14).map { "segment0\($0).ts" }

  /// The same stream in the clear: the fixture's segments decrypted here, in a playlist
  /// without keys.
  private func clearStream() throws -> [URL: Data] {
    let key1 = [UInt8](try Data(contentsOf: try Fixtures.url("hls-aes/key.bin")))
    let key2 = [UInt8](try Data(contentsOf: try Fixtures.url("hls-aes/key2.bin")))
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:10\n"
    text += "#EXT-X-PLAYLIST-TYPE:VOD\n"
    var files: [URL: Data] = [:]
    for (offset, name) in segmentNames.enumerated() {
      let sequence = 10 + offset
      let (key, iv) =
        sequence < 13
        ? (key1, (0..<16).map { UInt8($0) }) : (key2, AES128.iv(mediaSequence: UInt64(sequence)))
      files[base.appendingPathComponent(name)] = try AES128.decryptCBC(
        try Data(contentsOf: try Fixtures.url("hls-aes/" + name)), key: key, iv: iv)
      text += "#EXTINF:2.000000,\n\(name)\n"
    }
    files[base.appendingPathComponent("index.m3u8")] = Data((text + "#EXT-X-ENDLIST\n").utf8)
    return files
  }

  /// Plays `resources` over 1.5 Mbit/s whose reads hand out 1,000 bytes at most (not a
  /// whole number of AES blocks); returns the end, the frames presented and the network.
  private func play(_ resources: [URL: Data]) throws -> (
    end: PlayerEvent?, sink: RecordingVideoSink, network: SimulatedNetwork
  ) {
    let sink = RecordingVideoSink()
    var configuration = PlayerConfiguration.fast()
    configuration.videoSink = sink
    let network = SimulatedNetwork(
      resources: resources, trace: .constant(bandwidthKbps: 1_500, latencyMs: 30),
      clock: configuration.clock, progressIntervalBytes: 1_000)
    configuration.network = network
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: base.appendingPathComponent("index.m3u8"), configuration: configuration)
    defer { player.close() }
    player.play()
    return (recorder.waitForEnd(), sink, network)
  }

  func testAES128Stream_overASimulatedNetwork_playsLikeTheClearStream() throws {
    let encrypted = try play(try encryptedStream())
    XCTAssertEqual(encrypted.end?.name, "didPlayToEnd", "\(String(describing: encrypted.end))")
    XCTAssertEqual(encrypted.sink.presentedTimes.count, 250)
    let clear = try play(try clearStream())
    XCTAssertEqual(clear.end?.name, "didPlayToEnd", "\(String(describing: clear.end))")
    XCTAssertEqual(encrypted.sink.streamTimestamps, clear.sink.streamTimestamps)
    XCTAssertEqual(encrypted.sink.presentedTimes, clear.sink.presentedTimes)
    // Each key once, each segment once, all over the simulated network.
    let paths = encrypted.network.requestLog.map(\.request.url.lastPathComponent)
    XCTAssertEqual(
      paths.sorted(), (["index.m3u8", "key.bin", "key2.bin"] + segmentNames).sorted())
    XCTAssertTrue(encrypted.network.requestLog.allSatisfy { $0.error == nil && $0.endClock != nil })
  }

  func testAES128Stream_withAWrongKey_failsWithDecryptionFailed() throws {
    var resources = try encryptedStream()
    resources[base.appendingPathComponent("key2.bin")] = try Data(
      contentsOf: try Fixtures.url("hls-aes/wrong-key.bin"))
    let (end, sink, _) = try play(resources)
    XCTAssertEqual(end?.name, "failedToPlayToEnd", "\(String(describing: end))")
    XCTAssertEqual(end?.error?.code, .decryptionFailed, "\(String(describing: end?.error))")
    XCTAssertEqual(sink.presentedTimes.count, 150, "the segments under the first key played")
  }
}
