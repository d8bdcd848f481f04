import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Players reading through the disk cache (`PlayerConfiguration.cache`) over the local
/// HTTP test server, whose request log shows what went to the network.
final class CachePlaybackTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func makeCache(_ configuration: MediaCache.Configuration = .init()) throws -> MediaCache {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-cache-\(UUID().uuidString)")
    let cache = try MediaCache.open(directory: folder, configuration: configuration)
    addTeardownBlock {
      cache.close()
      try? FileManager.default.removeItem(at: folder)
    }
    return cache
  }

  private func configuration(cache: MediaCache?, variant: Int? = 1) -> PlayerConfiguration {
    var configuration = PlayerConfiguration.fast()
    configuration.cache = cache
    configuration.hls.manualVariantIndex = variant
    return configuration
  }

  /// Plays `url` to its end; returns the frames decoded.
  @discardableResult
  private func playToEnd(
    _ url: URL, _ configuration: PlayerConfiguration, file: StaticString = #filePath,
    line: UInt = #line
  ) -> Int {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    defer { player.close() }
    player.play()
    XCTAssertEqual(
      recorder.waitForEnd()?.name, "didPlayToEnd",
      "\(String(describing: recorder.events.last?.error))", file: file, line: line)
    return player.currentItem?.statistics.framesDecoded ?? -1
  }

  /// The cached bytes of every entry equal the fixture file its key names.
  private func verifyEntries(of cache: MediaCache, server: HTTPTestServer) throws {
    let fixtures = try Fixtures.directory()
    XCTAssertFalse(cache.entries.isEmpty)
    for entry in cache.entries {
      let path = try XCTUnwrap(URL(string: entry.key)?.path)
      let source = try Data(contentsOf: fixtures.appendingPathComponent(path))
      XCTAssertEqual(entry.totalLength, Int64(source.count), path)
      for range in entry.cachedRanges {
        let end = Int(range.end ?? 0)
        XCTAssertEqual(
          cache.cachedData(forKey: entry.key, range: range),
          source.subdata(in: Int(range.offset)..<end), "\(path) \(range)")
      }
    }
  }

  func testHLS_secondPlay_asksTheNetworkOnlyForTheMasterPlaylist() throws {
    let server = try startServer()
    let cache = try makeCache()
    let url = server.url("/hls/master.m3u8")
    XCTAssertEqual(playToEnd(url, configuration(cache: cache)), 300)
    XCTAssertTrue(server.requests.contains { $0.path == "/hls/360p/segment005.ts" })

    server.clearRequests()
    XCTAssertEqual(playToEnd(url, configuration(cache: cache)), 300)
    XCTAssertEqual(
      server.requests.map(\.path), ["/hls/master.m3u8"],
      "the master playlist has no EXT-X-ENDLIST, so it is always fetched; the rest is cached")
    try verifyEntries(of: cache, server: server)
  }

  func testHLS_withoutTheCacheOrWithTheGlobalSwitchOff_usesTheNetwork() throws {
    let server = try startServer()
    let cache = try makeCache()
    let url = server.url("/hls/360p/index.m3u8")
    playToEnd(url, configuration(cache: nil, variant: nil))
    XCTAssertEqual(cache.totalBytes, 0)
    MediaCache.isEnabled = false
    defer { MediaCache.isEnabled = true }
    playToEnd(url, configuration(cache: cache, variant: nil))
    XCTAssertEqual(cache.totalBytes, 0, "both switches must be on")
    XCTAssertEqual(server.requestCount(for: "/hls/360p/segment000.ts"), 2)
  }

  func testProgressive_secondPlay_makesNoRequest() throws {
    let server = try startServer()
    let cache = try makeCache(.init(progressiveChunkBytes: 16 * 1024))
    let url = server.url("/sample-h264-aac.mp4")
    XCTAssertEqual(playToEnd(url, configuration(cache: cache)), 250)
    XCTAssertFalse(server.requests.isEmpty)
    XCTAssertEqual(cache.entry(forKey: cache.key(for: url))?.isComplete, true)

    server.clearRequests()
    XCTAssertEqual(playToEnd(url, configuration(cache: cache)), 250)
    XCTAssertEqual(server.requests.count, 0, "\(server.requests.map(\.range))")
    try verifyEntries(of: cache, server: server)
  }

  func testProgressive_seekIntoAHalfCachedFile_fetchesOnlyTheMissingRanges() async throws {
    let server = try startServer()
    let cache = try makeCache(.init(progressiveChunkBytes: 16 * 1024))
    let url = server.url("/sample-h264-aac.mp4")
    // The first play stops after 3 of 10 seconds: the start of the file is cached.
    let item = PlayerItem(url: url)
    item.forwardPlaybackEndTime = MediaTime(value: 3, timescale: 1)
    let first = Player(playerItem: item, configuration: configuration(cache: cache))
    let firstRecorder = EventRecorder(first)
    first.play()
    XCTAssertEqual(firstRecorder.waitForEnd()?.name, "didPlayToEnd")
    first.close()
    let cached = cache.entry(forKey: cache.key(for: url))?.cachedRanges ?? []
    XCTAssertFalse(cached.isEmpty)
    XCTAssertEqual(cache.entry(forKey: cache.key(for: url))?.isComplete, false)

    server.clearRequests()
    let second = Player(url: url, configuration: configuration(cache: cache))
    defer { second.close() }
    let recorder = EventRecorder(second)
    recorder.waitFor(event: "readyToPlay")
    let finished = await second.seek(
      to: MediaTime(value: 7, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
    XCTAssertTrue(finished)
    second.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let requested = server.requests.filter { $0.path == "/sample-h264-aac.mp4" }.compactMap {
      request -> Range<Int64>? in
      guard let header = request.range, header.hasPrefix("bytes=") else { return nil }
      let bounds = header.dropFirst(6).split(separator: "-")
      guard bounds.count == 2, let low = Int64(bounds[0]), let high = Int64(bounds[1]) else {
        return nil
      }
      return low..<(high + 1)
    }
    XCTAssertEqual(
      requested.count, server.requests.count, "every request is a bounded range: \(server.requests)"
    )
    XCTAssertFalse(requested.isEmpty, "the second half was not cached")
    for range in requested {
      for span in cached {
        XCTAssertFalse(
          range.overlaps(span.offset..<(span.end ?? 0)), "\(range) was cached as \(span)")
      }
    }
  }

  func testTwoPlayersSharingOneCache_atOnce_leaveAConsistentCache() throws {
    let server = try startServer()
    let cache = try makeCache()
    let url = server.url("/hls/master.m3u8")
    let players = (0..<2).map { _ in Player(url: url, configuration: configuration(cache: cache)) }
    defer { players.forEach { $0.close() } }
    let recorders = players.map { EventRecorder($0) }
    players.forEach { $0.play() }
    for recorder in recorders {
      XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    }
    for player in players {
      XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 300)
    }
    try verifyEntries(of: cache, server: server)
    let segments = cache.entries.filter { $0.key.hasSuffix(".ts") }
    XCTAssertEqual(segments.count, 6)
    XCTAssertTrue(segments.allSatisfy(\.isComplete))

    // And a third play after them needs the network for the master playlist only.
    server.clearRequests()
    playToEnd(url, configuration(cache: cache))
    XCTAssertEqual(server.requests.map(\.path), ["/hls/master.m3u8"])
  }
}
