import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

final class DecodeTests: XCTestCase {
  func testDecode_mp4_everyVideoFrameWithManifestTimestamps() throws {
    let facts = try FixtureFacts.load("sample-h264-aac.mp4")
    let demuxer = try MediaFixtures.memoryDemuxer("sample-h264-aac.mp4")
    let summary = try decodeAll(demuxer)
    XCTAssertEqual(summary.videoPTS.count, 250)
    XCTAssertEqual(summary.videoPTS.count, facts.videoFrameCount)
    let timeBase = try XCTUnwrap(demuxer.bestStream(of: .video)?.timeBase)
    let expected = try XCTUnwrap(facts.videoPTS).map {
      MediaTime(value: $0 * timeBase.value, timescale: timeBase.timescale)
    }
    XCTAssertEqual(summary.videoPTS, expected)
    XCTAssertTrue(summary.videoKeyframes.first ?? false)
    let audioSamples = try XCTUnwrap(facts.audioSampleCount)
    XCTAssertLessThanOrEqual(abs(summary.audioSamples - audioSamples), 1024)
  }

  func testDecode_transportStream_matchesManifest() throws {
    let facts = try FixtureFacts.load("sample-h264-aac.ts")
    let summary = try decodeAll(try MediaFixtures.demuxer("sample-h264-aac.ts"))
    XCTAssertEqual(summary.videoPTS.count, facts.videoFrameCount)
    XCTAssertEqual(
      summary.videoPTS.map { $0.convertScale(90000, rounding: .roundHalfAwayFromZero).value },
      facts.videoPTS)
    XCTAssertLessThanOrEqual(abs(summary.audioSamples - (facts.audioSampleCount ?? -10_000)), 1024)
  }

  func testDecode_webm_matchesManifest() throws {
    let facts = try FixtureFacts.load("sample-vp9-opus.webm")
    let summary = try decodeAll(try MediaFixtures.demuxer("sample-vp9-opus.webm"))
    XCTAssertEqual(summary.videoPTS.count, facts.videoFrameCount)
    if let listed = facts.videoPTS {
      XCTAssertEqual(
        summary.videoPTS.map { $0.convertScale(1000, rounding: .roundHalfAwayFromZero).value },
        listed)
    }
    let steps = zip(summary.videoPTS.dropFirst(), summary.videoPTS).map { ($0 - $1).seconds }
    XCTAssertTrue(steps.allSatisfy { abs($0 - 0.04) < 0.0015 }, "25 fps, in order: \(steps)")
    XCTAssertLessThanOrEqual(abs(summary.audioSamples - (facts.audioSampleCount ?? -10_000)), 1024)
  }

  func testDecode_mp3_sampleCountMatchesManifest() throws {
    let facts = try FixtureFacts.load("sample-audio.mp3")
    let summary = try decodeAll(try MediaFixtures.demuxer("sample-audio.mp3"))
    XCTAssertEqual(summary.videoPTS, [])
    XCTAssertLessThanOrEqual(abs(summary.audioSamples - (facts.audioSampleCount ?? -10_000)), 1152)
    XCTAssertGreaterThan(summary.audioSamples, 0)
  }

  func testDecode_threadCountIsConfigurable() throws {
    let demuxer = try MediaFixtures.demuxer("sample-h264-aac.mp4")
    let single = try demuxer.makeVideoDecoder(streamIndex: 0, threadCount: 1)
    XCTAssertEqual(single.threadCount, 1)
    let three = try demuxer.makeVideoDecoder(streamIndex: 0, threadCount: 3)
    XCTAssertEqual(three.threadCount, 3)
    assertThrows(.invalidArgument) { try demuxer.makeVideoDecoder(streamIndex: 0, threadCount: -1) }
  }

  func testMakeDecoder_wrongKindOrIndex_throwsInvalidArgument() throws {
    let demuxer = try MediaFixtures.demuxer("sample-h264-aac.mp4")
    assertThrows(.invalidArgument) { try demuxer.makeVideoDecoder(streamIndex: 1) }
    assertThrows(.invalidArgument) { try demuxer.makeAudioDecoder(streamIndex: 0) }
    assertThrows(.invalidArgument) { try demuxer.makeAudioDecoder(streamIndex: 7) }
  }

  func testFrames_carryDurationAndSize() throws {
    let demuxer = try MediaFixtures.demuxer("sample-h264-aac.mp4")
    let decoder = try demuxer.makeVideoDecoder(streamIndex: 0)
    var frame: VideoFrame?
    while frame == nil, let packet = try demuxer.readPacket() {
      guard packet.streamIndex == 0 else { continue }
      XCTAssertGreaterThan(packet.size, 0)
      try decoder.send(packet)
      frame = try decoder.receiveFrame()
    }
    if frame == nil {
      try decoder.send(nil)
      frame = try decoder.receiveFrame()
    }
    let first = try XCTUnwrap(frame)
    XCTAssertEqual(first.width, 320)
    XCTAssertEqual(first.height, 240)
    XCTAssertEqual(first.pts, .zero)
    XCTAssertEqual(first.duration, MediaTime(value: 1, timescale: 25))
    XCTAssertTrue(first.isKeyframe)
    XCTAssertEqual(first.pixelFormatName, "yuv420p")
  }

  func testSend_afterDrain_isIgnoredAndFlushRestarts() throws {
    let demuxer = try MediaFixtures.demuxer("sample-audio.mp3")
    let decoder = try demuxer.makeAudioDecoder(streamIndex: 0)
    try decoder.send(nil)
    XCTAssertNil(try decoder.receiveFrame())
    XCTAssertTrue(decoder.isDrained)
    try decoder.send(nil)
    decoder.flush()
    XCTAssertFalse(decoder.isDrained)
    var frames = 0
    while frames == 0, let packet = try demuxer.readPacket() {
      try decoder.send(packet)
      while let frame = try decoder.receiveFrame() {
        XCTAssertEqual(frame.sampleRate, 44100)
        XCTAssertEqual(frame.channels, 2)
        XCTAssertEqual(frame.duration, MediaTime(value: Int64(frame.sampleCount), timescale: 44100))
        frames += 1
      }
    }
    XCTAssertGreaterThan(frames, 0)
  }
}
