import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// DASH sources made by FFmpeg's `dash` muxer (scripts/make-dash-playback-fixtures.sh), played
/// through the public API: every addressing form plays every frame.
final class DASHPlaybackTests: XCTestCase {
  private func playToEnd(
    _ url: URL, configuration: PlayerConfiguration = .fast()
  ) -> (Player, EventRecorder, PlayerEvent?) {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    addTeardownBlock { player.close() }
    player.play()
    return (player, recorder, recorder.waitForEnd())
  }

  /// 10 s at 25 fps.
  private let frames = 250

  func testSegmentTimelinePlaysEveryFrameOverHTTP() throws {
    let server = try startFixtureServer()
    let (player, _, end) = playToEnd(server.url("/dash-vod/manifest.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
    XCTAssertTrue(
      server.requests.contains { $0.path == "/dash-vod/chunk-stream2-00006.m4s" },
      "the audio set's last segment was fetched")
  }

  func testNumberTemplatePlaysEveryFrame() throws {
    let (player, _, end) = playToEnd(try Fixtures.url("dash-number/manifest.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
  }

  func testSegmentListPlaysEveryFrame() throws {
    let (player, _, end) = playToEnd(try Fixtures.url("dash-list/manifest.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
  }

  func testByteRangeSegmentListPlaysWithRangedRequests() throws {
    let server = try startFixtureServer()
    let (player, _, end) = playToEnd(server.url("/dash-single/manifest.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
    let ranged = server.requests.filter { $0.path.hasSuffix(".mp4") && $0.range != nil }
    XCTAssertGreaterThanOrEqual(ranged.count, 10, "segments are byte ranges of one file")
  }

  func testSegmentBasePlaysFromTheSidxWithRangedRequests() throws {
    let server = try startFixtureServer()
    let (player, _, end) = playToEnd(server.url("/dash-single/segmentbase.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
    let ranged = server.requests.filter { $0.path.hasSuffix(".mp4") }
    XCTAssertTrue(ranged.allSatisfy { $0.range != nil }, "only ranges of the file: \(ranged)")
    // The index, the initialization section, then one request per subsegment (5 each).
    XCTAssertGreaterThanOrEqual(ranged.count, 12)
  }

  func testManifestUnderAnotherNameIsSniffed() throws {
    let server = try startFixtureServer()
    let (player, _, end) = playToEnd(server.url("/dash-vod/manifest.mpd?format=any"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
  }
}

/// Periods, languages, text and seeking of DASH sources through the public API.
final class DASHPresentationTests: XCTestCase {
  private func paths(_ server: HTTPTestServer, under prefix: String) -> [String] {
    server.requests.map(\.path).filter { $0.hasPrefix(prefix) && $0.hasSuffix(".m4s") }
  }

  func testTwoPeriodsPlayAcrossTheBoundary() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("dash-periods/manifest.mpd"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertEqual(item.duration.seconds, 20, accuracy: 0.05, "two Periods of 10 s")
    player.play()
    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(item.statistics.framesDecoded, 500, "every frame of both Periods")
    XCTAssertEqual(item.statistics.framesRendered + item.statistics.framesDropped, 500)
    XCTAssertGreaterThan(item.statistics.audioSamplesPlayed, 48_000 * 19)
  }

  func testDefaultAudioSetPlaysAndFrenchCanBeChosen() throws {
    let server = try startFixtureServer()
    let tones = ToneAudioSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/dash-lang/manifest.mpd"), configuration: .fast(audioSink: tones))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertEqual(item.audioRenditions.map(\.language), ["eng", "fra"])
    XCTAssertEqual(item.selectedAudioRendition?.language, "eng")
    let french = try XCTUnwrap(item.audioRenditions.first { $0.language == "fra" })
    let selected = Locked(false)
    player.addBoundaryTimeObserver(forTimes: [MediaTime(value: 5, timescale: 1)], queue: .global())
    {
      let chosen = item.selectAudioRendition(french)
      selected.withLock { $0 = chosen }
    }
    player.play()
    let event = try XCTUnwrap(recorder.waitFor(event: "audioRenditionChanged", count: 2))
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertTrue(selected.withLock { $0 })
    XCTAssertEqual(item.statistics.framesDecoded, 250)
    XCTAssertEqual(
      tones.frequency(from: .zero, to: MediaTime(value: 4, timescale: 1)), 440, accuracy: 20)
    XCTAssertEqual(
      tones.frequency(
        from: event.itemTime + MediaTime(value: 1, timescale: 2),
        to: MediaTime(value: 9, timescale: 1)),
      880, accuracy: 40)
    XCTAssertFalse(paths(server, under: "/dash-lang/chunk-stream2").isEmpty)
  }

  func testWebVTTSetIsASubtitleRendition() throws {
    let server = try startFixtureServer()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/dash-lang/manifest.mpd"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    let english = try XCTUnwrap(item.subtitleRenditions.first)
    XCTAssertEqual(english.language, "en")
    XCTAssertTrue(item.selectSubtitleRendition(english))
    recorder.waitFor(event: "subtitleRenditionChanged")
    let list = try XCTUnwrap(item.subtitleSegments)
    XCTAssertEqual(list.segments.map(\.url.lastPathComponent), ["subtitles.vtt"])
    XCTAssertEqual(list.segments.first?.timeRange.duration.seconds ?? 0, 10, accuracy: 0.01)
  }

  func testSCTE35EventStreamIsAServerSideAdPeriod() throws {
    let source = try String(
      contentsOf: try Fixtures.url("dash-vod/manifest.mpd"), encoding: .utf8)
    let folder = try Fixtures.url("dash-vod").absoluteString
    let events = """
      <BaseURL>\(folder)/</BaseURL>
      <Period id="0" start="PT0.0S">
      <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="1000">
        <Event id="7" presentationTime="4000" duration="2000"/>
      </EventStream>
      <EventStream schemeIdUri="urn:example:not-an-ad" timescale="1">
        <Event id="1" presentationTime="1" duration="1">hello</Event>
      </EventStream>
      """
    let mpd = source.replacingOccurrences(of: "<Period id=\"0\" start=\"PT0.0S\">", with: events)
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-events-\(UUID().uuidString).mpd")
    try Data(mpd.utf8).write(to: file)
    addTeardownBlock { try? FileManager.default.removeItem(at: file) }
    let (player, recorder) = EventRecorder.recordingPlayer(url: file, configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let periods = try XCTUnwrap(player.currentItem?.serverSideAdPeriods)
    XCTAssertEqual(periods.count, 1, "only the SCTE-35 stream: \(periods)")
    XCTAssertEqual(periods.first?.start.seconds ?? -1, 4, accuracy: 0.01)
    XCTAssertEqual(periods.first?.duration?.seconds ?? -1, 2, accuracy: 0.01)
  }

  func testStartingAtATimeFetchesNothingBeforeIt() throws {
    let server = try startFixtureServer()
    let player = Player(configuration: .fast())
    defer { player.close() }
    let recorder = PlayerEventRecorder(player)
    player.replaceCurrentItem(
      with: PlayerItem(asset: Asset(url: server.url("/dash-vod/manifest.mpd"))),
      startingAt: MediaTime(value: 7, timescale: 1))
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let numbers = paths(server, under: "/dash-vod/chunk-stream").map {
      Int($0.suffix(9).prefix(5)) ?? 0
    }
    XCTAssertFalse(numbers.isEmpty)
    XCTAssertTrue(numbers.allSatisfy { $0 >= 4 }, "fetched \(paths(server, under: "/dash-vod/"))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded ?? 0, 75, "the frames of 7–10 s")
  }

  func testSeekFetchesNothingBeforeTheTarget() async throws {
    let server = try startFixtureServer()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/dash-vod/manifest.mpd"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    // The 30 s buffer takes the whole 10 s: the MPD, an init and 5 segments of video, an
    // init and 6 segments of audio. Then only what the seek needs.
    XCTAssertTrue(server.waitForRequests(count: 14))
    server.clearRequests()
    let finished = await player.seek(to: MediaTime(value: 7, timescale: 1))
    XCTAssertTrue(finished)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    // Video segment number 4 holds 6–8 s, audio number 4 holds 5.97–8.02 s: nothing before.
    let numbers = paths(server, under: "/dash-vod/chunk-stream").map {
      Int($0.suffix(9).prefix(5)) ?? 0
    }
    XCTAssertFalse(numbers.isEmpty)
    XCTAssertTrue(numbers.allSatisfy { $0 >= 4 }, "fetched \(paths(server, under: "/dash-vod/"))")
  }
}
