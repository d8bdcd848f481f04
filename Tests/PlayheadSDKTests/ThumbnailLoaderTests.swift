import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// `ThumbnailLoader` against a local HTTP server: sprite sheets fetched once, crops, LRU
/// eviction and errors.
final class ThumbnailLoaderTests: XCTestCase {
  static let tileWidth = 40
  static let tileHeight = 30
  static let colours: [RGBAColor] = [
    RGBAColor(r: 230, g: 30, b: 30), RGBAColor(r: 30, g: 200, b: 30),
    RGBAColor(r: 30, g: 30, b: 220), RGBAColor(r: 240, g: 240, b: 40),
    RGBAColor(r: 40, g: 230, b: 230), RGBAColor(r: 220, g: 40, b: 220),
  ]

  /// A 3×2 sprite sheet of solid tiles in `colours`, row by row.
  static func spriteSheet() -> RGBAImage {
    var sheet = RGBAImage(width: tileWidth * 3, height: tileHeight * 2, color: .black)
    for (index, colour) in colours.enumerated() {
      sheet.paste(
        RGBAImage(width: tileWidth, height: tileHeight, color: colour),
        x: index % 3 * tileWidth, y: index / 3 * tileHeight)
    }
    return sheet
  }

  /// One cue per second for each tile of `sheet` (a path relative to the VTT).
  static func spriteVTT(sheet: String) -> String {
    var text = "WEBVTT\n\n"
    for index in 0..<6 {
      let x = index % 3 * tileWidth
      let y = index / 3 * tileHeight
      text += "\(WebVTTTime.text(Double(index))) --> \(WebVTTTime.text(Double(index + 1)))\n"
      text += "\(sheet)#xywh=\(x),\(y),\(tileWidth),\(tileHeight)\n\n"
    }
    return text
  }

  private func startServer(_ files: [String: Data]) throws -> HTTPTestServer {
    let server = HTTPTestServer(files: files)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }

  /// The mean colour of `image`.
  private func assertColour(
    _ image: RGBAImage, _ colour: RGBAColor, file: StaticString = #filePath, line: UInt = #line
  ) {
    let expected = RGBAImage(width: image.width, height: image.height, color: colour)
    let difference = image.meanAbsoluteDifference(to: expected) ?? 255
    XCTAssertLessThan(difference, 8, "tile colour", file: file, line: line)
  }

  func testSpriteSheet_isFetchedOnce_forAllItsThumbnails() async throws {
    let sheet = try ImageCodec.encode(Self.spriteSheet(), as: .jpeg, quality: 1)
    let server = try startServer([
      "/v/thumbs.vtt": Data(Self.spriteVTT(sheet: "img/sheet.jpg").utf8),
      "/v/img/sheet.jpg": sheet,
    ])
    let loader = ThumbnailLoader()
    let track = try await loader.loadTrack(from: server.url("/v/thumbs.vtt"))
    XCTAssertEqual(track.thumbnails.count, 6)
    for index in [0, 3, 5, 1, 4, 2, 0] {
      let thumbnail = try await loader.thumbnail(at: seconds(Double(index) + 0.5), in: track)
      let found = try XCTUnwrap(thumbnail, "a thumbnail at \(index).5 s")
      XCTAssertEqual(found.image.width, Self.tileWidth)
      XCTAssertEqual(found.image.height, Self.tileHeight)
      XCTAssertEqual(found.start, seconds(Double(index)))
      assertColour(found.image, Self.colours[index])
    }
    XCTAssertEqual(server.requestCount(for: "/v/img/sheet.jpg"), 1)
    XCTAssertEqual(server.requestCount(for: "/v/thumbs.vtt"), 1)
    XCTAssertEqual(loader.imageFetchCount, 1)
    XCTAssertEqual(loader.cachedImageURLs, [server.url("/v/img/sheet.jpg")])
    let none = try await loader.thumbnail(at: seconds(6), in: track)
    XCTAssertNil(none, "after the last cue")
  }

  func testConcurrentRequests_forOneSheet_fetchItOnce() async throws {
    let sheet = try ImageCodec.encode(Self.spriteSheet(), as: .png)
    let server = try startServer([
      "/t.vtt": Data(Self.spriteVTT(sheet: "s.png").utf8), "/s.png": sheet,
    ])
    let loader = ThumbnailLoader()
    let track = try await loader.loadTrack(from: server.url("/t.vtt"))
    let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<6 {
        group.addTask {
          let time = MediaTime(seconds: Double(index) + 0.1, preferredTimescale: 1000)
          return try await loader.thumbnail(at: time, in: track)?.image.width ?? 0
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    XCTAssertEqual(sizes, Array(repeating: Self.tileWidth, count: 6))
    XCTAssertEqual(server.requestCount(for: "/s.png"), 1)
  }

  func testLRU_evictsTheLeastRecentlyUsedSheet() async throws {
    let a = try ImageCodec.encode(RGBAImage(width: 8, height: 8, color: .black), as: .png)
    let server = try startServer(["/a.png": a, "/b.png": a, "/c.png": a])
    let loader = ThumbnailLoader(cacheCapacity: 2)
    for path in ["/a.png", "/b.png", "/a.png", "/c.png", "/a.png", "/b.png"] {
      _ = try await loader.image(at: server.url(path))
    }
    // a, b cached; a hit; c evicts b; a hit; b fetched again (evicting c).
    XCTAssertEqual(server.requestCount(for: "/a.png"), 1)
    XCTAssertEqual(server.requestCount(for: "/b.png"), 2)
    XCTAssertEqual(server.requestCount(for: "/c.png"), 1)
    XCTAssertEqual(loader.cachedImageURLs, [server.url("/b.png"), server.url("/a.png")])
    loader.removeAllCachedImages()
    XCTAssertEqual(loader.cachedImageURLs, [])
  }

  func testNoCache_fetchesEveryTime() async throws {
    let a = try ImageCodec.encode(RGBAImage(width: 4, height: 4, color: .black), as: .png)
    let server = try startServer(["/a.png": a])
    let loader = ThumbnailLoader(cacheCapacity: 0)
    for _ in 0..<3 { _ = try await loader.image(at: server.url("/a.png")) }
    XCTAssertEqual(server.requestCount(for: "/a.png"), 3)
  }

  func testErrors_areTyped_andNotCached() async throws {
    let sheet = try ImageCodec.encode(Self.spriteSheet(), as: .jpeg)
    let server = try startServer([
      "/text.jpg": Data("not an image".utf8),
      "/cut.jpg": Data(sheet.prefix(sheet.count / 2)),
      "/sheet.jpg": sheet,
    ])
    let loader = ThumbnailLoader()
    await assertThrows(.httpStatus) { _ = try await loader.image(at: server.url("/missing.jpg")) }
    await assertThrows(.unsupportedFormat) {
      _ = try await loader.image(at: server.url("/text.jpg"))
    }
    await assertThrows(.decodeFailed) { _ = try await loader.image(at: server.url("/cut.jpg")) }
    await assertThrows(.httpStatus) {
      _ = try await loader.loadTrack(from: server.url("/nope.vtt"))
    }
    await assertThrows(.unsupportedFormat) {
      _ = try await loader.loadTrack(from: server.url("/text.jpg"))
    }
    let outside = ThumbnailReference(
      imageURL: server.url("/sheet.jpg"),
      region: ThumbnailRegion(x: 100, y: 0, width: 40, height: 30))
    await assertThrows(.invalidArgument) { _ = try await loader.image(for: outside) }
    _ = try await loader.image(at: server.url("/sheet.jpg"))
    XCTAssertEqual(
      server.requestCount(for: "/sheet.jpg"), 1, "the sheet was cached after the crop error")
    await assertThrows(.httpStatus) { _ = try await loader.image(at: server.url("/missing.jpg")) }
    XCTAssertEqual(server.requestCount(for: "/missing.jpg"), 2, "failures are not cached")
  }

  func testLocalFiles_andPercentRegions() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "thumbs-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    try ImageCodec.encode(Self.spriteSheet(), as: .png).write(
      to: directory.appendingPathComponent("s.png"))
    let vtt = "WEBVTT\n\n00:00.000 --> 00:10.000\ns.png#xywh=percent:0,50,100,50\n"
    let vttURL = directory.appendingPathComponent("t.vtt")
    try Data(vtt.utf8).write(to: vttURL)
    let loader = ThumbnailLoader()
    let track = try await loader.loadTrack(from: vttURL)
    let thumbnail = try await loader.thumbnail(at: seconds(3), in: track)
    let image = try XCTUnwrap(thumbnail?.image)
    XCTAssertEqual([image.width, image.height], [Self.tileWidth * 3, Self.tileHeight])
    XCTAssertEqual(
      try image.cropped(x: 0, y: 0, width: 40, height: 30),
      RGBAImage(width: 40, height: 30, color: Self.colours[3]))
    await assertThrows(.fileNotFound) {
      _ = try await loader.loadTrack(from: directory.appendingPathComponent("missing.vtt"))
    }
  }

  func testOversizedFiles_areAbandoned() async throws {
    let big = Data(count: ThumbnailLoader.maximumImageBytes + 1)
    let server = try startServer(["/big.jpg": big, "/big.vtt": big])
    let loader = ThumbnailLoader()
    await assertThrows(.unsupportedFormat) {
      _ = try await loader.image(at: server.url("/big.jpg"))
    }
    await assertThrows(.unsupportedFormat) {
      _ = try await loader.loadTrack(from: server.url("/big.vtt"))
    }
  }

  func testCancelledTask_throwsCancelled() async throws {
    let server = try startServer([:])
    server.setFault(.hang, for: "/slow.png")
    let loader = ThumbnailLoader()
    let blocker = Task { try await loader.image(at: server.url("/slow.png")) }
    XCTAssertTrue(server.waitForRequests(count: 1))
    let waiting = Task { try await loader.image(at: server.url("/other.png")) }
    waiting.cancel()
    loader.cancelAll()
    for task in [blocker, waiting] {
      do {
        _ = try await task.value
        XCTFail("a load went through after cancelAll")
      } catch {
        XCTAssertEqual((error as? PlayheadError)?.code, .cancelled, "\(error)")
      }
    }
  }
}

/// Asserts that `body` throws a `PlayheadError` with `code`.
func assertThrows(
  _ code: PlayheadError.Code, file: StaticString = #filePath, line: UInt = #line,
  _ body: () async throws -> Void
) async {
  do {
    try await body()
    XCTFail("expected .\(code), nothing was thrown", file: file, line: line)
  } catch let error as PlayheadError {
    XCTAssertEqual(error.code, code, error.message, file: file, line: line)
  } catch {
    XCTFail("expected PlayheadError .\(code), got \(error)", file: file, line: line)
  }
}
