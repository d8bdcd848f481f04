import Foundation
import Playhead
import PlayheadTestSupport
import XCTest

/// `playhead thumbnails` run as a subprocess: images and sprite sheets of the 10 s fixture,
/// the VTT round trip through `ThumbnailTrack`, and bad input.
final class ThumbnailsCommandTests: XCTestCase {
  private func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }

  /// Runs the command into a fresh folder; returns the folder and the parsed track.
  private func generate(_ extra: [String]) throws -> (URL, ThumbnailTrack, CLIResult) {
    let directory = try makeTemporaryDirectory().appendingPathComponent("out")
    let result = try CLIRunner.run(
      ["thumbnails", try Fixtures.url("sample-h264-aac.mp4").path, "--out", directory.path]
        + extra)
    assertStatus(result, 0)
    let vttURL = directory.appendingPathComponent("thumbnails.vtt")
    let track = try ThumbnailTrack(data: try Data(contentsOf: vttURL), url: vttURL)
    XCTAssertEqual(track.warnings, [])
    return (directory, track, result)
  }

  /// The fixture's frame at `time` as `playhead snapshot` writes it, decoded.
  private func snapshot(at time: String, width: Int, height: Int) throws -> RGBAImage {
    let output = try makeTemporaryDirectory().appendingPathComponent("snapshot.png")
    let result = try CLIRunner.run([
      "snapshot", try Fixtures.url("sample-h264-aac.mp4").path, "--at", time, "-o", output.path,
      "--width", "\(width)", "--height", "\(height)", "--gravity", "stretch",
    ])
    assertStatus(result, 0)
    return try ImageCodec.decode(try Data(contentsOf: output))
  }

  /// The picture of `reference` (a local file), decoded and cropped.
  private func picture(_ reference: ThumbnailReference) throws -> RGBAImage {
    let image = try ImageCodec.decode(try Data(contentsOf: reference.imageURL))
    guard let region = reference.region else { return image }
    return try image.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
  }

  func testSingleImages_everySecond_roundTripAndMatchTheSnapshot() throws {
    let (directory, track, result) = try generate(["--every", "1", "--width", "160"])
    XCTAssertTrue(
      result.stdout.hasPrefix("10 thumbnails (160x120) every 1.000s to 10.000s in 10 JPEG files"),
      result.stdout)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    XCTAssertEqual(
      names, (1...10).map { String(format: "thumb-%04d.jpg", $0) } + ["thumbnails.vtt"])
    XCTAssertEqual(track.thumbnails.count, 10)
    for (index, cue) in track.thumbnails.enumerated() {
      XCTAssertEqual(cue.start, seconds(Double(index)))
      XCTAssertEqual(cue.end, seconds(Double(index + 1)))
      XCTAssertNil(cue.reference.region)
      XCTAssertEqual(cue.reference.imageURL.lastPathComponent, names[index])
      XCTAssertEqual(track.thumbnail(at: cue.start), cue.reference)
      XCTAssertEqual(track.thumbnail(at: cue.start + seconds(0.5)), cue.reference)
    }
    XCTAssertNil(track.thumbnail(at: seconds(10)))
    let reference = try XCTUnwrap(track.thumbnail(at: seconds(5)))
    XCTAssertEqual(reference.imageURL.lastPathComponent, "thumb-0006.jpg")
    let thumbnail = try picture(reference)
    XCTAssertEqual([thumbnail.width, thumbnail.height], [160, 120])
    let same = try XCTUnwrap(
      thumbnail.meanAbsoluteDifference(to: try snapshot(at: "5", width: 160, height: 120)))
    let other = try XCTUnwrap(
      thumbnail.meanAbsoluteDifference(to: try snapshot(at: "7", width: 160, height: 120)))
    XCTAssertLessThan(same, 6, "the thumbnail at 5 s is the snapshot at 5 s, JPEG aside")
    XCTAssertGreaterThan(other, same * 2, "and tells another frame apart (\(same) vs \(other))")
  }

  func testSpriteSheets_roundTripAndMatchTheSnapshot() throws {
    let (directory, track, result) = try generate([
      "--every", "1", "--sprite", "4x2", "--width", "160",
    ])
    XCTAssertTrue(result.stdout.contains("in 2 sprite sheets of 4x2"), result.stdout)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    XCTAssertEqual(names, ["sprite-001.jpg", "sprite-002.jpg", "thumbnails.vtt"])
    let first = try ImageCodec.decode(
      try Data(contentsOf: directory.appendingPathComponent("sprite-001.jpg")))
    XCTAssertEqual([first.width, first.height], [640, 240])
    let last = try ImageCodec.decode(
      try Data(contentsOf: directory.appendingPathComponent("sprite-002.jpg")))
    XCTAssertEqual([last.width, last.height], [320, 120], "the last sheet holds two tiles")
    XCTAssertEqual(track.thumbnails.count, 10)
    for (index, cue) in track.thumbnails.enumerated() {
      let tile = index % 8
      XCTAssertEqual(cue.reference.imageURL.lastPathComponent, index < 8 ? names[0] : names[1])
      XCTAssertEqual(
        cue.reference.region,
        ThumbnailRegion(x: tile % 4 * 160, y: tile / 4 * 120, width: 160, height: 120))
      XCTAssertEqual(track.thumbnail(at: cue.start + seconds(0.999)), cue.reference)
    }
    let reference = try XCTUnwrap(track.thumbnail(at: seconds(5)))
    XCTAssertEqual(reference.description.hasSuffix("sprite-001.jpg#xywh=160,120,160,120"), true)
    // Through the SDK's loader, as a player would.
    let loaded = try waitForThumbnail(at: seconds(5), in: track)
    let tile = try picture(reference)
    XCTAssertEqual(loaded.image, tile)
    XCTAssertEqual([tile.width, tile.height], [160, 120])
    let difference = try XCTUnwrap(
      tile.meanAbsoluteDifference(to: try snapshot(at: "5", width: 160, height: 120)))
    XCTAssertLessThan(difference, 6)
  }

  func testPNGAtNaturalSize_isTheSnapshotPixelForPixel() throws {
    let (_, track, result) = try generate([
      "--every", "2.5", "--sprite", "2x2", "--width", "320", "--format", "png",
    ])
    XCTAssertTrue(result.stdout.hasPrefix("4 thumbnails (320x240) every 2.500s"), result.stdout)
    XCTAssertEqual(track.thumbnails.map(\.start), [0, 2.5, 5, 7.5].map(seconds))
    let tile = try picture(try XCTUnwrap(track.thumbnail(at: seconds(5))))
    XCTAssertEqual(
      tile, try snapshot(at: "5", width: 320, height: 240),
      "same frame, same conversion, lossless: identical pixels")
    // The next frame (5.04 s) differs, if only in its frame counter.
    let next = try XCTUnwrap(
      tile.meanAbsoluteDifference(to: try snapshot(at: "5.04", width: 320, height: 240)))
    XCTAssertGreaterThan(next, 0)
  }

  func testLongInterval_seeksToEachFrame_andEndsTheLastCueAtTheDuration() throws {
    let (_, track, result) = try generate(["--every", "4", "--format", "png", "--width", "320"])
    XCTAssertTrue(result.stdout.contains("(320x240)"), result.stdout)
    XCTAssertTrue(result.stdout.contains("with 2 seeks"), result.stdout)
    XCTAssertEqual(track.thumbnails.map(\.start), [0, 4, 8].map(seconds))
    XCTAssertEqual(track.thumbnails.last?.end, seconds(10))
    for time in [4, 8] {
      let tile = try picture(try XCTUnwrap(track.thumbnail(at: seconds(Double(time)))))
      XCTAssertEqual(tile, try snapshot(at: "\(time)", width: 320, height: 240), "\(time) s")
    }
  }

  func testWidth_keepsTheAspectRatio() throws {
    let (_, track, result) = try generate(["--every", "5", "--width", "81"])
    XCTAssertTrue(result.stdout.hasPrefix("2 thumbnails (81x61)"), result.stdout)
    let tile = try picture(try XCTUnwrap(track.thumbnail(at: seconds(7))))
    XCTAssertEqual([tile.width, tile.height], [81, 61])
  }

  func testOverHTTP() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let directory = try makeTemporaryDirectory()
    let result = try CLIRunner.run([
      "thumbnails", server.url("/sample-h264-aac.mp4").absoluteString, "--every", "5", "--out",
      directory.path, "--quiet",
    ])
    assertStatus(result, 0)
    XCTAssertEqual(result.stdout, "")
    let vtt = try String(
      contentsOf: directory.appendingPathComponent("thumbnails.vtt"), encoding: .utf8)
    XCTAssertEqual(
      vtt,
      "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nthumb-0001.jpg\n\n"
        + "00:00:05.000 --> 00:00:10.000\nthumb-0002.jpg\n\n")
  }

  func testBadInput_exitCodes() throws {
    let mp4 = try Fixtures.url("sample-h264-aac.mp4").path
    let out = try makeTemporaryDirectory().path
    let cases: [([String], Int32, String)] = [
      ([mp4, "--out", out], 2, "needs --every"),
      ([mp4, "--every", "1"], 2, "needs --out"),
      ([mp4, "--every", "0", "--out", out], 2, "at least 0.001"),
      ([mp4, "--every", "x", "--out", out], 2, "needs a time"),
      ([mp4, "--every", "1", "--out", out, "--sprite", "0x3"], 2, "COLSxROWS"),
      ([mp4, "--every", "1", "--out", out, "--sprite", "4"], 2, "COLSxROWS"),
      ([mp4, "--every", "1", "--out", out, "--format", "gif"], 2, "jpeg or png"),
      ([mp4, "--every", "1", "--out", out, "--width", "0"], 2, "1 to 4096"),
      ([mp4, "--every", "1", "--out", out, "--bogus"], 2, "unknown option"),
      ([mp4, "--every", "1", "--out", out, "--sprite", "100x100", "--width", "4096"], 2, "limit"),
      (["/no/such/file.mp4", "--every", "1", "--out", out], 3, "not found"),
      ([try Fixtures.url("sample-audio.mp3").path, "--every", "1", "--out", out], 4, "video"),
      (
        [try Fixtures.url("not-a-video.mp4").path, "--every", "1", "--out", out], 4,
        "Could not open"
      ),
      (
        [try Fixtures.url("truncated.mp4").path, "--every", "1", "--out", out], 4, "Could not open"
      ),
      ([try Fixtures.url("hls/master.m3u8").path, "--every", "1", "--out", out], 4, "HLS"),
    ]
    for (arguments, status, message) in cases {
      let result = try CLIRunner.run(["thumbnails"] + arguments)
      assertStatus(result, status)
      XCTAssertTrue(result.stderr.hasPrefix("playhead: "), "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    let file = try makeTemporaryDirectory().appendingPathComponent("file")
    try Data("x".utf8).write(to: file)
    let underFile = try CLIRunner.run([
      "thumbnails", mp4, "--every", "1", "--out", file.appendingPathComponent("dir").path,
    ])
    assertStatus(underFile, 3)
  }

  func testHelp() throws {
    let result = try CLIRunner.run(["thumbnails", "--help"])
    assertStatus(result, 0)
    XCTAssertTrue(result.stdout.hasPrefix("Usage: playhead thumbnails"), result.stdout)
    let tool = try CLIRunner.run(["--help"])
    XCTAssertTrue(tool.stdout.contains("thumbnails Write seek thumbnails"), tool.stdout)
  }

  /// Loads the thumbnail through a `ThumbnailLoader`, waiting on this thread.
  private func waitForThumbnail(at time: MediaTime, in track: ThumbnailTrack) throws -> Thumbnail {
    let box = LoadedThumbnail()
    let done = expectation(description: "thumbnail")
    Task.detached {
      do throws(PlayheadError) {
        box.result = .success(try await ThumbnailLoader().thumbnail(at: time, in: track))
      } catch {
        box.result = .failure(error)
      }
      done.fulfill()
    }
    wait(for: [done], timeout: 60)
    return try XCTUnwrap(try XCTUnwrap(box.result).get())
  }
}

/// A loader result handed from a task to the test.
private final class LoadedThumbnail: @unchecked Sendable {
  // Unchecked Sendable: `value` is guarded by `lock`.
  private let lock = NSLock()
  private var value: Result<Thumbnail?, PlayheadError>?

  var result: Result<Thumbnail?, PlayheadError>? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return value
    }
    set {
      lock.lock()
      value = newValue
      lock.unlock()
    }
  }
}
