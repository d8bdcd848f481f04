import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

/// The audio streams of a progressive file listed and switched as audio renditions, with
/// `Fixtures/dual-audio.mkv`: 6 s of video (150 frames at 25 fps) and two mono audio
/// streams, English (eng, 440 Hz, the default) and French (fra, 880 Hz).
final class ProgressiveAudioTrackTests: XCTestCase {
  private let frameDuration = 0.04

  private func fixture() throws -> URL { try Fixtures.url("dual-audio.mkv") }

  /// The `audioRenditionChanged` events in order (nil: the variant's own audio).
  private func audioChanges(_ recorder: EventRecorder) -> [RenditionInfo?] {
    recorder.events.compactMap { event -> RenditionInfo?? in
      if case .audioRenditionChanged(_, let rendition) = event.kind { return .some(rendition) }
      return nil
    }
  }

  func testAudioStreamsAreListedWithTheirLanguagesAndTheDefaultPlays() throws {
    let tones = ToneAudioSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try fixture(), configuration: .fast(audioSink: tones))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertEqual(item.audioRenditions.map(\.language), ["eng", "fra"])
    XCTAssertEqual(item.audioRenditions.map(\.name), ["English", "French"])
    XCTAssertEqual(item.audioRenditions.map(\.streamIndex), [1, 2])
    XCTAssertEqual(item.audioRenditions.map(\.isDefault), [true, false])
    XCTAssertEqual(item.audioRenditions.map(\.groupID), ["stream", "stream"])
    XCTAssertEqual(item.audioRenditions.map(\.uri), [nil, nil])
    XCTAssertEqual(item.selectedAudioRendition?.streamIndex, 1)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(audioChanges(recorder).map { $0?.streamIndex }, [1], "the start choice")
    XCTAssertEqual(tones.frequency(from: .zero, to: .seconds(6)), 440, accuracy: 20)
    XCTAssertEqual(item.statistics.framesDecoded, 150)
  }

  func testPreferredLanguageChoosesTheFrenchStreamAtStart() throws {
    let tones = ToneAudioSink()
    let item = PlayerItem(url: try fixture())
    // ISO 639-2 codes and BCP 47 tags meet: "fr" finds the stream tagged "fra".
    item.preferredAudioLanguages = ["de", "fr"]
    let (player, recorder) = EventRecorder.recordingPlayer(
      item, configuration: .fast(audioSink: tones))
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(item.selectedAudioRendition?.language, "fra")
    XCTAssertEqual(audioChanges(recorder).map { $0?.name }, ["French"])
    // From the first sample, only the 880 Hz stream was decoded.
    XCTAssertEqual(tones.firstBufferStart?.seconds ?? -1, 0, accuracy: 0.03)
    XCTAssertEqual(tones.frequency(from: .zero, to: .seconds(6)), 880, accuracy: 40)
    XCTAssertEqual(tones.frequency(from: .zero, to: .seconds(1)), 880, accuracy: 40)
    XCTAssertEqual(Double(item.statistics.audioSamplesPlayed) / 48_000, 6, accuracy: 0.1)
  }

  func testSelectingFrenchBeforePlayDecodesTheFrenchStream() throws {
    let (player, tones, recorder, item, french) = try readyWithFrenchSelected()
    defer { player.close() }
    XCTAssertEqual(item.selectedAudioRendition, french)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(tones.frequency(from: .zero, to: .seconds(6)), 880, accuracy: 40)
    XCTAssertEqual(Double(item.statistics.audioSamplesPlayed) / 48_000, 6, accuracy: 0.1)
    XCTAssertEqual(item.statistics.framesDecoded, 150)
  }

  func testSwitchingMidPlaybackChangesTheAudioAndKeepsTheVideoFlowing() throws {
    let tones = ToneAudioSink()
    let frames = RecordingVideoSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try fixture(), configuration: .fast(videoSink: frames, audioSink: tones))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    let french = try XCTUnwrap(item.audioRenditions.first { $0.language == "fra" })
    let selected = Locked(false)
    player.addBoundaryTimeObserver(forTimes: [.seconds(2)], queue: .global()) {
      let accepted = item.selectAudioRendition(french)
      selected.withLock { $0 = accepted }
    }
    player.play()
    let event = try XCTUnwrap(recorder.waitFor(event: "audioRenditionChanged", count: 2))
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertTrue(selected.withLock { $0 })
    XCTAssertEqual(item.selectedAudioRendition, french)
    XCTAssertEqual(audioChanges(recorder).map { $0?.language }, ["eng", "fra"])
    XCTAssertGreaterThanOrEqual(event.itemTime.seconds, 2)
    XCTAssertLessThan(event.itemTime.seconds, 5, "the switch applies from about the position")
    // Before the switch the English stream, after it the French one.
    XCTAssertEqual(tones.frequency(from: .zero, to: .seconds(2)), 440, accuracy: 20)
    XCTAssertEqual(
      tones.frequency(from: event.itemTime + .seconds(0.1), to: .seconds(6)), 880, accuracy: 40)
    XCTAssertEqual(Double(item.statistics.audioSamplesPlayed) / 48_000, 6, accuracy: 0.15)
    // Every frame decoded once and shown in order, one frame duration apart: no gap and
    // no step back across the switch.
    let stats = item.statistics
    XCTAssertEqual(stats.framesDecoded, 150)
    XCTAssertEqual(stats.framesDropped, 0)
    let times = frames.presentedTimes.map(\.seconds)
    XCTAssertEqual(times.count, 150)
    for (earlier, later) in zip(times, times.dropFirst()) {
      XCTAssertEqual(later - earlier, frameDuration, accuracy: 0.002, "\(earlier) → \(later)")
    }
  }

  func testSwitchingOverHTTPReadsAgainFromTheKeyframeOnly() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let tones = ToneAudioSink()
    let frames = RecordingVideoSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/dual-audio.mkv"),
      configuration: .fast(videoSink: frames, audioSink: tones))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    let french = try XCTUnwrap(item.audioRenditions.first { $0.language == "fra" })
    player.addBoundaryTimeObserver(forTimes: [.seconds(5)], queue: .global()) {
      item.selectAudioRendition(french)
    }
    player.play()
    let event = try XCTUnwrap(recorder.waitFor(event: "audioRenditionChanged", count: 2))
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertGreaterThanOrEqual(event.itemTime.seconds, 5)
    XCTAssertEqual(tones.frequency(from: .zero, to: .seconds(5)), 440, accuracy: 20)
    XCTAssertEqual(
      tones.frequency(from: event.itemTime + .seconds(0.1), to: .seconds(6)), 880, accuracy: 40)
    XCTAssertEqual(item.statistics.framesDecoded, 150)
    XCTAssertEqual(frames.presentedTimes.count, 150)
    // The file is read from its start once. The switch seeks back to the cluster of the
    // keyframe before it (4.021 s, at byte 51,440, or a later one), never to the start: a
    // later request starts no earlier than that cluster less half of FFmpeg's 64 KiB read
    // buffer, which FFmpeg reads back on a short backward seek. How the bytes arrived decides
    // whether the seek needs a request at all (a buffer that still holds the cluster does
    // not) and where a read-back starts, so only this bound holds on every run.
    let ranges = server.requests.filter { $0.path == "/dual-audio.mkv" }.map {
      $0.headers["range"] ?? $0.headers["Range"] ?? "-"
    }
    // The first request asks for the whole file, without a Range header.
    XCTAssertEqual(ranges.first, "-")
    let again = ranges.dropFirst().compactMap { range in
      Int(range.dropFirst("bytes=".count).prefix { $0.isNumber })
    }
    XCTAssertEqual(again.count, ranges.count - 1, "\(ranges)")
    XCTAssertGreaterThanOrEqual(again.min() ?? .max, 51_440 - 32 * 1024, "\(ranges)")
  }

  func testSeekAfterASwitchKeepsTheChosenStream() async throws {
    let (player, tones, recorder, _, _) = try readyWithFrenchSelected()
    defer { player.close() }
    let finished = await player.seek(
      to: .seconds(3), toleranceBefore: .zero, toleranceAfter: .zero)
    XCTAssertTrue(finished)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(tones.firstBufferStart?.seconds ?? -1, 3, accuracy: 1.0 / 48_000)
    XCTAssertEqual(tones.frequency(from: .seconds(3), to: .seconds(6)), 880, accuracy: 40)
  }

  func testUnknownStreamsAreRefusedAndAnUnknownLanguageKeepsTheDefault() throws {
    let tones = ToneAudioSink()
    let item = PlayerItem(url: try fixture())
    item.preferredAudioLanguages = ["de"]
    let (player, recorder) = EventRecorder.recordingPlayer(
      item, configuration: .fast(audioSink: tones))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    // No stream in German: the default (English) stream plays, as for an HLS group.
    XCTAssertEqual(item.selectedAudioRendition?.language, "eng")
    var other = try XCTUnwrap(item.audioRenditions.last)
    other.streamIndex = 7
    other.language = "de"
    XCTAssertFalse(item.selectAudioRendition(other), "a stream that is not listed is refused")
    XCTAssertEqual(item.selectedAudioRendition?.language, "eng")
    // nil selects the file's default stream, already playing: nothing changes.
    XCTAssertTrue(item.selectAudioRendition(nil))
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(audioChanges(recorder).map { $0?.language }, ["eng"])
    XCTAssertEqual(tones.frequency(from: .zero, to: .seconds(6)), 440, accuracy: 20)
  }

  func testAFileWithOneAudioStreamListsNone() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertTrue(item.audioRenditions.isEmpty)
    XCTAssertNil(item.selectedAudioRendition)
    XCTAssertFalse(recorder.names.contains("audioRenditionChanged"))
  }

  func testResumeKeepsTheChosenStream() throws {
    let (player, tones, recorder, item, french) = try readyWithFrenchSelected()
    defer { player.close() }
    player.resume(at: .seconds(2))
    recorder.waitFor(event: "resumeComplete")
    XCTAssertEqual(item.selectedAudioRendition, french)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(tones.firstBufferStart?.seconds ?? -1, 2, accuracy: 1.0 / 48_000)
    XCTAssertEqual(tones.frequency(from: .zero, to: .seconds(6)), 880, accuracy: 40)
  }

  /// A fast player over the fixture, ready, with the French stream selected (the change
  /// reported) before playback starts.
  private func readyWithFrenchSelected() throws -> (
    Player, ToneAudioSink, EventRecorder, PlayerItem, RenditionInfo
  ) {
    let tones = ToneAudioSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try fixture(), configuration: .fast(audioSink: tones))
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    let french = try XCTUnwrap(item.audioRenditions.first { $0.language == "fra" })
    XCTAssertTrue(item.selectAudioRendition(french))
    recorder.waitFor(event: "audioRenditionChanged", count: 2)
    return (player, tones, recorder, item, french)
  }
}
