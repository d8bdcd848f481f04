import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

/// The demuxer opens only the containers on its list, and FFmpeg opens nothing by itself
/// (SPEC R1).
final class ContainmentTests: XCTestCase {
  /// A media playlist whose one segment is a local TS file that FFmpeg could play.
  private func playlistListingALocalSegment() throws -> (Data, URL) {
    let segment = try MediaFixtures.url("hls/144p/segment000.ts")
    let text =
      "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(segment.absoluteString)\n#EXT-X-ENDLIST\n"
    return (Data(text.utf8), segment)
  }

  private func openError(
    _ data: Data, name: String, formats: ContainerFormats = .media,
    file: StaticString = #filePath, line: UInt = #line
  ) -> PlayheadError? {
    do {
      _ = try Demuxer(
        bytes: data, url: URL(string: "http://example.com/\(name)")!, formats: formats)
      XCTFail("\(name) opened", file: file, line: line)
      return nil
    } catch {
      return error
    }
  }

  func testM3U8_isRefusedAsAnHLSPlaylist_whateverItsName() throws {
    let (data, _) = try playlistListingALocalSegment()
    for name in ["leak", "leak.ts", "leak.mp4", "leak.m3u8"] {
      let error = try XCTUnwrap(openError(data, name: name))
      XCTAssertEqual(error.code, .unsupportedFormat, name)
      XCTAssertTrue(error.message.contains("is an HLS playlist (M3U8)"), error.message)
      XCTAssertTrue(error.message.contains("does not let FFmpeg open"), error.message)
    }
  }

  func testNestedOpens_areRefusedEvenForAFormatThatIsAllowed() throws {
    // With FFmpeg's HLS demuxer allowed on purpose, the nested open of the local segment
    // is what refuses it: the io_open callback never opens anything.
    let (data, segment) = try playlistListingALocalSegment()
    let error = try XCTUnwrap(
      openError(data, name: "leak.m3u8", formats: ContainerFormats(["hls"])))
    XCTAssertEqual(error.code, .unsupportedFormat)
    XCTAssertTrue(
      error.message.contains("try to open '\(segment.absoluteString)'")
        || error.message.contains("try to open '\(segment.path)'"), error.message)
    XCTAssertTrue(error.message.contains("refuses every resource"), error.message)
  }

  func testImages_areRefusedForPlayback_butDecodeAsImages() throws {
    let png = try PNGCodec.encode(
      RGBAImage(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64)))
    let error = try XCTUnwrap(openError(png, name: "poster.png"))
    XCTAssertEqual(error.code, .unsupportedFormat)
    XCTAssertTrue(error.message.contains("an image"), error.message)
    XCTAssertEqual(try PNGCodec.decode(png).width, 4)
  }

  func testAFormatOffTheList_isNamed() throws {
    let data = try MediaFixtures.data("sample-h264-aac.mp4")
    let error = try XCTUnwrap(openError(data, name: "a.mp4", formats: ContainerFormats(["mpegts"])))
    XCTAssertEqual(error.code, .unsupportedFormat)
    XCTAssertTrue(error.message.contains("'mov,mp4,m4a,3gp,3g2,mj2'"), error.message)
    XCTAssertTrue(error.message.contains("allowed containers: mpegts"), error.message)
  }

  func testAHintOffTheList_isRefused() throws {
    let data = try MediaFixtures.data("sample-h264-aac.ts")
    let url = URL(string: "memory:a.ts")!
    XCTAssertThrowsError(try Demuxer(bytes: data, url: url, formatHint: "hls")) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .unsupportedFormat)
    }
    XCTAssertEqual(try Demuxer(bytes: data, url: url, formatHint: "mpegts").containerName, "mpegts")
  }

  func testEveryPlayheadContainer_isOnTheMediaList() throws {
    for (name, container) in [
      ("sample-h264-aac.mp4", "mov,mp4,m4a,3gp,3g2,mj2"), ("sample-h264-aac.ts", "mpegts"),
      ("sample-audio.mp3", "mp3"), ("sample-vp9-opus.webm", "matroska,webm"),
    ] {
      XCTAssertEqual(try MediaFixtures.demuxer(name).containerName, container)
      XCTAssertTrue(ContainerFormats.media.allows(container))
    }
    for refused in ["hls", "dash", "concat", "image2", "png_pipe", "sdp", "webm_dash_manifest"] {
      XCTAssertFalse(ContainerFormats.media.allows(refused), refused)
    }
  }
}
