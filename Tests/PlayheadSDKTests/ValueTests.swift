import Foundation
import PlayheadCore
import PlayheadSDK
import XCTest

final class ValueTests: XCTestCase {
  private func url(_ text: String) throws -> URL { try XCTUnwrap(URL(string: text)) }

  func testValuesCompareByValue() throws {
    let a = Video(url: try url("https://a/v.m3u8")).update { $0.properties = ["foo": "bar"] }
    let b = Video(url: try url("https://a/v.m3u8")).update { $0.properties = ["foo": "bar"] }
    XCTAssertEqual(a, b)
    XCTAssertEqual(Set([a, b]).count, 1)
    XCTAssertNotEqual(a, b.update { $0.properties = ["foo": "quux"] })
    XCTAssertEqual(
      CuePoint(type: "AD", position: .time(MediaTime(value: 10, timescale: 1))),
      CuePoint(type: "AD", position: .time(MediaTime(value: 10_000, timescale: 1_000))))
    XCTAssertEqual(
      Source(url: try url("https://a/v.mp4")),
      Source(url: try url("https://a/v.mp4"), deliveryMethod: .mp4))
    XCTAssertEqual(Playlist(videos: [a]), Playlist(videos: [b]))
  }

  func testUpdateLeavesOriginalUnchanged() throws {
    let video1 = Video(url: try url("https://a/v.m3u8")).update {
      $0.properties = ["foo": "bar"]
    }
    let video2 = video1.update { mutable in
      mutable.properties = ["foo": "quux"]
      mutable.thumbnailVTTURL = URL(string: "https://a/thumbs.vtt")
    }
    XCTAssertEqual(video1.properties["foo"], "bar")
    XCTAssertNil(video1.thumbnailVTTURL)
    XCTAssertEqual(video2.properties["foo"], "quux")
    XCTAssertEqual(video2.thumbnailVTTURL?.absoluteString, "https://a/thumbs.vtt")

    let source1 = Source(url: try url("https://a/v.mp4"))
    let source2 = source1.update { $0.deliveryMethod = .hls }
    XCTAssertEqual(source1.deliveryMethod, .mp4)
    XCTAssertEqual(source2.deliveryMethod, .hls)

    let cue1 = CuePoint(type: "AD", position: .before)
    let cue2 = cue1.update { $0.position = .after }
    XCTAssertEqual(cue1.position, .before)
    XCTAssertEqual(cue2.position, .after)

    let playlist1 = Playlist(videos: [video1])
    let playlist2 = playlist1.update {
      $0.videos.append(video2)
      $0.name = "Two"
    }
    XCTAssertEqual(playlist1.videos.count, 1)
    XCTAssertNil(playlist1.name)
    XCTAssertEqual(playlist2.videos, [video1, video2])
    XCTAssertEqual(playlist2.name, "Two")
  }

  func testTypedAccessorsReadAndWriteProperties() throws {
    let track = TextTrack(
      src: try url("https://a/de.vtt"), srclang: "de", label: "Deutsch", kind: "subtitles",
      isDefault: true)
    let video = Video(url: try url("https://a/v.m3u8")).update { m in
      m.id = "42"
      m.name = "Intro"
      m.referenceID = "ref-1"
      m.duration = MediaTime(seconds: 12.5, preferredTimescale: 1_000)
      m.poster = URL(string: "https://a/poster.jpg")
      m.thumbnail = URL(string: "https://a/thumb.jpg")
      m.projection = "equirectangular"
      m.customFields = ["bumper_id": "7"]
      m.textTracks = [track]
    }
    XCTAssertEqual(video.id, "42")
    XCTAssertEqual(video.name, "Intro")
    XCTAssertEqual(video.referenceID, "ref-1")
    XCTAssertEqual(video.properties["duration"], .number(12_500))
    XCTAssertEqual(video.duration, MediaTime(milliseconds: 12_500))
    XCTAssertEqual(video.poster?.absoluteString, "https://a/poster.jpg")
    XCTAssertEqual(video.thumbnail?.absoluteString, "https://a/thumb.jpg")
    XCTAssertEqual(video.projection, "equirectangular")
    XCTAssertEqual(video.customFields, ["bumper_id": "7"])
    XCTAssertEqual(video.textTracks, [track])
    XCTAssertNil(video.update { $0.name = nil }.properties["name"])
  }

  func testCuePointCollectionOrderAndQueries() {
    func at(_ seconds: Int64) -> CuePointPosition { .time(MediaTime(value: seconds, timescale: 1)) }
    let collection = CuePointCollection([
      CuePoint(type: "AD", position: .after, properties: ["name": "post"]),
      CuePoint(type: "CODE", position: at(20), properties: ["name": "c20"]),
      CuePoint(type: "AD", position: at(10), properties: ["name": "a10"]),
      CuePoint(type: "AD", position: .before, properties: ["name": "pre"]),
      CuePoint(type: "CODE", position: at(10), properties: ["name": "c10"]),
    ])
    XCTAssertEqual(collection.map(\.name), ["pre", "a10", "c10", "c20", "post"])
    XCTAssertEqual(collection.beforeCuePoints.map(\.name), ["pre"])
    XCTAssertEqual(collection.afterCuePoints.map(\.name), ["post"])
    let ten = MediaTime(value: 10, timescale: 1)
    let twenty = MediaTime(value: 20, timescale: 1)
    XCTAssertEqual(collection.cuePoints(after: .zero, through: ten).map(\.name), ["a10", "c10"])
    XCTAssertEqual(collection.cuePoints(after: ten, through: twenty).map(\.name), ["c20"])
    XCTAssertEqual(
      collection.cuePoints(after: ten, through: twenty, includingStart: true).map(\.name),
      ["a10", "c10", "c20"])
    XCTAssertEqual(collection.cuePoints(after: twenty, through: ten), [])
    XCTAssertEqual(collection.cuePoints(ofType: "CODE").map(\.name), ["c10", "c20"])
    let added = collection.update {
      $0.append(CuePoint(type: "AD", position: at(5), properties: ["name": "a5"]))
    }
    XCTAssertEqual(added.map(\.name), ["pre", "a5", "a10", "c10", "c20", "post"])
    XCTAssertEqual(collection.count, 5)
  }
}
