import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class PlaybackTests: XCTestCase {
  /// Plays `name` to the end in fast mode and checks counts against the manifest.
  private func playToEnd(_ name: String, audioRate: Int = 48_000) throws {
    let fixture = try Fixtures.manifest().file(name)
    let url = try Fixtures.url(name)
    let audioSink = DiscardAudioSink(
      format: AudioOutputFormat(sampleRate: audioRate, channels: 2, sampleFormat: .int16))
    let videoSink = DiscardVideoSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: url, configuration: .fast(videoSink: videoSink, audioSink: audioSink))
    defer { player.close() }
    player.play()
    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(name): \(String(describing: end?.error))")

    let names = recorder.names
    let ready = try XCTUnwrap(
      names.firstIndex(of: "readyToPlay"), "\(name): no readyToPlay in \(names)")
    let first = try XCTUnwrap(names.firstIndex(of: "firstFrame"))
    let playing = try XCTUnwrap(names.firstIndex(of: "playing"))
    let ended = try XCTUnwrap(names.firstIndex(of: "didPlayToEnd"))
    XCTAssertLessThan(ready, playing, name)
    XCTAssertLessThan(playing, ended, name)
    XCTAssertLessThan(first, ended, name)

    let item = try XCTUnwrap(player.currentItem)
    let stats = item.statistics
    if let video = fixture.videoStreams.first {
      XCTAssertEqual(stats.framesDecoded, video.nbReadFrames, "\(name): frames decoded")
      XCTAssertEqual(stats.framesRendered + stats.framesDropped, stats.framesDecoded, name)
      XCTAssertEqual(stats.framesDropped, 0, "\(name): fast mode never drops")
      XCTAssertEqual(videoSink.presentedFrameCount, stats.framesRendered)
    }
    if let audio = fixture.audioStreams.first, let expected = audio.decodedSampleCount,
      let sourceRate = audio.sampleRate
    {
      XCTAssertEqual(
        Double(stats.audioSamplesDecoded), Double(expected), accuracy: 1152,
        "\(name): audio samples")
      let expectedPlayed = Double(expected) * Double(audioRate) / Double(sourceRate)
      XCTAssertEqual(
        Double(audioSink.writtenFrameCount), expectedPlayed, accuracy: 2 * 1152,
        "\(name): audio played")
    }
    // The clock ran for the media's length: fast mode keeps every timestamp consistent.
    let clockSpan = (end!.clockTime - recorder.events.first { $0.name == "playing" }!.clockTime)
      .seconds
    let duration = try XCTUnwrap(fixture.durationSeconds)
    XCTAssertEqual(clockSpan, duration, accuracy: 0.1, "\(name): clock time for the whole item")
  }

  func testMP4PlaysToEndWithEveryFrame() throws { try playToEnd("sample-h264-aac.mp4") }
  func testTransportStreamPlaysToEnd() throws { try playToEnd("sample-h264-aac.ts") }
  func testMP3PlaysToEndAsAudioOnly() throws {
    try playToEnd("sample-audio.mp3", audioRate: 44_100)
  }
  func testWebMPlaysToEnd() throws { try playToEnd("sample-vp9-opus.webm") }

  func testAudioOnlyItemIsReportedAsSuch() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-audio.mp3"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    XCTAssertTrue(try XCTUnwrap(player.currentItem).isAudioOnly)
    let video = Player(url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { video.close() }
    EventRecorder(video).waitFor(event: "readyToPlay")
    XCTAssertFalse(try XCTUnwrap(video.currentItem).isAudioOnly)
  }

  func testRateTwoFinishesInHalfTheClockTime() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    player.defaultRate = 2
    player.play()
    let end = try XCTUnwrap(recorder.waitForEnd())
    XCTAssertEqual(end.name, "didPlayToEnd")
    let start = try XCTUnwrap(recorder.events.first { $0.name == "playing" })
    XCTAssertEqual((end.clockTime - start.clockTime).seconds, 5.0, accuracy: 0.1)
    let stats = try XCTUnwrap(player.currentItem).statistics
    // Time-domain stretching halves the number of samples and keeps the pitch.
    XCTAssertEqual(Double(stats.audioSamplesPlayed), Double(480_256) / 2, accuracy: 480_256 * 0.03)
  }

  func testVideoDisabledDecodesNoFrames() throws {
    var configuration = PlayerConfiguration.fast()
    configuration.isVideoDisabled = true
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: configuration)
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let stats = try XCTUnwrap(player.currentItem).statistics
    XCTAssertEqual(stats.framesDecoded, 0)
    XCTAssertGreaterThan(stats.audioSamplesDecoded, 400_000)
  }

  func testForwardPlaybackEndTimeEndsEarly() throws {
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    item.forwardPlaybackEndTime = .seconds(3)
    let sink = RecordingVideoSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      item, configuration: .fast(videoSink: sink))
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(item.currentTime().seconds, 3.0, accuracy: 0.001)
    XCTAssertLessThanOrEqual(sink.presentedTimes.last?.seconds ?? 99, 3.0)
    XCTAssertGreaterThanOrEqual(sink.presentedTimes.count, 74)
  }

  func testWAVSinkWritesAPlayableHeaderAndAllSamples() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-wav-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let wavURL = directory.appendingPathComponent("out.wav")
    let format = AudioOutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .int16)
    let sink = try WAVAudioSink(url: wavURL, format: format)
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-audio.mp3"), configuration: .fast(audioSink: sink))
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    player.close()
    let data = try Data(contentsOf: wavURL)
    XCTAssertEqual(String(decoding: data[0..<4], as: UTF8.self), "RIFF")
    XCTAssertEqual(String(decoding: data[8..<16], as: UTF8.self), "WAVEfmt ")
    let dataSize = data[40..<44].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    XCTAssertEqual(Int(dataSize), data.count - 44)
    XCTAssertEqual(Double(dataSize) / 4, 264_600, accuracy: 2304)
  }

  func testPrerenderShowsFirstFrameWhilePaused() throws {
    var configuration = PlayerConfiguration.fast(videoSink: RecordingVideoSink())
    configuration.prerendersFirstFrame = true
    let sink = configuration.videoSink as! RecordingVideoSink
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: configuration)
    defer { player.close() }
    recorder.waitFor(event: "firstFrame")
    XCTAssertEqual(player.rate, 0)
    XCTAssertEqual(sink.presentedTimes.first, .zero)
    XCTAssertNoThrow(try player.snapshot())
  }
}
