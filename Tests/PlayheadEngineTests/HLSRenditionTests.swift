import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

/// Alternate audio and subtitle renditions (S2, issue 3) over HTTP with the `hls-alt`
/// fixture: a video-only variant, English (440 Hz) and French (880 Hz) audio renditions in
/// playlists of their own, and WebVTT subtitles.
final class HLSRenditionTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func paths(_ server: HTTPTestServer, under prefix: String) -> [String] {
    server.requests.map(\.path).filter { $0.hasPrefix(prefix) && $0.hasSuffix(".ts") }
  }

  /// The playlist start times of the audio renditions' segments (2.005333 s each, then
  /// 1.984 s): the segment that holds `time`.
  private func audioSegment(at time: MediaTime) -> Int {
    let starts = [0, 2.005333, 4.010666, 6.015999, 8.0]
    return (starts.lastIndex { $0 <= time.seconds }) ?? 0
  }

  func testDefaultAudioRenditionPlays() throws {
    let server = try startServer()
    let tones = ToneAudioSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls-alt/master.m3u8"), configuration: .fast(audioSink: tones))
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertEqual(item.audioRenditions.map(\.name), ["English", "Français"])
    XCTAssertEqual(item.selectedAudioRendition?.language, "en")
    let changed = recorder.events.compactMap { event -> RenditionInfo?? in
      if case .audioRenditionChanged(_, let rendition) = event.kind { return rendition }
      return nil
    }
    XCTAssertEqual(changed.count, 1, "one event for the start choice")
    XCTAssertEqual(changed.first??.name, "English")
    XCTAssertEqual(
      paths(server, under: "/hls-alt/audio-en/"),
      (0..<5).map { String(format: "/hls-alt/audio-en/segment%03d.ts", $0) })
    XCTAssertTrue(paths(server, under: "/hls-alt/audio-fr/").isEmpty)
    XCTAssertEqual(item.statistics.framesDecoded, 250)
    XCTAssertTrue(item.tracks.contains { $0.kind == .audio }, "the rendition's audio track")
    XCTAssertEqual(Set(item.tracks.map(\.id)).count, item.tracks.count, "unique track IDs")
    // The variant has no audio: everything heard is the English rendition's 440 Hz.
    XCTAssertGreaterThan(item.statistics.audioSamplesPlayed, 48_000 * 9)
    XCTAssertEqual(
      tones.frequency(from: .zero, to: MediaTime(value: 9, timescale: 1)), 440, accuracy: 20)
  }

  func testSwitchingToFrenchMidPlayFetchesFromThePosition() throws {
    let server = try startServer()
    let tones = ToneAudioSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls-alt/master.m3u8"), configuration: .fast(audioSink: tones))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    let french = try XCTUnwrap(item.audioRenditions.first { $0.language == "fr" })
    let selected = Flag()
    player.addBoundaryTimeObserver(forTimes: [MediaTime(value: 5, timescale: 1)], queue: .global())
    {
      selected.set(item.selectAudioRendition(french))
    }
    player.play()
    let event = try XCTUnwrap(recorder.waitFor(event: "audioRenditionChanged", count: 2))
    XCTAssertTrue(selected.value)
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(item.selectedAudioRendition, french)
    let fetched = paths(server, under: "/hls-alt/audio-fr/")
    let first = try XCTUnwrap(fetched.first, "French segments were fetched")
    let firstIndex = try XCTUnwrap(
      Int(first.dropFirst("/hls-alt/audio-fr/segment".count).prefix(3)))
    // The switch applies between the boundary (5 s) and the event.
    XCTAssertGreaterThanOrEqual(firstIndex, audioSegment(at: MediaTime(value: 5, timescale: 1)))
    XCTAssertLessThanOrEqual(firstIndex, audioSegment(at: event.itemTime))
    XCTAssertEqual(
      fetched, (firstIndex..<5).map { String(format: "/hls-alt/audio-fr/segment%03d.ts", $0) })
    let stats = item.statistics
    XCTAssertEqual(stats.framesDecoded, 250)
    XCTAssertEqual(stats.framesRendered + stats.framesDropped, 250)
    XCTAssertEqual(
      tones.frequency(from: .zero, to: MediaTime(value: 5, timescale: 1)), 440, accuracy: 20)
    XCTAssertEqual(
      tones.frequency(
        from: event.itemTime + MediaTime(value: 1, timescale: 2),
        to: MediaTime(value: 9, timescale: 1)),
      880, accuracy: 40)
  }

  func testSeekRestartsTheRenditionAtTheTarget() async throws {
    let server = try startServer()
    let tones = ToneAudioSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls-alt/master.m3u8"), configuration: .fast(audioSink: tones))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    // Everything is requested once (the 30 s buffer holds the whole stream): master, two
    // media playlists, five segments each. Then only what the seek needs.
    XCTAssertTrue(server.waitForRequests(count: 13))
    server.clearRequests()
    let target = MediaTime(value: 7, timescale: 1)
    let finished = await player.seek(to: target)
    XCTAssertTrue(finished)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    // Audio segment 3 holds 6.016–8 s, video segment 3 holds 6–8 s: nothing before.
    XCTAssertEqual(
      paths(server, under: "/hls-alt/audio-en/"),
      ["/hls-alt/audio-en/segment003.ts", "/hls-alt/audio-en/segment004.ts"])
    XCTAssertEqual(
      paths(server, under: "/hls-alt/video/"),
      ["/hls-alt/video/segment003.ts", "/hls-alt/video/segment004.ts"])
    // The audio starts where the seek landed, to the sample.
    let first = try XCTUnwrap(tones.firstBufferStart)
    XCTAssertEqual(first.seconds, 7, accuracy: 1.0 / 48_000)
    let played = Double(player.currentItem?.statistics.audioSamplesPlayed ?? 0) / 48_000
    XCTAssertEqual(played, 2.98, accuracy: 0.05, "from 7 s to the audio's end at 9.98 s")
    XCTAssertEqual(
      tones.frequency(from: target, to: MediaTime(value: 10, timescale: 1)), 440, accuracy: 20)
  }

  func testResumeKeepsTheSelectedRenditions() throws {
    let server = try startServer()
    let tones = ToneAudioSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls-alt/master.m3u8"), configuration: .fast(audioSink: tones))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    let french = try XCTUnwrap(item.audioRenditions.first { $0.language == "fr" })
    XCTAssertTrue(item.selectAudioRendition(french))
    XCTAssertTrue(item.selectSubtitleRendition(item.subtitleRenditions.first))
    recorder.waitFor(event: "subtitleRenditionChanged")
    recorder.waitFor(event: "audioRenditionChanged", count: 2)
    player.resume(at: MediaTime(value: 3, timescale: 1))
    recorder.waitFor(event: "resumeComplete")
    XCTAssertEqual(item.selectedAudioRendition, french)
    XCTAssertEqual(item.subtitleSegments?.segments.count, 5)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(item.selectedAudioRendition, french)
    // Nothing played before the resume: all the audio is French, from 3 s.
    XCTAssertEqual(tones.firstBufferStart?.seconds ?? -1, 3, accuracy: 1.0 / 48_000)
    XCTAssertEqual(
      tones.frequency(from: .zero, to: MediaTime(value: 10, timescale: 1)), 880, accuracy: 40)
  }

  func testPreferredLanguagePicksFrenchAtStart() throws {
    let server = try startServer()
    let tones = ToneAudioSink()
    let item = PlayerItem(url: server.url("/hls-alt/master.m3u8"))
    item.preferredAudioLanguages = ["de", "fr-CA"]
    let (player, recorder) = EventRecorder.recordingPlayer(
      item, configuration: .fast(audioSink: tones))
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(item.selectedAudioRendition?.name, "Français")
    XCTAssertEqual(paths(server, under: "/hls-alt/audio-fr/").count, 5)
    XCTAssertTrue(paths(server, under: "/hls-alt/audio-en/").isEmpty)
    XCTAssertEqual(
      tones.frequency(from: .zero, to: MediaTime(value: 9, timescale: 1)), 880, accuracy: 40)
  }

  func testSelectingTheVariantsOwnAudioStopsTheRendition() throws {
    let server = try startServer()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls-alt/master.m3u8"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertFalse(
      item.selectAudioRendition(
        RenditionInfo(
          type: "audio", groupID: "aud", name: "Deutsch", language: "de",
          isDefault: false, autoselect: true, forced: false, uri: nil)),
      "a rendition that is not listed is refused")
    XCTAssertTrue(item.selectAudioRendition(nil))
    recorder.waitFor("the selection of the variant's audio") { events in
      events.contains {
        if case .audioRenditionChanged(_, nil) = $0.kind { return true }
        return false
      }
    }
    XCTAssertNil(item.selectedAudioRendition)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(item.statistics.framesDecoded, 250)
  }

  func testBackToTheVariantsMuxedAudioMidPlay() throws {
    let server = try startServer()
    // The 12 s ladder's 144p variant has its own (muxed) audio; the French rendition
    // (880 Hz, 9.98 s) replaces it at start.
    let master = """
      #EXTM3U
      #EXT-X-VERSION:6
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",DEFAULT=YES,AUTOSELECT=YES,URI="/hls-alt/audio-fr/index.m3u8"
      #EXT-X-STREAM-INF:BANDWIDTH=200000,AUDIO="aud"
      /hls/144p/index.m3u8

      """
    server.setFile(Data(master.utf8), at: "/muxed/master.m3u8")
    let tones = ToneAudioSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/muxed/master.m3u8"), configuration: .fast(audioSink: tones))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertEqual(item.selectedAudioRendition?.language, "fr")
    player.addBoundaryTimeObserver(forTimes: [MediaTime(value: 5, timescale: 1)], queue: .global())
    {
      item.selectAudioRendition(nil)
    }
    player.play()
    let event = try XCTUnwrap(recorder.waitFor(event: "audioRenditionChanged", count: 2))
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertNil(item.selectedAudioRendition)
    XCTAssertEqual(player.currentTime().seconds, 12, accuracy: 0.1)
    // The variant's runs restart at the switch (between the boundary and the event): its
    // segments are fetched again from the one that holds the switch time on.
    let refetched = (0..<6).filter {
      server.requestCount(for: String(format: "/hls/144p/segment%03d.ts", $0)) > 1
    }
    let restart = try XCTUnwrap(refetched.first, "\(server.requests.map(\.path))")
    XCTAssertTrue((2...Int(event.itemTime.seconds / 2)).contains(restart), "\(refetched)")
    XCTAssertEqual(refetched, Array(restart..<6))
    XCTAssertEqual(
      tones.frequency(from: .zero, to: MediaTime(value: 5, timescale: 1)), 880, accuracy: 40)
    XCTAssertLessThan(
      tones.frequency(
        from: event.itemTime + MediaTime(value: 1, timescale: 2),
        to: MediaTime(value: 12, timescale: 1)),
      700, "the variant's own 440/660 Hz audio")
    // Audio plays to the variant's end (12 s), past the rendition's 9.98 s.
    let played = Double(item.statistics.audioSamplesPlayed) / 48_000
    XCTAssertGreaterThan(played, 11.5)
  }

  func testSubtitleSelectionFetchesItsPlaylist() throws {
    let server = try startServer()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls-alt/master.m3u8"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertNil(item.selectedSubtitleRendition, "no subtitles unless selected")
    XCTAssertEqual(server.requestCount(for: "/hls-alt/subs-en/index.m3u8"), 0)
    let english = try XCTUnwrap(item.subtitleRenditions.first)
    XCTAssertEqual(english.language, "en")
    XCTAssertTrue(item.selectSubtitleRendition(english))
    recorder.waitFor(event: "subtitleRenditionChanged")
    XCTAssertEqual(item.selectedSubtitleRendition, english)
    XCTAssertEqual(server.requestCount(for: "/hls-alt/subs-en/index.m3u8"), 1)
    let list = try XCTUnwrap(item.subtitleSegments)
    XCTAssertTrue(list.isComplete)
    XCTAssertEqual(
      list.segments.map(\.url.lastPathComponent),
      (0..<5).map { String(format: "segment%03d.vtt", $0) })
    XCTAssertEqual(list.segments.map(\.timeRange.start.seconds), [0, 2, 4, 6, 8])
    XCTAssertEqual(
      list.segments(at: MediaTime(value: 5, timescale: 1)).first?.url.lastPathComponent,
      "segment002.vtt")
    XCTAssertTrue(item.selectSubtitleRendition(nil))
    recorder.waitFor(event: "subtitleRenditionChanged", count: 2)
    XCTAssertNil(item.subtitleSegments)
  }

  func testVariantSwitchKeepsTheSelectedRendition() throws {
    let server = try startServer()
    // Two variants over the same video, each with its own AUDIO group; the high group's
    // French playlist is a copy served elsewhere, so a switch must move the audio there.
    let fixtures = try Fixtures.url("hls-alt")
    for name in ["index.m3u8"] + (0..<5).map({ String(format: "segment%03d.ts", $0) }) {
      let data = try Data(contentsOf: fixtures.appendingPathComponent("audio-fr/\(name)"))
      server.setFile(data, at: "/alt2/hi-fr/\(name)")
    }
    let master = """
      #EXTM3U
      #EXT-X-VERSION:6
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="/hls-alt/audio-en/index.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,URI="/hls-alt/audio-fr/index.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="/hls-alt/audio-en/index.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,URI="/alt2/hi-fr/index.m3u8"
      #EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,AUDIO="lo"
      /hls-alt/video/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,AUDIO="hi"
      /hls-alt/video/index.m3u8

      """
    server.setFile(Data(master.utf8), at: "/alt2/master.m3u8")
    var configuration = PlayerConfiguration.fast()
    configuration.hls.forwardBufferDuration = MediaTime(value: 2, timescale: 1)
    let item = PlayerItem(url: server.url("/alt2/master.m3u8"))
    item.preferredVariantIndex = 0
    item.preferredAudioLanguages = ["fr"]
    let (player, recorder) = EventRecorder.recordingPlayer(item, configuration: configuration)
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    XCTAssertEqual(item.selectedAudioRendition?.groupID, "lo")
    XCTAssertEqual(item.selectedAudioRendition?.name, "Français")
    player.addBoundaryTimeObserver(forTimes: [MediaTime(value: 3, timescale: 1)], queue: .global())
    {
      item.preferredVariantIndex = 1
    }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(item.currentVariant?.index, 1)
    XCTAssertEqual(item.selectedAudioRendition?.groupID, "hi")
    XCTAssertEqual(item.selectedAudioRendition?.name, "Français")
    XCTAssertFalse(paths(server, under: "/alt2/hi-fr/").isEmpty, "the high group's French played")
    XCTAssertTrue(paths(server, under: "/hls-alt/audio-en/").isEmpty, "never English")
    XCTAssertEqual(item.statistics.framesDecoded, 250)
  }
}

/// An audio sink that estimates the tone of what it is given from zero crossings, by
/// item time (mono 16-bit at 48 kHz).
final class ToneAudioSink: AudioSink, @unchecked Sendable {
  let format = AudioOutputFormat(sampleRate: 48_000, channels: 1, sampleFormat: .int16)
  private let lock = NSLock()
  /// (buffer start, sample frames, sign changes) for every buffer written.
  private var buffers: [(start: MediaTime, frames: Int, crossings: Int)] = []

  func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    var crossings = 0
    buffer.samples.withUnsafeBytes { raw in
      let samples = raw.bindMemory(to: Int16.self)
      var previous: Int16 = 0
      for sample in samples.prefix(buffer.frameCount) where sample != 0 {
        if previous != 0 && (sample > 0) != (previous > 0) { crossings += 1 }
        previous = sample
      }
    }
    lock.lock()
    buffers.append((buffer.pts, buffer.frameCount, crossings))
    lock.unlock()
  }

  func finish() throws(PlayheadError) {}

  /// The item time of the first buffer written.
  var firstBufferStart: MediaTime? {
    lock.lock()
    defer { lock.unlock() }
    return buffers.first?.start
  }

  /// The tone in Hz of the buffers that start in `[start, end)`; 0 when none did.
  func frequency(from start: MediaTime, to end: MediaTime) -> Double {
    lock.lock()
    defer { lock.unlock() }
    let chosen = buffers.filter { $0.start >= start && $0.start < end }
    let frames = chosen.reduce(0) { $0 + $1.frames }
    guard frames > 0 else { return 0 }
    let crossings = chosen.reduce(0) { $0 + $1.crossings }
    return Double(crossings) / 2 / (Double(frames) / Double(format.sampleRate))
  }
}

/// A Boolean set on another thread.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = false

  var value: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  func set(_ value: Bool) {
    lock.lock()
    stored = value
    lock.unlock()
  }
}
