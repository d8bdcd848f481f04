import Foundation
import PlayheadCore
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Every field of the Playback API's video fields reference, mapped to a typed accessor or
/// kept in `properties`, and playlists with their own fields.
final class PlaybackServiceMappingTests: XCTestCase {
  private func fetchFullVideo() throws -> PlaybackServiceVideoResult {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("6000000000001", json: CatalogResponses.fullVideo)
    let service = api.service()
    return try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "6000000000001"))
    }.value()
  }

  private func date(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }

  func testThePrimaryFieldsMapToTypedAccessors() throws {
    let video = try fetchFullVideo().video
    XCTAssertEqual(video.id, "6000000000001")
    XCTAssertEqual(video.accountID, "1234567890")
    XCTAssertEqual(video.name, "Chickadee")
    XCTAssertEqual(video.referenceID, "bird-chickadee")
    XCTAssertEqual(video.shortDescription, "A small friendly bird")
    XCTAssertEqual(video.longDescription, "A small friendly bird, filmed in winter.")
    XCTAssertEqual(video.duration, MediaTime(milliseconds: 10_010))
    XCTAssertEqual(video.economics, .free)
    XCTAssertEqual(video.labels, ["/nature", "/birds"])
    XCTAssertEqual(
      video.link, VideoLink(text: "More birds", url: URL(string: "https://example.com/birds")))
    XCTAssertEqual(video.isOfflineEnabled, true)
    XCTAssertEqual(video.createdAt, date("2014-12-09T06:07:11.877Z"))
    XCTAssertEqual(video.updatedAt, date("2015-01-13T17:45:21.977Z"))
    XCTAssertEqual(video.publishedAt, date("2015-02-27T19:10:55.000Z"), "no fraction is fine")
    XCTAssertEqual(video.poster, URL(string: "https://img.example.com/poster.jpg"))
    XCTAssertEqual(
      video.posterSources.map(\.absoluteString),
      ["http://img.example.com/poster.jpg", "https://img.example.com/poster.jpg"])
    XCTAssertEqual(video.thumbnail, URL(string: "https://img.example.com/thumb.jpg"))
    XCTAssertEqual(
      video.thumbnailSources.map(\.absoluteString), ["https://img.example.com/thumb.jpg"])
    XCTAssertEqual(video.projection, "equirectangular")
    XCTAssertEqual(video.tags, ["air", "bird", "nature"])
    XCTAssertEqual(video.customFields, ["genre": "nature", "rating": "G"])
    XCTAssertNil(video.bumperID)
    XCTAssertEqual(video.properties["ad_keys"], .null, "undocumented-type fields stay as sent")
    XCTAssertEqual(video.properties["transcripts"], .array([]))
  }

  func testSourcesMapWithTheirFieldsAndTheRTMPRenditionIsLeftOutWithAWarning() throws {
    let result = try fetchFullVideo()
    let sources = result.video.sources
    XCTAssertEqual(sources.count, 4, "the RTMP rendition has no src")
    XCTAssertEqual(result.warnings.count, 1)
    XCTAssertTrue(result.warnings[0].contains("video.sources[4]"), result.warnings[0])
    XCTAssertTrue(result.warnings[0].contains("RTMP"), result.warnings[0])
    let rtmp = try XCTUnwrap(result.json.objectValue?["sources"]?.arrayValue?.last?.objectValue)
    XCTAssertEqual(rtmp["stream_name"], .string("mp4:high.mp4&123"), "still in the raw JSON")

    let hls = sources[0]
    XCTAssertEqual(hls.deliveryMethod, .hls)
    XCTAssertEqual(hls.url.absoluteString, "https://cdn.example.com/master.m3u8")
    XCTAssertEqual(hls.mimeType, "application/x-mpegURL")
    XCTAssertEqual(hls.extXVersion, "4")
    XCTAssertEqual(hls.codec, "H264")
    XCTAssertEqual(hls.container, "M2TS")
    XCTAssertFalse(hls.isProtected)

    let dash = sources[1]
    XCTAssertEqual(dash.deliveryMethod, .dash)
    XCTAssertEqual(dash.profiles, "urn:mpeg:dash:profile:isoff-live:2011")
    XCTAssertTrue(dash.isProtected)
    XCTAssertEqual(
      dash.keySystems["com.widevine.alpha"]?.licenseURL?.absoluteString,
      "https://license.example.com/widevine")
    XCTAssertEqual(
      dash.keySystems["com.microsoft.playready"]?.licenseURL?.absoluteString,
      "https://license.example.com/playready")

    let fairPlay = try XCTUnwrap(sources[2].keySystems["com.apple.fps.1_0"])
    XCTAssertEqual(sources[2].deliveryMethod, .hls)
    XCTAssertEqual(fairPlay.keyRequestURL?.absoluteString, "https://license.example.com/fairplay")
    XCTAssertEqual(
      fairPlay.certificateURL?.absoluteString, "https://license.example.com/certificate")
    XCTAssertNil(fairPlay.licenseURL)

    let mp4 = sources[3]
    XCTAssertEqual(mp4.deliveryMethod, .mp4, "from the .mp4 extension (no type)")
    XCTAssertEqual(mp4.averageBitRate, 1_108_347)
    XCTAssertEqual(mp4.width, 640)
    XCTAssertEqual(mp4.height, 360)
    XCTAssertEqual(mp4.sizeBytes, 1_141_597)
    XCTAssertEqual(mp4.duration, MediaTime(milliseconds: 10_010))
    XCTAssertEqual(mp4.assetID, "4084480003001")
    XCTAssertEqual(mp4.uploadedAt, date("2015-02-27T19:10:55.425Z"))
    XCTAssertNil(mp4.appName)
    XCTAssertNil(mp4.streamName)
  }

  func testTextTracksAndCuePoints() throws {
    let video = try fetchFullVideo().video
    let tracks = video.textTracks
    XCTAssertEqual(tracks.map(\.id), ["tt-en", "tt-thumbs", "tt-es"])
    let english = tracks[0]
    XCTAssertEqual(english.src?.absoluteString, "https://cdn.example.com/en.vtt")
    XCTAssertEqual(english.srclang, "en")
    XCTAssertEqual(english.label, "English")
    XCTAssertEqual(english.kind, "captions")
    XCTAssertEqual(english.mimeType, "text/vtt")
    XCTAssertTrue(english.isDefault)
    XCTAssertEqual(english.accountID, "1234567890")
    XCTAssertEqual(english.assetID, "a-en")
    XCTAssertEqual(
      english.sourceURLs.map(\.absoluteString),
      ["http://cdn.example.com/en.vtt", "https://cdn.example.com/en.vtt"])
    XCTAssertFalse(english.isInBand)
    XCTAssertEqual(video.thumbnailTrack?.id, "tt-thumbs")
    XCTAssertNil(tracks[1].srclang)
    let spanish = tracks[2]
    XCTAssertNil(spanish.src)
    XCTAssertEqual(spanish.kind, "subtitles")
    XCTAssertEqual(spanish.inBandMetadataTrackDispatchType, "com.apple.streaming")
    XCTAssertTrue(spanish.isInBand)

    let cues = Array(video.cuePoints)
    XCTAssertEqual(cues.map(\.name), ["hook", "midroll"], "in time order")
    XCTAssertEqual(cues[0].position, .time(MediaTime(milliseconds: 1_250)))
    XCTAssertEqual(cues[0].type, "CODE")
    XCTAssertNil(cues[0].metadata)
    XCTAssertFalse(cues[0].forceStop)
    XCTAssertEqual(cues[1].id, "cp-ad")
    XCTAssertEqual(cues[1].type, "AD")
    XCTAssertEqual(cues[1].metadata, "break=1")
    XCTAssertTrue(cues[1].forceStop)
    XCTAssertEqual(cues[1].position.time?.seconds, 4.5)
  }

  func testTheVideoWritesBackAsTheResponseWithoutTheLeftOutRendition() throws {
    let result = try fetchFullVideo()
    var expected = try XCTUnwrap(result.json.objectValue)
    expected["sources"] = .array(Array(try XCTUnwrap(expected["sources"]?.arrayValue).dropLast()))
    // Cue points are written in position order; the response lists 4.5 s before 1.25 s.
    expected["cue_points"] = .array(try XCTUnwrap(expected["cue_points"]?.arrayValue).reversed())
    XCTAssertEqual(result.video.json, .object(expected))
    XCTAssertEqual(try Video(json: result.video.json), result.video, "the output reads back")
  }

  func testLenientReadsNeverTrapOnWrongTypes() throws {
    let json: JSONValue = [
      "id": "x", "tags": "not-an-array", "labels": [1, "one"], "economics": "PAID",
      "link": "https://example.com", "offline_enabled": "yes", "created_at": "yesterday",
      "poster_sources": [["src": 5], "x", ["src": "https://p.example.com/a.jpg"]],
      "sources": [
        [
          "src": "https://c.example.com/a.mp4", "width": 640.5, "height": "360",
          "avg_bitrate": 1e300, "key_systems": ["com.widevine.alpha": "oops"],
          "ext_x_version": 5, "duration": -4,
        ]
      ],
    ]
    let video = try Video(json: json)
    XCTAssertEqual(video.tags, [])
    XCTAssertEqual(video.labels, ["one"])
    XCTAssertNil(video.economics)
    XCTAssertNil(video.link)
    XCTAssertNil(video.isOfflineEnabled)
    XCTAssertNil(video.createdAt)
    XCTAssertEqual(video.posterSources.map(\.absoluteString), ["https://p.example.com/a.jpg"])
    let source = try XCTUnwrap(video.sources.first)
    XCTAssertNil(source.width)
    XCTAssertNil(source.height)
    XCTAssertNil(source.averageBitRate)
    XCTAssertNil(source.duration)
    XCTAssertEqual(source.extXVersion, "5")
    XCTAssertTrue(source.isProtected)
    XCTAssertNil(source.keySystems["com.widevine.alpha"]?.licenseURL)
    var written = try XCTUnwrap(json.objectValue)
    written["cue_points"] = []
    XCTAssertEqual(video.json, .object(written), "every field stays as sent")
  }

  func testTheMutableAccessorsWriteTheAPIFields() throws {
    let created = try XCTUnwrap(date("2020-05-06T07:08:09.010Z"))
    let video = Video(sources: []).update { video in
      video.accountID = "77"
      video.shortDescription = "short"
      video.longDescription = "long"
      video.tags = ["a", "b"]
      video.labels = ["/l"]
      video.economics = .adSupported
      video.link = VideoLink(text: "t", url: URL(string: "https://l.example.com"))
      video.isOfflineEnabled = false
      video.posterSources = [URL(string: "https://p.example.com/p.jpg")!]
      video.thumbnailSources = [URL(string: "https://p.example.com/t.jpg")!]
      video.createdAt = created
      video.updatedAt = created
      video.publishedAt = nil
      video.customFields = ["genre": "x"]
      video.bumperID = "b9"
    }
    XCTAssertEqual(video.properties["account_id"], "77")
    XCTAssertEqual(video.properties["description"], "short")
    XCTAssertEqual(video.properties["long_description"], "long")
    XCTAssertEqual(video.properties["tags"], ["a", "b"])
    XCTAssertEqual(video.properties["labels"], ["/l"])
    XCTAssertEqual(video.properties["economics"], "AD_SUPPORTED")
    XCTAssertEqual(video.properties["link"], ["text": "t", "url": "https://l.example.com"])
    XCTAssertEqual(video.properties["offline_enabled"], false)
    XCTAssertEqual(video.properties["poster_sources"], [["src": "https://p.example.com/p.jpg"]])
    XCTAssertEqual(video.properties["thumbnail_sources"], [["src": "https://p.example.com/t.jpg"]])
    XCTAssertEqual(video.properties["created_at"], "2020-05-06T07:08:09.010Z")
    XCTAssertEqual(video.createdAt, created)
    XCTAssertNil(video.properties["published_at"])
    XCTAssertEqual(video.customFields, ["genre": "x", "bumper_id": "b9"])
    XCTAssertEqual(video.bumperID, "b9")
    XCTAssertEqual(video.update { $0.bumperID = nil }.customFields, ["genre": "x"])
  }

  func testPlaylistFieldsAndVideos() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.servePlaylist(
      "p1",
      json: CatalogResponses.playlist(
        id: "p1", videos: [CatalogResponses.video(id: "v1"), CatalogResponses.fullVideo]))
    let service = api.service()
    let result = try catalogOutcome {
      try await service.findPlaylist(PlaybackServiceRequest(assetID: "p1"))
    }.value()
    let playlist = result.playlist
    XCTAssertEqual(playlist.id, "p1")
    XCTAssertEqual(playlist.name, "Birds")
    XCTAssertEqual(playlist.accountID, "1234567890")
    XCTAssertEqual(playlist.shortDescription, "Every bird we have")
    XCTAssertEqual(playlist.referenceID, "birds-list")
    XCTAssertEqual(playlist.type, "EXPLICIT")
    XCTAssertEqual(playlist.videoIDs, ["v1", "v2", "v3"])
    XCTAssertNil(playlist.search)
    XCTAssertEqual(playlist.createdAt, date("2016-01-02T03:04:05.006Z"))
    XCTAssertEqual(playlist.updatedAt, date("2016-02-03T04:05:06.007Z"))
    XCTAssertEqual(playlist.videos.compactMap(\.id), ["v1", "6000000000001"])
    XCTAssertEqual(result.warnings.count, 1)
    XCTAssertTrue(result.warnings[0].contains("videos[1].sources[4]"), result.warnings[0])
    XCTAssertEqual(try Playlist(json: playlist.json), playlist)
  }

  func testMalformedTextTracksAndCuePointsAreLeftOutWithWarnings() throws {
    let body = """
      {"id": "v", "sources": [{"src": "https://c.example.com/a.mp4"}, {"src": "not a url"},
        {"src": 5}, 7],
       "text_tracks": [{"src": "https://c.example.com/a.vtt", "kind": "captions"},
         {"kind": 3}],
       "cue_points": [{"time": 1, "type": "CODE"}, {"time": "soon"}, {"type": "AD"}]}
      """
    let stub = StubNetwork(status: 200, body: Data(body.utf8))
    let service = PlaybackService(accountID: "1", policyKey: "k", network: stub)
    let result = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "v"))
    }.value()
    XCTAssertEqual(result.video.sources.count, 1)
    XCTAssertEqual(result.video.textTracks.count, 1)
    XCTAssertEqual(result.video.cuePoints.count, 1)
    XCTAssertEqual(result.warnings.count, 3 + 1 + 2, result.warnings.joined(separator: "\n"))
    XCTAssertTrue(result.warnings.contains { $0.contains("video.cue_points[1]") })
  }
}
