import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

final class SeekTests: XCTestCase {
  /// Seeks to `time`, then decodes the video stream; returns the first frame's time and
  /// the first packet of that stream.
  private func firstFrameAfterSeek(_ demuxer: Demuxer, to time: MediaTime) throws
    -> (packet: Packet, frame: VideoFrame)
  {
    let stream = try XCTUnwrap(demuxer.bestStream(of: .video))
    let decoder = try demuxer.makeVideoDecoder(streamIndex: stream.index)
    try demuxer.seek(to: time, streamIndex: stream.index)
    var firstPacket: Packet?
    while let packet = try demuxer.readPacket() {
      guard packet.streamIndex == stream.index else { continue }
      if firstPacket == nil { firstPacket = packet }
      try decoder.send(packet)
      if let frame = try decoder.receiveFrame() {
        return (try XCTUnwrap(firstPacket), frame)
      }
    }
    try decoder.send(nil)
    let frame = try XCTUnwrap(try decoder.receiveFrame())
    return (try XCTUnwrap(firstPacket), frame)
  }

  /// The presentation times of the video keyframes, read without seeking.
  private func keyframeTimes(_ name: String) throws -> [MediaTime] {
    let demuxer = try MediaFixtures.demuxer(name)
    let stream = try XCTUnwrap(demuxer.bestStream(of: .video))
    var times: [MediaTime] = []
    while let packet = try demuxer.readPacket() {
      if packet.streamIndex == stream.index, packet.isKeyframe { times.append(packet.pts) }
    }
    return times
  }

  private func checkSeek(_ name: String, offsetFromStart: Double = 4.5) throws {
    let keyframes = try keyframeTimes(name)
    if let listed = try FixtureFacts.load(name).videoKeyframeSeconds {
      XCTAssertEqual(keyframes.map(\.seconds), listed, accuracy: 0.0005)
    }
    let demuxer = try MediaFixtures.demuxer(name)
    let target = demuxer.startTime + MediaTime(seconds: offsetFromStart, preferredTimescale: 1000)
    let expected = try XCTUnwrap(keyframes.filter { $0 <= target }.max())
    let (packet, frame) = try firstFrameAfterSeek(demuxer, to: target)
    XCTAssertTrue(packet.isKeyframe, "\(name): first packet after seek is not a keyframe")
    XCTAssertTrue(frame.isKeyframe, "\(name): first frame after seek is not a keyframe")
    XCTAssertLessThanOrEqual(frame.pts.seconds, target.seconds, name)
    XCTAssertEqual(frame.pts, expected, "\(name): not the last keyframe at or before the target")
  }

  func testSeek_mp4_landsOnKeyframeAtOrBefore() throws {
    try checkSeek("sample-h264-aac.mp4")
  }

  func testSeek_transportStream_landsOnKeyframeAtOrBefore() throws {
    try checkSeek("sample-h264-aac.ts")
  }

  func testSeek_webm_landsOnKeyframeAtOrBefore() throws {
    try checkSeek("sample-vp9-opus.webm", offsetFromStart: 3.3)
  }

  func testSeek_mp3_nextAudioStartsNearTarget() throws {
    let demuxer = try MediaFixtures.demuxer("sample-audio.mp3")
    try demuxer.seek(to: MediaTime(seconds: 4.5, preferredTimescale: 1000), streamIndex: nil)
    let packet = try XCTUnwrap(try demuxer.readPacket())
    XCTAssertEqual(packet.pts.seconds, 4.5, accuracy: 0.2)
  }

  func testSeek_beforeStart_landsOnFirstKeyframe() throws {
    let demuxer = try MediaFixtures.demuxer("sample-h264-aac.ts")
    let (packet, frame) = try firstFrameAfterSeek(demuxer, to: .zero)
    XCTAssertTrue(packet.isKeyframe)
    XCTAssertEqual(
      frame.pts.seconds, demuxer.bestStream(of: .video)?.startTime.seconds ?? -1, accuracy: 0.001)
  }

  func testSeek_backAfterReadingToTheEnd_decodesAgain() throws {
    let demuxer = try MediaFixtures.demuxer("sample-h264-aac.mp4")
    while try demuxer.readPacket() != nil {}
    let (_, frame) = try firstFrameAfterSeek(demuxer, to: MediaTime(value: 2, timescale: 1))
    XCTAssertEqual(frame.pts.seconds, 2, accuracy: 0.001)
  }

  func testSeek_invalidTimeOrStream_throwsInvalidArgument() throws {
    let demuxer = try MediaFixtures.demuxer("sample-h264-aac.mp4")
    assertThrows(.invalidArgument) { try demuxer.seek(to: .invalid, streamIndex: 0) }
    assertThrows(.invalidArgument) { try demuxer.seek(to: .zero, streamIndex: 9) }
  }
}
