import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `MediaLoader` over the local HTTP test server: what a preload fetches, that a later play
/// of the same source asks the network for none of it, and the task controls.
final class MediaLoaderTests: XCTestCase {
  private func playerConfiguration(
    cache: MediaCache?, preference: ABRStartPreference = .automatic
  ) -> PlayerConfiguration {
    var configuration = PlayerConfiguration.fast()
    configuration.cache = cache
    configuration.hls.startPreference = preference
    return configuration
  }

  private func loader(_ player: PlayerConfiguration, concurrent: Int = 2) -> MediaLoader {
    let loader = MediaLoader(
      configuration: .init(player: player, maximumConcurrentTasks: concurrent))
    addTeardownBlock { loader.cancelAll() }
    return loader
  }

  /// Plays `url` to its end and returns the item.
  @discardableResult
  private func playToEnd(
    _ url: URL, _ configuration: PlayerConfiguration, file: StaticString = #filePath,
    line: UInt = #line
  ) -> PlayerItem? {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    defer { player.close() }
    player.play()
    XCTAssertEqual(
      recorder.waitForEnd()?.name, "didPlayToEnd",
      "\(String(describing: recorder.events.last?.error))", file: file, line: line)
    return player.currentItem
  }

  private func paths(_ server: HTTPTestServer) -> [String] { server.requests.map(\.path) }

  func testHLS_preloadFetchesTheChosenVariantsSegmentsForTheDuration_andPlayDoesNotRefetchThem()
    throws
  {
    let server = try PreloadFixtures.server(self)
    let cache = try PreloadFixtures.cache(self)
    let player = playerConfiguration(cache: cache, preference: .bandwidth(600_000))
    let loader = loader(player)
    let recorder = PreloadRecorder()
    let url = server.url("/hls/master.m3u8")
    var config = PreloadConfig(durationMs: 3000)
    config.setDefaultBandwidth(600_000)
    let id = loader.addTask(PreloadTask(url: url, config: config), listener: recorder)
    let report = try XCTUnwrap(recorder.report(id))
    XCTAssertEqual(report.variant?.height, 360)
    XCTAssertEqual(report.cachedDuration, MediaTime(value: 4, timescale: 1))
    XCTAssertEqual(
      paths(server),
      [
        "/hls/master.m3u8", "/hls/360p/index.m3u8", "/hls/360p/segment000.ts",
        "/hls/360p/segment001.ts",
      ])
    XCTAssertGreaterThan(report.bytesFromNetwork, 240_000)
    XCTAssertEqual(loader.state(ofTask: id), .completed(report))

    server.clearRequests()
    let item = playToEnd(url, player)
    XCTAssertEqual(item?.statistics.framesDecoded, 300)
    let played = paths(server)
    XCTAssertEqual(played.first, "/hls/master.m3u8", "the master playlist is never cached")
    for preloaded in report.resources.dropFirst() {
      XCTAssertFalse(played.contains(preloaded.path), "\(preloaded.path) was fetched again")
    }
    XCTAssertTrue(played.contains("/hls/360p/segment002.ts"), "\(played)")
  }

  func testHLS_eachPreferenceChoosesTheVariantThePlayerStartsOn() throws {
    let server = try PreloadFixtures.server(self)
    let url = server.url("/hls/master.m3u8")
    let cases: [(ABRStartPreference, Int)] = [
      (.automatic, 527_152), (.bandwidth(200_000), 155_664),
      (.resolution(pixelCount: 1280 * 720), 1_030_240), (.quality("FD"), 527_152),
    ]
    for (preference, bandwidth) in cases {
      let cache = try PreloadFixtures.cache(self)
      let configuration = playerConfiguration(cache: cache, preference: preference)
      let recorder = PreloadRecorder()
      var config = PreloadConfig(durationMs: 1000)
      config.startPreference = preference
      let loader = loader(configuration)
      let id = loader.addTask(PreloadTask(url: url, config: config), listener: recorder)
      let report = try XCTUnwrap(recorder.report(id))
      XCTAssertEqual(report.variant?.bandwidth, bandwidth, "\(preference)")

      let (player, events) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
      guard
        case .variantChanged(_, let started, .initial)? = events.waitFor(event: "trackChanged")?
          .kind
      else { return XCTFail("no initial variant for \(preference)") }
      XCTAssertEqual(started.index, report.variant?.index, "\(preference)")
      player.close()
    }
  }

  func testHLS_alternateAudioAndInitSections_arePreloadedToo() throws {
    let server = try PreloadFixtures.server(self)
    let cache = try PreloadFixtures.cache(self)
    let player = playerConfiguration(cache: cache)
    let loader = loader(player)
    let recorder = PreloadRecorder()
    let altURL = server.url("/hls-alt/master.m3u8")
    let alt = loader.addTask(
      PreloadTask(url: altURL, config: PreloadConfig(durationMs: 2000)), listener: recorder)
    let altReport = try XCTUnwrap(recorder.report(alt))
    XCTAssertEqual(altReport.audioRendition?.language, "en")
    let audioSegments = altReport.resources.filter { $0.path.hasPrefix("/hls-alt/audio-en/") }
    XCTAssertGreaterThanOrEqual(audioSegments.count, 2, "\(altReport.resources)")

    let fmp4URL = server.url("/hls-fmp4/master.m3u8")
    let fmp4 = loader.addTask(
      PreloadTask(url: fmp4URL, config: PreloadConfig(durationMs: 1000)), listener: recorder)
    let fmp4Report = try XCTUnwrap(recorder.report(fmp4))
    XCTAssertTrue(fmp4Report.resources.contains { $0.lastPathComponent == "init.mp4" })

    for (url, report) in [(altURL, altReport), (fmp4URL, fmp4Report)] {
      server.clearRequests()
      playToEnd(url, player)
      let played = paths(server)
      for preloaded in report.resources.dropFirst() {
        XCTAssertFalse(played.contains(preloaded.path), "\(preloaded.path) was fetched again")
      }
    }
  }

  func testProgressive_preloadCachesTheHeaderAndTheStart_andPlayRequestsNoneOfIt() throws {
    let server = try PreloadFixtures.server(self)
    let cache = try PreloadFixtures.cache(self)
    let player = playerConfiguration(cache: cache)
    let loader = loader(player)
    let recorder = PreloadRecorder()
    let url = server.url("/sample-h264-aac.mp4")
    let id = loader.addTask(
      PreloadTask(url: url, config: PreloadConfig(durationMs: 2000)), listener: recorder)
    let report = try XCTUnwrap(recorder.report(id))
    XCTAssertGreaterThanOrEqual(report.cachedDuration, MediaTime(value: 2, timescale: 1))
    let entry = try XCTUnwrap(cache.entry(forKey: cache.key(for: url)))
    XCTAssertFalse(entry.isComplete, "2 of 10 seconds, not the whole file")
    XCTAssertGreaterThan(entry.cachedBytes, 0)
    let cached = entry.cachedRanges

    server.clearRequests()
    let item = playToEnd(url, player)
    XCTAssertEqual(item?.statistics.framesDecoded, 250)
    let requested = server.requests.compactMap(PreloadFixtures.byteRange)
    XCTAssertEqual(requested.count, server.requests.count, "\(server.requests)")
    XCTAssertFalse(requested.isEmpty, "the rest of the file was not preloaded")
    for range in requested {
      for span in cached {
        XCTAssertFalse(
          range.overlaps(span.offset..<(span.end ?? 0)), "\(range) was preloaded as \(span)")
      }
    }
  }

  /// Time to first frame on the player's (host) clock with the first segment served at
  /// 50 kB/s: a preloaded copy starts sooner than an identical copy that was not
  /// preloaded. The cold start cannot beat the throttle (over 2 s for the 110 kB segment);
  /// the warm one reads that segment from the cache.
  func testPreloaded_startsSoonerThanNotPreloaded_onThePlayersClock() throws {
    let files = try PreloadFixtures.copies(prefixes: ["a", "b"])
    let server = try PreloadFixtures.server(self, files: files)
    for prefix in ["a", "b"] {
      server.setFault(.slow(bytesPerSecond: 50_000), for: "/\(prefix)/360p/segment000.ts")
    }
    let cache = try PreloadFixtures.cache(self)
    var configuration = PlayerConfiguration()
    configuration.cache = cache
    let loader = MediaLoader(configuration: .init(player: configuration))
    let recorder = PreloadRecorder()
    let warmURL = server.url("/a/master.m3u8")
    let id = loader.addTask(
      PreloadTask(url: warmURL, config: PreloadConfig(durationMs: 1000)), listener: recorder)
    let report = try XCTUnwrap(recorder.report(id))
    XCTAssertEqual(report.variant?.height, 360)

    func timeToFirstFrame(_ url: URL) -> MediaTime {
      let (player, events) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
      defer { player.close() }
      player.play()
      events.waitFor(event: "firstFrame")
      return player.currentItem?.statistics.timeToFirstFrame ?? .invalid
    }
    let warm = timeToFirstFrame(warmURL)
    let cold = timeToFirstFrame(server.url("/b/master.m3u8"))
    XCTAssertTrue(warm.isNumeric && cold.isNumeric, "\(warm) \(cold)")
    XCTAssertLessThan(warm, cold, "preloaded \(warm.seconds) s, cold \(cold.seconds) s")
  }

  func testDASH_preloadFetchesTheStartOfTheChosenRepresentations_andPlayDoesNotRefetchThem()
    throws
  {
    let server = try PreloadFixtures.server(self)
    let cache = try PreloadFixtures.cache(self)
    let player = playerConfiguration(cache: cache, preference: .bandwidth(600_000))
    let loader = loader(player)
    let recorder = PreloadRecorder()
    let url = server.url("/dash-vod/manifest.mpd")
    var config = PreloadConfig(durationMs: 3000)
    config.setDefaultBandwidth(600_000)
    let id = loader.addTask(PreloadTask(url: url, config: config), listener: recorder)
    let report = try XCTUnwrap(recorder.report(id))
    XCTAssertEqual(report.variant?.height, 360)
    XCTAssertEqual(report.cachedDuration.seconds, 3.92, accuracy: 0.1)
    XCTAssertEqual(
      Set(paths(server)),
      [
        "/dash-vod/manifest.mpd", "/dash-vod/init-stream1.m4s", "/dash-vod/chunk-stream1-00001.m4s",
        "/dash-vod/chunk-stream1-00002.m4s", "/dash-vod/init-stream2.m4s",
        "/dash-vod/chunk-stream2-00001.m4s", "/dash-vod/chunk-stream2-00002.m4s",
      ])
    XCTAssertTrue(report.resources.allSatisfy { $0.fragment == nil }, "\(report.resources)")

    server.clearRequests()
    let item = playToEnd(url, player)
    XCTAssertEqual(item?.statistics.framesDecoded, 250)
    let played = paths(server)
    for preloaded in report.resources.dropFirst() {
      XCTAssertFalse(played.contains(preloaded.path), "\(preloaded.path) was fetched again")
    }
    XCTAssertTrue(played.contains("/dash-vod/chunk-stream1-00003.m4s"), "\(played)")
  }
}
