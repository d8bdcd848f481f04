import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// A session's audio tracks for a file with two audio streams (`Fixtures/dual-audio.mkv`:
/// English 440 Hz, the default, and French 880 Hz), chosen through the text-track
/// controller as HLS audio renditions are.
final class ProgressiveAudioTrackSDKTests: XCTestCase {
  private func makeController(audioLanguages: [String], tones: ToneCounter) -> (
    PlaybackController, SDKRecorder, TextEventRecorder
  ) {
    let provider = PlayerSDKManager.shared.createSidecarSubtitlesSessionProvider(
      configuration: TextTrackConfiguration(
        preferences: TextTrackPreferences(languages: ["en"], mode: .automatic),
        preferredAudioLanguages: audioLanguages))
    let (controller, recorder) = SDKTesting.makeController(
      provider: provider,
      configuration: .fast(videoSink: DiscardVideoSink(), audioSink: tones))
    let text = TextEventRecorder()
    controller.addSessionConsumer(text)
    return (controller, recorder, text)
  }

  private func video() throws -> Video {
    SDKTesting.video(id: "dual", url: try Fixtures.url("dual-audio.mkv"))
  }

  func testPreferredAudioLanguageChoosesTheFrenchStream() throws {
    let tones = ToneCounter()
    let (controller, recorder, _) = makeController(audioLanguages: ["fr"], tones: tones)
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([try video()])
    recorder.waitFor(lifecycle: "end")
    let session = try XCTUnwrap(recorder.sessions.first)
    let tracks = try XCTUnwrap(session.textTracks)
    XCTAssertEqual(tracks.audioOptions.map(\.id), ["stream:1", "stream:2"])
    XCTAssertEqual(tracks.audioOptions.map(\.language), ["eng", "fra"])
    XCTAssertEqual(tracks.audioOptions.map(\.label), ["English", "French"])
    XCTAssertEqual(tracks.audioOptions.map(\.isDefault), [true, false])
    XCTAssertEqual(tracks.selectedAudio?.id, "stream:2")
    XCTAssertEqual(tracks.audioLanguage, "fra")
    XCTAssertEqual(session.playerItem?.selectedAudioRendition?.streamIndex, 2)
    // The switch is made at ready: what plays is the French stream's 880 Hz.
    XCTAssertEqual(tones.frequency(from: 0.5, to: 6), 880, accuracy: 40)
  }

  func testSelectingAStreamByHandSwitchesTheAudio() throws {
    let tones = ToneCounter()
    let (controller, recorder, text) = makeController(audioLanguages: [], tones: tones)
    defer { controller.close() }
    controller.setVideos([try video()])
    text.waitFor(type: "textTrackChanged")
    let session = try XCTUnwrap(recorder.sessions.first)
    let tracks = try XCTUnwrap(session.textTracks)
    XCTAssertEqual(tracks.selectedAudio?.id, "stream:1", "the file's default stream")
    XCTAssertEqual(tracks.audioLanguage, "eng")
    XCTAssertFalse(
      tracks.selectAudio(
        AudioTrackOption(
          id: "stream:9", language: "de", label: "x", isDefault: false, autoselect: true,
          source: .embedded(streamIndex: 9))), "not one of the options")
    let french = try XCTUnwrap(tracks.audioOptions.first { $0.language == "fra" })
    XCTAssertTrue(tracks.selectAudio(french))
    text.waitFor("the switch to French") {
      $0.contains { $0.type == "audioTrackChanged" && $0.detail == "stream:2" }
    }
    XCTAssertEqual(tracks.selectedAudio, french)
    XCTAssertEqual(tracks.audioLanguage, "fra")
    controller.play()
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(tones.frequency(from: 0, to: 6), 880, accuracy: 40)
  }
}

/// An audio sink (mono 16-bit, 48 kHz) that estimates the tone it is given from zero
/// crossings, by item time.
final class ToneCounter: AudioSink, @unchecked Sendable {
  let format = AudioOutputFormat(sampleRate: 48_000, channels: 1, sampleFormat: .int16)
  private let lock = NSLock()
  private var buffers: [(start: Double, frames: Int, crossings: Int)] = []

  func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    var crossings = 0
    buffer.samples.withUnsafeBytes { raw in
      var previous: Int16 = 0
      for sample in raw.bindMemory(to: Int16.self).prefix(buffer.frameCount) where sample != 0 {
        if previous != 0 && (sample > 0) != (previous > 0) { crossings += 1 }
        previous = sample
      }
    }
    lock.lock()
    buffers.append((buffer.pts.seconds, buffer.frameCount, crossings))
    lock.unlock()
  }

  func finish() throws(PlayheadError) {}

  /// The tone in Hz of the buffers that start in `[start, end)` seconds; 0 when none did.
  func frequency(from start: Double, to end: Double) -> Double {
    lock.lock()
    defer { lock.unlock() }
    let chosen = buffers.filter { $0.start >= start && $0.start < end }
    let frames = chosen.reduce(0) { $0 + $1.frames }
    guard frames > 0 else { return 0 }
    return Double(chosen.reduce(0) { $0 + $1.crossings }) / 2 / (Double(frames) / 48_000)
  }
}
