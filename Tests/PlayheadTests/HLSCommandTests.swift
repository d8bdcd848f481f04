import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play` and `playhead probe` on HLS playlists, run as a subprocess.
final class HLSCommandTests: XCTestCase {
  /// The fixture ladder's variant bandwidths, lowest first (from Fixtures/hls/master.m3u8).
  private let ladderBandwidths = [155_664, 527_152, 1_030_240]

  private func summary(
    of objects: [[String: Any]], file: StaticString = #filePath, line: UInt = #line
  ) throws -> [String: Any] {
    XCTAssertEqual(
      objects.last?["event"] as? String, "summary", "the summary comes last", file: file,
      line: line)
    return try XCTUnwrap(
      objects.last { $0["event"] as? String == "summary" }, file: file, line: line)
  }

  private func trackChanges(_ objects: [[String: Any]]) -> [[String: Any]] {
    objects.filter { $0["event"] as? String == "trackChanged" }
  }

  /// A server over the fixture ladder, stopped when the test ends.
  private func startLadderServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  // MARK: probe

  func testProbeJSON_onTheLadder_listsThreeVariantsLowestFirstAndVOD() throws {
    let result = try CLIRunner.run(["probe", "--json", try Fixtures.url("hls/master.m3u8").path])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    XCTAssertEqual(objects.count, 1, result.stdout)
    let probe = try XCTUnwrap(objects.first)
    XCTAssertEqual(probe["container"] as? String, "hls")
    XCTAssertEqual(probe["streamKind"] as? String, "VOD")
    let variants = try XCTUnwrap(probe["variants"] as? [[String: Any]], result.stdout)
    XCTAssertEqual(variants.compactMap { $0["height"] as? Int }, [144, 360, 720])
    XCTAssertEqual(variants.compactMap { $0["index"] as? Int }, [0, 1, 2])
    XCTAssertEqual(variants.compactMap { $0["bandwidth"] as? Int }, ladderBandwidths)
    XCTAssertEqual(variants.compactMap { $0["resolution"] as? String }.last, "1280x720")
    XCTAssertEqual(variants.compactMap { $0["uri"] as? String }.first, "144p/index.m3u8")
    XCTAssertEqual(variants.first?["codecs"] as? String, "avc1.4d400c,mp4a.40.2")
    XCTAssertEqual((probe["renditions"] as? [Any])?.count, 0)
    XCTAssertEqual((probe["iFrameVariants"] as? [Any])?.count, 0)
    let tracks = try XCTUnwrap(probe["tracks"] as? [[String: Any]])
    XCTAssertTrue(tracks.contains { $0["kind"] as? String == "video" }, "\(tracks)")
    XCTAssertEqual(try XCTUnwrap(probe["duration"] as? Double), 12, accuracy: 0.05)
  }

  func testProbeJSON_onAlternateRenditions_listsAudioSubtitlesAndIFrames() throws {
    let result = try CLIRunner.run([
      "probe", try Fixtures.url("hls-alt/master.m3u8").path, "--json",
    ])
    assertStatus(result, 0)
    let probe = try XCTUnwrap(result.jsonLines().first)
    XCTAssertEqual(probe["streamKind"] as? String, "VOD")
    let renditions = try XCTUnwrap(probe["renditions"] as? [[String: Any]], result.stdout)
    XCTAssertEqual(renditions.filter { $0["type"] as? String == "AUDIO" }.count, 2)
    XCTAssertEqual(renditions.filter { $0["type"] as? String == "SUBTITLES" }.count, 1)
    let english = try XCTUnwrap(
      renditions.first { $0["type"] as? String == "AUDIO" && $0["language"] as? String == "en" })
    XCTAssertEqual(english["groupId"] as? String, "aud")
    XCTAssertEqual(english["name"] as? String, "English")
    XCTAssertEqual(english["default"] as? Bool, true)
    XCTAssertEqual(english["uri"] as? String, "audio-en/index.m3u8")
    let french = try XCTUnwrap(renditions.first { $0["language"] as? String == "fr" })
    XCTAssertEqual(french["default"] as? Bool, false)
    let iFrames = try XCTUnwrap(probe["iFrameVariants"] as? [[String: Any]])
    XCTAssertEqual(iFrames.count, 1)
    XCTAssertEqual(iFrames.first?["bandwidth"] as? Int, 12_784)
    XCTAssertEqual(iFrames.first?["uri"] as? String, "video/iframes.m3u8")
    XCTAssertEqual((probe["variants"] as? [Any])?.count, 1)
  }

  func testProbeText_onTheLadder_namesKindVariantsAndTracks() throws {
    let result = try CLIRunner.run(["probe", try Fixtures.url("hls/master.m3u8").path])
    assertStatus(result, 0)
    let lines = result.stdoutLines
    XCTAssertTrue(lines.contains("stream     VOD"), result.stdout)
    XCTAssertTrue(
      lines.contains {
        $0.hasPrefix("variant 2  1.03 Mbps  1280x720") && $0.hasSuffix("720p/index.m3u8")
      },
      result.stdout)
    XCTAssertTrue(lines.contains { $0.hasPrefix("track 0  video  h264") }, result.stdout)
  }

  func testProbeText_onAlternateRenditions_namesRenditionsAndIFrames() throws {
    let result = try CLIRunner.run(["probe", try Fixtures.url("hls-alt/master.m3u8").path])
    assertStatus(result, 0)
    let lines = result.stdoutLines
    XCTAssertEqual(lines.filter { $0.hasPrefix("rendition  audio") }.count, 2, result.stdout)
    XCTAssertTrue(
      lines.contains { $0.hasPrefix("rendition  subtitles  group subs") }, result.stdout)
    XCTAssertTrue(lines.contains { $0.hasPrefix("i-frames  13 kbps  320x180") }, result.stdout)
  }

  func testProbeJSON_onAMediaPlaylist_reportsVODWithoutVariants() throws {
    let result = try CLIRunner.run([
      "probe", "--json", try Fixtures.url("hls/360p/index.m3u8").path,
    ])
    assertStatus(result, 0)
    let probe = try XCTUnwrap(result.jsonLines().first)
    XCTAssertEqual(probe["streamKind"] as? String, "VOD")
    XCTAssertEqual((probe["variants"] as? [Any])?.count, 0)
  }

  func testProbeJSON_onProgressiveMedia_hasNoStreamFields() throws {
    let result = try CLIRunner.run([
      "probe", "--json", try Fixtures.url("sample-h264-aac.mp4").path,
    ])
    assertStatus(result, 0)
    let probe = try XCTUnwrap(result.jsonLines().first)
    XCTAssertNil(probe["streamKind"])
    XCTAssertNil(probe["variants"])
  }

  // MARK: play

  func testPlayFastJSON_onTheLadder_decodesEveryFrameAndReportsTrackChanges() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("hls/master.m3u8").path, "--fast", "--json",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let summary = try summary(of: objects)
    XCTAssertEqual(summary["outcome"] as? String, "ended")
    XCTAssertEqual(summary["framesDecoded"] as? Int, 300)
    let changes = trackChanges(objects)
    XCTAssertFalse(changes.isEmpty, "at least the initial rendition: \(result.stdout)")
    XCTAssertEqual(changes.first?["reason"] as? String, "initial")
    for change in changes {
      let bandwidth = try XCTUnwrap(change["bandwidth"] as? Int, "\(change)")
      XCTAssertTrue(ladderBandwidths.contains(bandwidth), "\(change)")
      XCTAssertNotNil(change["width"] as? Int, "\(change)")
      XCTAssertNotNil(change["height"] as? Int, "\(change)")
      let reason = try XCTUnwrap(change["reason"] as? String)
      XCTAssertTrue(
        ["initial", "throughput", "buffer", "abandoned", "manual", "failover", "cap"].contains(
          reason),
        reason)
    }
    let switches = try XCTUnwrap(summary["switchCount"] as? Int, "\(summary)")
    XCTAssertEqual(switches, changes.count - 1, "every switch after the first is an event")
    let average = try XCTUnwrap(summary["averageBitrate"] as? Int, "\(summary)")
    let played = changes.compactMap { $0["bandwidth"] as? Int }
    XCTAssertGreaterThanOrEqual(average, try XCTUnwrap(played.min()))
    XCTAssertLessThanOrEqual(average, try XCTUnwrap(played.max()))
    XCTAssertNotNil(summary["stallCount"] as? Int, "\(summary)")
    XCTAssertNotNil(summary["stallSeconds"] as? Double, "\(summary)")
  }

  func testPlayFastJSON_withRendition2_staysOn720p() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("hls/master.m3u8").path, "--fast", "--json", "--rendition", "2",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let changes = trackChanges(objects)
    XCTAssertFalse(changes.isEmpty, result.stdout)
    for change in changes {
      XCTAssertEqual(change["height"] as? Int, 720, "\(change)")
    }
    let summary = try summary(of: objects)
    XCTAssertEqual(summary["framesDecoded"] as? Int, 300)
    XCTAssertEqual(summary["switchCount"] as? Int, 0)
    XCTAssertEqual(summary["averageBitrate"] as? Int, 1_030_240)
  }

  func testPlayFastJSON_withMaxBitrate_neverChoosesAVariantAboveIt() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("hls/master.m3u8").path, "--fast", "--json", "--max-bitrate",
      "600000", "--start-bandwidth", "5M", "--scene", "live", "--max-pixels", "1280x720",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let changes = trackChanges(objects)
    XCTAssertFalse(changes.isEmpty, result.stdout)
    for change in changes {
      let bandwidth = try XCTUnwrap(change["bandwidth"] as? Int, "\(change)")
      XCTAssertLessThanOrEqual(bandwidth, 600_000, "\(change)")
    }
    let summary = try summary(of: objects)
    XCTAssertEqual(summary["framesDecoded"] as? Int, 300)
    XCTAssertLessThanOrEqual(try XCTUnwrap(summary["averageBitrate"] as? Int), 600_000)
  }

  func testPlayFastJSON_withMaxPixels_neverChoosesALargerPicture() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("hls/master.m3u8").path, "--fast", "--json", "--max-pixels",
      "256x144", "--start-bandwidth", "10M",
    ])
    assertStatus(result, 0)
    let changes = trackChanges(result.jsonLines())
    XCTAssertFalse(changes.isEmpty, result.stdout)
    for change in changes {
      XCTAssertEqual(change["height"] as? Int, 144, "\(change)")
    }
  }

  func testPlayFastText_onTheLadder_showsTheRenditionInProgressAndSummary() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("hls/master.m3u8").path, "--fast", "--rendition", "1",
    ])
    assertStatus(result, 0)
    XCTAssertTrue(
      result.stderr.contains("  360p 527 kbps  bandwidth "), "progress line: \(result.stderr)")
    XCTAssertTrue(
      result.stdoutLines.contains("  average bit rate     527 kbps"), result.stdout)
    XCTAssertTrue(result.stdoutLines.contains("  rendition switches   0"), result.stdout)
  }

  func testPlayFastEvents_onTheLadder_printsTrackChangedWithTheRendition() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("hls/master.m3u8").path, "--fast", "--events", "--quiet",
      "--rendition", "0",
    ])
    assertStatus(result, 0)
    XCTAssertTrue(
      result.stdoutLines.contains {
        $0.hasSuffix("] trackChanged 144p 156 kbps 256x144 (initial)")
      },
      result.stdout)
  }

  func testPlayFastJSON_onProgressiveMedia_averageBitrateIsTheDeclaredRate() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--json",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    XCTAssertTrue(trackChanges(objects).isEmpty)
    let summary = try summary(of: objects)
    XCTAssertEqual(summary["switchCount"] as? Int, 0)
    // The tracks declare about 56 + 98 kbit/s.
    let average = try XCTUnwrap(summary["averageBitrate"] as? Int, "\(summary)")
    XCTAssertEqual(Double(average), 154_000, accuracy: 10_000)
  }

  // MARK: option values

  func testBadStreamingValues_exit2WithOneErrorLine() throws {
    let ladder = try Fixtures.url("hls/master.m3u8").path
    let cases: [[String]] = [
      ["play", ladder, "--rendition", "x"],
      ["play", ladder, "--rendition", "-1"],
      ["play", ladder, "--timeout", "-1"],
      ["play", ladder, "--timeout", "0"],
      ["play", ladder, "--header", "no colon"],
      ["play", ladder, "--header", ": empty name"],
      ["play", ladder, "--header", "Bad Name: 1"],
      ["play", ladder, "--scene", "foo"],
      ["play", ladder, "--max-bitrate", "0"],
      ["play", ladder, "--max-bitrate", "fast"],
      ["play", ladder, "--max-pixels", "0"],
      ["play", ladder, "--max-pixels", "12x"],
      ["play", ladder, "--start-bandwidth", "-5"],
      ["play", ladder, "--retries", "many"],
      ["play", ladder, "--retries", "101"],
      ["play", ladder, "--referer", ""],
      ["play", ladder, "--user-agent"],
      ["probe", ladder, "--timeout", "soon"],
      ["probe", ladder, "--rendition", "1"],
    ]
    for arguments in cases {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 2)
      let lines = result.stderr.split(separator: "\n")
      XCTAssertEqual(lines.count, 1, "\(arguments): \(result.stderr)")
      XCTAssertTrue(lines.first?.hasPrefix("playhead: ") ?? false, "\(arguments): \(result.stderr)")
      XCTAssertEqual(result.stdout, "", "\(arguments)")
    }
  }

  func testRenditionBeyondTheLadder_exits2NamingTheCount() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("hls/master.m3u8").path, "--fast", "--quiet", "--rendition", "3",
    ])
    assertStatus(result, 2)
    XCTAssertTrue(result.stderr.contains("the stream has 3"), result.stderr)
  }

  // MARK: requests over HTTP

  func testPlayOverHTTP_withHeaderRefererAndUserAgent_sendsThemWithEverySegment() throws {
    let server = try startLadderServer()
    let result = try CLIRunner.run([
      "play", server.url("/hls/master.m3u8").absoluteString, "--fast", "--json",
      "--header", "X-Test: 1", "--referer", "http://example.test/page",
      "--user-agent", "playhead-test/1", "--timeout", "20000", "--retries", "2",
    ])
    assertStatus(result, 0)
    XCTAssertEqual(try summary(of: result.jsonLines())["framesDecoded"] as? Int, 300)
    let segments = server.requests.filter { $0.path.hasSuffix(".ts") }
    XCTAssertFalse(segments.isEmpty, "segments were fetched over HTTP")
    for request in segments {
      XCTAssertEqual(request.headers["x-test"], "1", "\(request.path): \(request.headers)")
      XCTAssertEqual(request.headers["referer"], "http://example.test/page", request.path)
      XCTAssertEqual(request.headers["user-agent"], "playhead-test/1", request.path)
    }
    let playlists = server.requests.filter { $0.path.hasSuffix(".m3u8") }
    XCTAssertFalse(playlists.isEmpty)
    for request in playlists {
      XCTAssertEqual(request.headers["x-test"], "1", "\(request.path): \(request.headers)")
    }
  }

  func testProbeOverHTTP_withHeader_sendsItForThePlaylists() throws {
    let server = try startLadderServer()
    let result = try CLIRunner.run([
      "probe", "--json", server.url("/hls/master.m3u8").absoluteString, "--header", "X-Test: 2",
    ])
    assertStatus(result, 0)
    XCTAssertEqual((result.jsonLines().first?["variants"] as? [Any])?.count, 3)
    let requests = server.requests
    XCTAssertFalse(requests.isEmpty)
    for request in requests {
      XCTAssertEqual(request.headers["x-test"], "2", "\(request.path): \(request.headers)")
    }
  }

  func testPlayOverHTTP_withNoRetries_failsOnAMasterThatFailsOnce() throws {
    let server = try startLadderServer()
    server.setFault(.failTimes(1, status: 503), for: "/hls/master.m3u8")
    let result = try CLIRunner.run([
      "play", server.url("/hls/master.m3u8").absoluteString, "--fast", "--quiet",
      "--retries", "0",
    ])
    assertStatus(result, 3)
    XCTAssertEqual(server.requestCount(for: "/hls/master.m3u8"), 1)
  }

  func testPlayOverHTTP_withRetries_survivesAMasterThatFailsTwice() throws {
    let server = try startLadderServer()
    server.setFault(.failTimes(2, status: 503), for: "/hls/master.m3u8")
    let result = try CLIRunner.run([
      "play", server.url("/hls/master.m3u8").absoluteString, "--fast", "--json",
      "--retries", "2",
    ])
    assertStatus(result, 0)
    XCTAssertEqual(try summary(of: result.jsonLines())["framesDecoded"] as? Int, 300)
    XCTAssertEqual(server.requestCount(for: "/hls/master.m3u8"), 3)
  }

  func testPlayOverHTTP_withAShortTimeout_failsOnAHangingSegment() throws {
    let server = try startLadderServer()
    for name in ["144p", "360p", "720p"] {
      server.setFault(.hang, for: "/hls/\(name)/segment000.ts")
    }
    let result = try CLIRunner.run([
      "play", server.url("/hls/master.m3u8").absoluteString, "--fast", "--quiet",
      "--timeout", "300", "--retries", "0",
    ])
    assertStatus(result, 3)
    XCTAssertTrue(result.stderr.hasPrefix("playhead: "), result.stderr)
  }

  func testPlayOverHTTP_withASlowSegment_reportsTheStallInEventsAndSummary() throws {
    let server = try startLadderServer()
    // The segment after the start point arrives at 40 kB/s: about 2.8 s for 110 kB, while
    // the media before it lasts 1 s, so playback must stall once and then recover.
    server.setFault(.slow(bytesPerSecond: 40_000), for: "/hls/360p/segment002.ts")
    let result = try CLIRunner.run([
      "play", server.url("/hls/master.m3u8").absoluteString, "--json", "--rendition", "1",
      "--start", "3", "--duration", "2",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let names = objects.compactMap { $0["event"] as? String }
    let stalled = try XCTUnwrap(names.firstIndex(of: "playbackStalled"), result.stdout)
    let recovered = try XCTUnwrap(names.lastIndex(of: "playbackRecovered"), result.stdout)
    XCTAssertLessThan(stalled, recovered)
    XCTAssertTrue(names.contains("playbackLikelyToKeepUp"), result.stdout)
    let summary = try summary(of: objects)
    XCTAssertEqual(summary["stallCount"] as? Int, names.filter { $0 == "playbackStalled" }.count)
    XCTAssertGreaterThan(try XCTUnwrap(summary["stallSeconds"] as? Double), 0)
  }
}
