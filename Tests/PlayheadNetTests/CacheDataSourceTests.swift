import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class CacheDataSourceTests: XCTestCase {
  private let movie = generatedBytes(count: 600_000, seed: 0xCAFE)

  func testLoad_secondLoadOfTheSameResource_makesNoRequest() throws {
    let server = try startServer(["/movie.bin": movie])
    let cache = try makeCache()
    let url = server.url("/movie.bin")
    let first = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    XCTAssertEqual(
      try DataLoader(source: first).load(DataRequest(url: url, purpose: .segment)).data, movie)
    XCTAssertEqual(server.requestCount(for: "/movie.bin"), 1)
    XCTAssertNil(server.requests.first?.range, "an uncached resource is asked for as given")

    server.clearRequests()
    let second = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    let response = try DataLoader(source: second).load(DataRequest(url: url, purpose: .segment))
    XCTAssertEqual(response.data, movie)
    XCTAssertEqual(response.duration, .zero, "a cache hit is no bandwidth sample")
    XCTAssertEqual(response.totalLength, Int64(movie.count))
    XCTAssertEqual(server.requests.count, 0)
    XCTAssertEqual(second.bytesFromCache, Int64(movie.count))
    XCTAssertEqual(second.bytesFromUpstream, 0)
    XCTAssertEqual(cache.entry(forKey: cache.key(for: url))?.isComplete, true)
  }

  func testLoad_rangeOverAPartlyCachedResource_fetchesOnlyTheHoles() throws {
    let server = try startServer(["/movie.bin": movie])
    let cache = try makeCache()
    let url = server.url("/movie.bin")
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    _ = try DataLoader(source: source).load(
      DataRequest(url: url, range: ByteRange(offset: 100_000, length: 50_000)))
    _ = try DataLoader(source: source).load(
      DataRequest(url: url, range: ByteRange(offset: 300_000, length: 100_000)))
    server.clearRequests()

    let recorder = ProgressRecorder()
    let response = try DataLoader(source: source).load(
      DataRequest(url: url, range: ByteRange(offset: 50_000, length: 400_000)),
      progress: recorder.callback)
    XCTAssertEqual(response.data, movie.subdata(in: 50_000..<450_000))
    XCTAssertEqual(
      requestedRanges(server, path: "/movie.bin"),
      [50_000..<100_000, 150_000..<300_000, 400_000..<450_000],
      "only the missing ranges, in order")
    XCTAssertEqual(recorder.reports.last?.bytesLoaded, 400_000)
    XCTAssertEqual(
      cache.entry(forKey: cache.key(for: url))?.cachedRanges.map(\.offset),
      [50_000, 100_000, 150_000, 300_000, 400_000])

    server.clearRequests()
    let whole = try DataLoader(source: source).load(DataRequest(url: url))
    XCTAssertEqual(whole.data, movie)
    XCTAssertEqual(
      requestedRanges(server, path: "/movie.bin"), [0..<50_000, 450_000..<600_000])
  }

  func testLoad_signedURLsWithDifferentTokens_shareOneEntryWithTheDefaultKey() throws {
    let server = try startServer(["/seg.ts": movie])
    let cache = try makeCache()
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    let signed = URL(string: server.url("/seg.ts").absoluteString + "?token=first&exp=1")!
    let resigned = URL(string: server.url("/seg.ts").absoluteString + "?token=second&exp=2")!
    XCTAssertEqual(cache.key(for: signed), cache.key(for: resigned))
    XCTAssertEqual(
      try DataLoader(source: source).load(DataRequest(url: signed, purpose: .segment)).data, movie)
    XCTAssertEqual(
      try DataLoader(source: source).load(DataRequest(url: resigned, purpose: .segment)).data, movie
    )
    XCTAssertEqual(server.requestCount(for: "/seg.ts"), 1)
    XCTAssertEqual(server.requests.first?.queryItems["token"], "first")
    XCTAssertEqual(cache.entries.count, 1)
    XCTAssertEqual(cache.entries.first?.key, server.url("/seg.ts").absoluteString)
  }

  func testLoad_customKeyCallback_decidesWhichURLsShareAnEntry() throws {
    let server = try startServer(["/a/seg.ts": movie, "/b/seg.ts": movie])
    // The application's key: the file name and the `id` query item; the CDN path and
    // the token do not matter.
    let configuration = MediaCache.Configuration(cacheKey: { url in
      let id =
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
        .first { $0.name == "id" }?.value ?? ""
      return "video-\(id)/\(url.lastPathComponent)"
    })
    let cache = try makeCache(configuration)
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    func url(_ path: String, _ query: String) -> URL {
      URL(string: server.url(path).absoluteString + "?" + query)!
    }
    _ = try DataLoader(source: source).load(
      DataRequest(url: url("/a/seg.ts", "id=7&token=x"), purpose: .segment))
    _ = try DataLoader(source: source).load(
      DataRequest(url: url("/b/seg.ts", "id=7&token=y"), purpose: .segment))
    _ = try DataLoader(source: source).load(
      DataRequest(url: url("/a/seg.ts", "id=8&token=z"), purpose: .segment))
    XCTAssertEqual(server.requestCount(for: "/a/seg.ts"), 2)
    XCTAssertEqual(server.requestCount(for: "/b/seg.ts"), 0, "same key as /a/seg.ts?id=7")
    XCTAssertEqual(Set(cache.entries.map(\.key)), ["video-7/seg.ts", "video-8/seg.ts"])
  }

  func testLoad_playlists_areCachedOnlyWhenVOD() throws {
    let vod = Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n".utf8)
    let live = Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n".utf8)
    let server = try startServer([
      "/vod.m3u8": vod, "/live.m3u8": live, "/vod-playlist": vod, "/live-playlist": live,
    ])
    let cache = try makeCache()
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    for _ in 0..<2 {
      for path in ["/vod.m3u8", "/live.m3u8"] {
        _ = try DataLoader(source: source).load(
          DataRequest(url: server.url(path), purpose: .playlist))
      }
      // Recognised by extension or by content whatever the purpose.
      _ = try DataLoader(source: source).load(
        DataRequest(url: server.url("/live.m3u8"), purpose: .other))
      _ = try DataLoader(source: source).load(
        DataRequest(url: server.url("/vod-playlist"), purpose: .other))
      _ = try DataLoader(source: source).load(
        DataRequest(url: server.url("/live-playlist"), purpose: .other))
    }
    XCTAssertEqual(server.requestCount(for: "/vod.m3u8"), 1)
    XCTAssertEqual(server.requestCount(for: "/live.m3u8"), 4)
    XCTAssertEqual(server.requestCount(for: "/vod-playlist"), 1)
    XCTAssertEqual(server.requestCount(for: "/live-playlist"), 2)
    XCTAssertEqual(
      try DataLoader(source: source).load(
        DataRequest(url: server.url("/vod.m3u8"), purpose: .playlist)
      ).data, vod)
  }

  func testLoad_whileTheGlobalSwitchIsOff_passesThrough() throws {
    let server = try startServer(["/movie.bin": movie])
    let cache = try makeCache()
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    MediaCache.isEnabled = false
    defer { MediaCache.isEnabled = true }
    _ = try DataLoader(source: source).load(
      DataRequest(url: server.url("/movie.bin"), purpose: .segment))
    _ = try DataLoader(source: source).load(
      DataRequest(url: server.url("/movie.bin"), purpose: .segment))
    XCTAssertEqual(server.requestCount(for: "/movie.bin"), 2)
    XCTAssertEqual(cache.totalBytes, 0)
  }

  func testLoad_apiRequestsAndOtherSchemes_passThrough() throws {
    let server = try startServer(["/api.json": Data("{}".utf8)])
    let cache = try makeCache()
    let directory = try makeTemporaryDirectory(for: self)
    let file = directory.appendingPathComponent("local.bin")
    try movie.write(to: file)
    let http = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    for _ in 0..<2 {
      _ = try DataLoader(source: http).load(
        DataRequest(url: server.url("/api.json"), deliversErrorResponses: true))
    }
    XCTAssertEqual(server.requestCount(for: "/api.json"), 2)
    let local = CacheDataSource(upstream: FileDataSource(), cache: cache)
    XCTAssertEqual(
      try DataLoader(source: local).load(DataRequest(url: file, purpose: .media)).data, movie)
    XCTAssertEqual(cache.totalBytes, 0)
  }

  func testLoad_aResourceWhoseLengthChanged_replacesTheOldSpans() throws {
    let server = try startServer(["/movie.bin": movie])
    let cache = try makeCache()
    let url = server.url("/movie.bin")
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    _ = try DataLoader(source: source).load(
      DataRequest(url: url, range: ByteRange(offset: 0, length: 1_000)))
    let replacement = generatedBytes(count: 300_000, seed: 0xD00D)
    server.setFile(replacement, at: "/movie.bin")
    let tail = try DataLoader(source: source).load(
      DataRequest(url: url, range: ByteRange(offset: 200_000, length: 1_000)))
    XCTAssertEqual(tail.data, replacement.subdata(in: 200_000..<201_000))
    let entry = cache.entry(forKey: cache.key(for: url))
    XCTAssertEqual(entry?.totalLength, 300_000)
    XCTAssertEqual(entry?.cachedRanges, [ByteRange(offset: 200_000, length: 1_000)])
  }
}
