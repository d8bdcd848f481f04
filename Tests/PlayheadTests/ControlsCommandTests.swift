import Foundation
import Playhead
import PlayheadTestSupport
import PlayheadTesting
import PlayheadUI
import XCTest

/// `playhead play`'s control bar (issue 14) under a private X server, clicked with
/// xdotool as a user would: the subtitles menu chooses a track, the bitrate menu caps the
/// rendition (seen in the server's log), and the controls' options.
///
/// Where each control sits is worked out with the same `ControlsModel` the player uses,
/// from what the media offers, so a change of layout or arithmetic changes both.
final class ControlsCommandTests: XCTestCase {
  private var display: XvfbDisplay!
  private var folder: URL!
  private let width = 640.0
  private let height = 360.0

  override func setUpWithError() throws {
    try super.setUpWithError()
    display = try XvfbDisplay()
    folder = try makeTemporaryDirectory()
  }

  override func tearDown() {
    display?.stop()
    display = nil
    super.tearDown()
  }

  private var environment: [String: String] {
    [
      "DISPLAY": display.name, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "disk",
      "SDL_DISKAUDIOFILE": folder.appendingPathComponent("device.raw").path,
    ]
  }

  /// Starts `play` with `arguments` in a 640x360 window and returns it with its window.
  private func start(_ arguments: [String], title: String) throws -> (CLIProcess, String) {
    let process = try CLIRunner.start(
      ["play"] + arguments + ["--window-size", "640x360", "--json"], environment: environment)
    let window = try XDoTool.window(titled: title)
    try XDoTool.focus(window)
    return (process, window)
  }

  /// Where the player draws its controls for media offering `state`: a model laid out at
  /// the window's size.
  private func layout(_ state: ControlsPlaybackState) -> ControlsModel {
    var model = ControlsModel(localization: Localization(preferredLanguages: ["en"]), nowSeconds: 0)
    model.resize(width: width, height: height, scale: 1)
    model.update(state, nowSeconds: 0)
    return model
  }

  private func centre(of tag: ControlTag, in model: ControlsModel) throws -> (Int, Int) {
    let frame = try XCTUnwrap(
      model.scene(nowSeconds: 0).controls.first { $0.frame.tag == tag }?.frame, "\(tag) shown")
    return (Int(frame.x + frame.width / 2), Int(frame.y + frame.height / 2))
  }

  /// Opens the menu of `button` and returns the centre of its row `row` (0 is the heading).
  private func menuRow(_ row: Int, of button: ControlTag, in model: ControlsModel) throws -> (
    Int, Int
  ) {
    var open = model
    let point = try centre(of: button, in: model)
    _ = open.handle(.pointerPressed(x: Double(point.0), y: Double(point.1)), nowSeconds: 0)
    _ = open.handle(.pointerReleased(x: Double(point.0), y: Double(point.1)), nowSeconds: 0)
    let item = try XCTUnwrap(open.scene(nowSeconds: 0).menu?.items[row], "menu row \(row)")
    return (Int(item.x + item.width / 2), Int(item.y + item.height / 2))
  }

  /// Moves the pointer onto the point and clicks there (the move shows hidden controls).
  private func click(_ point: (Int, Int), in window: String) throws {
    try XDoTool.run(["mousemove", "--window", window, "\(point.0)", "\(point.1)", "click", "1"])
  }

  private func subtitleFile(_ name: String, text: String) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try "WEBVTT\n\n00:00:04.000 --> 00:00:09.500\n\(text)\n".write(
      to: url, atomically: true, encoding: .utf8)
    return url
  }

  func testChoosingASubtitleTrackInTheMenuShowsItsCues() throws {
    let english = try subtitleFile("talk.en.vtt", text: "Hello")
    let french = try subtitleFile("talk.fr.vtt", text: "Bonjour")
    let (process, window) = try start(
      [
        try Fixtures.url("sample-h264-aac.mp4").path, "--sub-file", english.path, "--sub-file",
        french.path,
      ], title: "sample-h264-aac.mp4 - Playhead")
    XCTAssertTrue(process.waitForOutput(containing: "\"firstFrame\""), "playing")
    XCTAssertTrue(
      process.waitForOutput(containing: "\"closedCaption\",\"screenMode\"]"),
      "the bar lays out the subtitles button")
    let model = layout(
      ControlsPlaybackState(
        sessionID: 1, isPlaying: true, duration: 10,
        textTracks: [.init(id: "en", label: "en"), .init(id: "fr", label: "fr")],
        selectedTextTrackID: "en"))
    // Rows: the heading, Off, the English file, the French file.
    let frenchRow = try menuRow(3, of: .closedCaption, in: model)
    try click(try centre(of: .closedCaption, in: model), in: window)
    try click(frenchRow, in: window)
    XCTAssertTrue(process.waitForOutput(containing: "\"text\":\"Bonjour\""), "the French cue")
    try XDoTool.run(["key", "q"])
    let result = process.wait()
    assertStatus(result, 0)
    let changes = result.jsonLines().filter { $0["event"] as? String == "textTrackChanged" }
    XCTAssertEqual(changes.last?["label"] as? String, "talk.fr.vtt", "chosen in the menu")
    XCTAssertFalse(result.stdout.contains("\"rate\":0"), "the clicks on the controls did not pause")
  }

  /// The fixture ladder repeated `times` times, each repeat after a discontinuity, so
  /// that a real-time play is still loading while the test clicks.
  private func longLadderServer(times: Int) throws -> HTTPTestServer {
    let fixtures = try Fixtures.directory()
    var files: [String: Data] = [:]
    files["/long/master.m3u8"] = try Data(
      contentsOf: fixtures.appendingPathComponent("hls/master.m3u8"))
    for variant in ["144p", "360p", "720p"] {
      var lines = [
        "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0",
        "#EXT-X-PLAYLIST-TYPE:VOD",
      ]
      for repeat_ in 0..<times {
        if repeat_ > 0 { lines.append("#EXT-X-DISCONTINUITY") }
        for segment in 0..<6 {
          lines += ["#EXTINF:2.000000,", "/hls/\(variant)/segment00\(segment).ts"]
        }
      }
      lines.append("#EXT-X-ENDLIST")
      files["/long/\(variant)/index.m3u8"] = Data((lines.joined(separator: "\n") + "\n").utf8)
    }
    let server = HTTPTestServer(directory: fixtures, files: files)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  func testChoosingABitrateCapsTheRendition() throws {
    let server = try longLadderServer(times: 5)
    let url = server.url("/long/master.m3u8").absoluteString
    let (process, window) = try start([url, "--scene", "short"], title: "master.m3u8 - Playhead")
    XCTAssertTrue(process.waitForOutput(containing: "\"firstFrame\""), "playing")
    XCTAssertTrue(
      process.waitForOutput(containing: "\"preferredBitrate\",\"screenMode\"]"),
      "the bar lays out the bitrate button")
    let ladder = BitrateMenu(levels: [
      BitrateLevel(index: 0, bandwidth: 155_664, height: 144),
      BitrateLevel(index: 1, bandwidth: 527_152, height: 360),
      BitrateLevel(index: 2, bandwidth: 1_030_240, height: 720),
    ])
    let model = layout(
      ControlsPlaybackState(sessionID: 1, isPlaying: true, duration: 60, bitrateMenu: ladder))
    // Rows: the heading, Auto, then the levels highest first: 144p is the fifth.
    let lowest = try menuRow(4, of: .preferredBitrate, in: model)
    try click(try centre(of: .preferredBitrate, in: model), in: window)
    let before = server.requests.count
    try click(lowest, in: window)
    XCTAssertTrue(process.waitForOutput(containing: "\"bandwidth\":155664"), "down to 144p")
    let deadline = Date(timeIntervalSinceNow: 30)
    var later: [String] = []
    while Date() < deadline {
      later = server.requests.dropFirst(before + 1).map(\.path).filter { $0.hasSuffix(".ts") }
      if later.count >= 3 { break }
      usleep(20_000)
    }
    try XDoTool.run(["key", "q"])
    let result = process.wait()
    assertStatus(result, 0)
    XCTAssertGreaterThanOrEqual(later.count, 3, "segments were fetched after the choice")
    XCTAssertEqual(
      later.filter { !$0.contains("/144p/") }, [], "after the choice only 144p is fetched")
  }

  func testAPlaylistPlaysThroughTheControllerWithTheSameView() throws {
    let playlist = folder.appendingPathComponent("list.json")
    let entry: [String: Any] = [
      "id": "a", "name": "sample",
      "sources": [
        ["src": try Fixtures.url("sample-h264-aac.mp4").absoluteString, "type": "video/mp4"]
      ],
      "cue_points": [["name": "half", "type": "CODE", "time": 5.0]],
    ]
    try JSONSerialization.data(withJSONObject: ["id": "list", "videos": [entry]]).write(
      to: playlist)
    let process = try CLIRunner.start(
      ["play", "--playlist", playlist.path, "--auto-play", "--window-size", "640x360", "--json"],
      environment: environment)
    let window = try XDoTool.window(titled: "list.json - Playhead")
    try XDoTool.focus(window)
    XCTAssertTrue(process.waitForOutput(containing: "\"event\":\"play\""), "the session plays")
    XCTAssertTrue(
      process.waitForOutput(containing: "\"controls\":[\"playback\",\"jumpBack\""),
      "the bar lays out jump back (the duration is known)")
    let model = layout(ControlsPlaybackState(sessionID: 1, isPlaying: true, duration: 10))
    try click(try centre(of: .playback, in: model), in: window)
    XCTAssertTrue(process.waitForOutput(containing: "\"event\":\"pause\""), "paused by the bar")
    try XDoTool.run(["key", "q"])
    let result = process.wait()
    assertStatus(result, 0)
  }

  func testControlsOptions() throws {
    let sample = try Fixtures.url("sample-h264-aac.mp4").path
    let unknown = try CLIRunner.run(
      ["play", sample, "--layout", "cinema"], environment: environment)
    assertStatus(unknown, 2)
    XCTAssertTrue(
      unknown.stderr.contains("'--layout' needs one of auto, vod, live, dvr"), unknown.stderr)
    let contradiction = try CLIRunner.run(
      ["play", sample, "--no-controls", "--compact"], environment: environment)
    assertStatus(contradiction, 2)
    XCTAssertTrue(contradiction.stderr.contains("--no-controls"), contradiction.stderr)
    let headless = try CLIRunner.run(["play", sample, "--no-window", "--layout", "vod"])
    assertStatus(headless, 2)
    // Without controls, a click where the play/pause button would be is the video's: it
    // pauses (as with controls, but through the window's own click meaning).
    let (process, window) = try start(
      [sample, "--no-controls"], title: "sample-h264-aac.mp4 - Playhead")
    XCTAssertTrue(process.waitForOutput(containing: "\"firstFrame\""), "playing")
    try click((320, 340), in: window)
    XCTAssertTrue(process.waitForOutput(containing: "\"rate\":0"), "the click paused")
    try XDoTool.run(["key", "q"])
    assertStatus(process.wait(), 0)
  }
}
