import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// `ThumbnailGenerator` in process: containers, sprite layout, options and sink errors.
final class ThumbnailGeneratorTests: XCTestCase {
  private func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }

  /// Runs the generator on a fixture, keeping the files in memory.
  private func generate(_ fixture: String, _ options: ThumbnailGeneratorOptions) throws
    -> (GeneratedThumbnails, [String: GeneratedImageFile])
  {
    var files: [String: GeneratedImageFile] = [:]
    let result = try ThumbnailGenerator.generate(
      from: try Fixtures.url(fixture), options: options
    ) { file throws(PlayheadError) in
      files[file.name] = file
    }
    return (result, files)
  }

  func testContainers_giveOneThumbnailPerInterval() throws {
    let cases: [(String, Int, Double)] = [
      ("sample-h264-aac.mp4", 5, 10), ("sample-h264-aac.ts", 6, 10.021),
      ("sample-vp9-opus.webm", 3, 5.008), ("alpha-left.mp4", 1, 2),
    ]
    for (fixture, count, end) in cases {
      let (result, files) = try generate(fixture, ThumbnailGeneratorOptions(intervalSeconds: 2))
      XCTAssertEqual(result.thumbnailCount, count, fixture)
      XCTAssertEqual(result.end.seconds, end, accuracy: 0.001, fixture)
      XCTAssertEqual(files.count, count, fixture)
      XCTAssertEqual(result.thumbnailWidth, 160, fixture)
      for name in result.imageNames {
        let file = try XCTUnwrap(files[name])
        let image = try ImageCodec.decode(file.data)
        XCTAssertEqual([image.width, image.height], [file.width, file.height], name)
      }
    }
  }

  func testSprites_documentRoundTripsThroughTheTrack() throws {
    let options = ThumbnailGeneratorOptions(
      intervalSeconds: 0.75, width: 32, sprite: .init(columns: 3, rows: 2), format: .png)
    let (result, files) = try generate("sample-h264-aac.mp4", options)
    XCTAssertEqual(result.thumbnailCount, 14)
    XCTAssertEqual(result.imageNames, ["sprite-001.png", "sprite-002.png", "sprite-003.png"])
    XCTAssertEqual([files["sprite-003.png"]?.width, files["sprite-003.png"]?.height], [64, 24])
    let base = URL(string: "https://cdn.example.com/v/thumbnails.vtt")!
    let track = try ThumbnailTrack(data: Data(result.vttText.utf8), url: base)
    XCTAssertEqual(track.thumbnails.count, 14)
    XCTAssertEqual(track.thumbnails.last?.end, seconds(10))
    XCTAssertEqual(
      track.thumbnail(at: seconds(7.6))?.description,
      "https://cdn.example.com/v/sprite-002.png#xywh=32,24,32,24",
      "cue 10: sheet 2, row 2, column 2")
    XCTAssertEqual(track.cue(at: seconds(7.6))?.start, seconds(7.5))
  }

  func testBadOptions_throwInvalidArgument() {
    let url = URL(fileURLWithPath: "/unused.mp4")
    let bad = [
      ThumbnailGeneratorOptions(intervalSeconds: 0),
      ThumbnailGeneratorOptions(intervalSeconds: .nan),
      ThumbnailGeneratorOptions(intervalSeconds: 1, width: 0),
      ThumbnailGeneratorOptions(intervalSeconds: 1, sprite: .init(columns: 0, rows: 1)),
      ThumbnailGeneratorOptions(intervalSeconds: 1, maximumThumbnails: 0),
    ]
    for options in bad {
      XCTAssertThrowsError(
        try ThumbnailGenerator.generate(from: url, options: options) { _ throws(PlayheadError) in }
      ) { error in
        XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument, "\(options)")
      }
    }
    XCTAssertNil(ThumbnailGeneratorOptions.SpriteGrid("5"))
    XCTAssertNil(ThumbnailGeneratorOptions.SpriteGrid("0x1"))
    XCTAssertNil(ThumbnailGeneratorOptions.SpriteGrid("101x1"))
    XCTAssertNil(ThumbnailGeneratorOptions.SpriteGrid("2x2x2"))
    XCTAssertEqual(ThumbnailGeneratorOptions.SpriteGrid("10X4"), .init(columns: 10, rows: 4))
  }

  func testTooManyThumbnails_throwsBeforeDecoding() throws {
    let options = ThumbnailGeneratorOptions(intervalSeconds: 0.01, maximumThumbnails: 100)
    XCTAssertThrowsError(try generate("sample-h264-aac.mp4", options)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
      XCTAssertTrue("\(error)".contains("1000 thumbnails"), "\(error)")
    }
  }

  func testSinkError_stopsTheRun() throws {
    var calls = 0
    XCTAssertThrowsError(
      try ThumbnailGenerator.generate(
        from: try Fixtures.url("sample-h264-aac.mp4"),
        options: ThumbnailGeneratorOptions(intervalSeconds: 1)
      ) { _ throws(PlayheadError) in
        calls += 1
        if calls == 3 { throw PlayheadError(.ioError, "disk full") }
      }
    ) { error in
      XCTAssertEqual((error as? PlayheadError)?.message, "disk full")
    }
    XCTAssertEqual(calls, 3)
  }

  func testNoVideo_throwsNoPlayableStreams() throws {
    XCTAssertThrowsError(
      try generate("sample-audio.mp3", ThumbnailGeneratorOptions(intervalSeconds: 1))
    ) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .noPlayableStreams)
    }
  }
}
