import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play` with a window and a sound card (issue 13): under a private X server
/// (`XvfbDisplay`) with SDL's disk audio driver standing in for the sound card, and keys
/// typed with `xdotool` as a user would.
final class WindowCommandTests: XCTestCase {
  private var display: XvfbDisplay!
  private var audioFile: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    display = try XvfbDisplay()
    audioFile = try makeTemporaryDirectory().appendingPathComponent("device.raw")
  }

  override func tearDown() {
    display?.stop()
    display = nil
    super.tearDown()
  }

  /// The environment of a run: the display, the disk audio driver writing `audioFile`.
  private var environment: [String: String] {
    [
      "DISPLAY": display.name, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "disk",
      "SDL_DISKAUDIOFILE": audioFile.path,
    ]
  }

  private func sample() throws -> String { try Fixtures.url("sample-h264-aac.mp4").path }

  /// Starts `play` with `arguments`, waits for its window and gives it the focus.
  private func start(_ arguments: [String], title: String) throws -> (CLIProcess, String) {
    let process = try CLIRunner.start(["play"] + arguments, environment: environment)
    let window = try XDoTool.window(titled: title)
    try XDoTool.focus(window)
    return (process, window)
  }

  private func events(_ result: CLIResult) -> [[String: Any]] { result.jsonLines() }

  /// Presses q and checks that the player quit: exit status 0 and a last JSON line whose
  /// outcome is `quit`. Returns the run's output.
  @discardableResult
  private func pressQ(
    andCheckItQuit process: CLIProcess, file: StaticString = #filePath, line: UInt = #line
  ) throws -> CLIResult {
    try XDoTool.run(["key", "q"])
    let result = process.wait()
    assertStatus(result, 0, file: file, line: line)
    XCTAssertEqual(
      events(result).last?["outcome"] as? String, "quit", file: file, line: line)
    return result
  }

  func testPlaysToTheEndInAWindow_withSoundOnTheDevice() throws {
    let result = try CLIRunner.run(
      ["play", try sample(), "--duration", "2", "--window-size", "640x360", "--json"],
      environment: environment)
    assertStatus(result, 0)
    let summary = try XCTUnwrap(events(result).last)
    XCTAssertEqual(summary["outcome"] as? String, "ended")
    XCTAssertGreaterThan(summary["framesRendered"] as? Int ?? 0, 40, "about 50 frames shown")
    // The device played the two seconds: 48 kHz, stereo, 16-bit, written by SDL's disk
    // driver as it plays (its file also holds the silence of the open device).
    let bytes = try Data(contentsOf: audioFile).count
    XCTAssertGreaterThan(bytes, 2 * 48_000 * 4 * 9 / 10, "the device played the audio")
  }

  func testKeys_pauseAndQuit_exitZeroWithTheSummary() throws {
    let (process, _) = try start(
      [try sample(), "--json"], title: "sample-h264-aac.mp4 - Playhead")
    XCTAssertTrue(process.waitForOutput(containing: "\"firstFrame\""), "playing")
    try XDoTool.run(["key", "space"])
    XCTAssertTrue(process.waitForOutput(containing: "\"rate\":0"), "space pauses")
    try XDoTool.run(["key", "Right"])
    XCTAssertTrue(process.waitForOutput(containing: "\"seekCompleted\""), "right seeks")
    let result = try pressQ(andCheckItQuit: process)
    XCTAssertEqual(events(result).last?["event"] as? String, "summary")
    let seek = events(result).first { $0["event"] as? String == "seekCompleted" }
    let time = seek?["time"] as? Double ?? 0
    XCTAssertGreaterThan(time, 4.5, "about 5 s ahead of where it paused")
  }

  func testOnWayland_playsInAWindow_andKeysPauseAndQuit() throws {
    // A Wayland compositor (Weston, its output a window on the X server, its seat the X
    // server's keyboard); the player is told to use Wayland and nothing else.
    let weston = try WestonDisplay(on: display)
    defer { weston.stop() }
    var wayland = environment
    wayland["SDL_VIDEODRIVER"] = "wayland"
    wayland["WAYLAND_DISPLAY"] = weston.socketName
    let process = try CLIRunner.start(
      ["play", try sample(), "--json", "--no-controls"], environment: wayland)
    XCTAssertTrue(process.waitForOutput(containing: "\"firstFrame\""), "playing")
    // The compositor hands the window its keyboard once it has mapped the window's
    // surface; keys typed before that reach no client. → (a 5 s seek in the 10 s sample)
    // until the player reports one, each try given 5 s, then space.
    var seeked = false
    for _ in 0..<4 where !seeked {
      try XDoTool.run(["key", "Right"])
      seeked = process.waitForOutput(containing: "\"seekCompleted\"", timeoutMs: 5_000)
    }
    XCTAssertTrue(seeked, "→ never reached the window")
    try XDoTool.run(["key", "space"])
    XCTAssertTrue(process.waitForOutput(containing: "\"rate\":0"), "space pauses")
    let result = try pressQ(andCheckItQuit: process)
    let summary = try XCTUnwrap(events(result).last)
    XCTAssertGreaterThan(summary["framesRendered"] as? Int ?? 0, 0, "frames went to the window")
    XCTAssertFalse(result.stderr.contains("x11"), result.stderr)
  }

  func testAClickPauses_andTheStatisticsPageAndFullscreenKeepPlaying() throws {
    let (process, window) = try start(
      [try sample(), "--json"], title: "sample-h264-aac.mp4 - Playhead")
    XCTAssertTrue(process.waitForOutput(containing: "\"firstFrame\""), "playing")
    try XDoTool.run(["key", "i"])
    try XDoTool.run(["key", "f"])
    try XDoTool.run(["mousemove", "--window", window, "40", "40", "click", "1"])
    XCTAssertTrue(process.waitForOutput(containing: "\"rate\":0"), "the click paused")
    try pressQ(andCheckItQuit: process)
  }

  func testKeepOpen_holdsTheLastFrameUntilEscape_andReportsTheEnd() throws {
    let (process, _) = try start(
      [try sample(), "--duration", "1", "--keep-open"], title: "sample-h264-aac.mp4 - Playhead")
    XCTAssertTrue(process.waitForOutput(containing: "ended"), "the item ends")
    XCTAssertTrue(process.process.isRunning, "the window stays up")
    try XDoTool.run(["key", "Escape"])
    let result = process.wait()
    assertStatus(result, 0)
    XCTAssertTrue(result.stdout.contains("summary"), result.stdout)
    XCTAssertFalse(result.stdout.contains("\nquit\n"), "it had ended: not a quit")
  }

  func testTrackAndChannelKeys_sayWhatTheyChose() throws {
    let (process, _) = try start(
      [try Fixtures.url("dual-subtitles.mkv").path], title: "dual-subtitles.mkv - Playhead")
    XCTAssertTrue(process.waitForOutput(containing: "playing"))
    for key in ["j", "j", "l", "m", "0"] { try XDoTool.run(["key", key]) }
    XCTAssertTrue(process.waitForOutput(containing: "volume:"))
    try XDoTool.run(["key", "q"])
    let result = process.wait()
    assertStatus(result, 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines.contains { $0.hasPrefix("subtitles: English") }, result.stdout)
    XCTAssertTrue(lines.contains { $0.hasPrefix("subtitles: French") }, result.stdout)
    XCTAssertTrue(lines.contains("audio channel: left"), result.stdout)
    XCTAssertTrue(lines.contains("mute: on"), result.stdout)
    XCTAssertTrue(lines.contains("volume: 100%"), result.stdout)
  }

  func testNoWindow_andFastMode_stayHeadless_andWindowWithoutADisplayFails() throws {
    let headless = try CLIRunner.run(
      ["play", try sample(), "--duration", "1", "--no-window", "--quiet"],
      environment: environment)
    assertStatus(headless, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: audioFile.path), "no device opened")
    let noDisplay = try CLIRunner.run(["play", try sample(), "--fast", "--window"])
    XCTAssertNotEqual(noDisplay.status, 0)
    XCTAssertTrue(noDisplay.stderr.contains("window"), noDisplay.stderr)
    let contradiction = try CLIRunner.run(["play", try sample(), "--window", "--no-window"])
    assertStatus(contradiction, 2)
    let unknownRenderer = try CLIRunner.run(["play", try sample(), "--renderer", "vulkan"])
    assertStatus(unknownRenderer, 2)
    XCTAssertTrue(unknownRenderer.stderr.contains("auto, gpu or software"), unknownRenderer.stderr)
    let headlessRenderer = try CLIRunner.run(
      ["play", try sample(), "--no-window", "--renderer", "gpu"])
    assertStatus(headlessRenderer, 2)
  }

  func testEachRendererPlaysToTheEnd() throws {
    for renderer in ["auto", "gpu", "software"] {
      let result = try CLIRunner.run(
        ["play", try sample(), "--duration", "1", "--renderer", renderer, "--json"],
        environment: environment)
      assertStatus(result, 0)
      let summary = try XCTUnwrap(events(result).last, renderer)
      XCTAssertEqual(summary["outcome"] as? String, "ended", renderer)
      XCTAssertGreaterThan(summary["framesRendered"] as? Int ?? 0, 15, renderer)
    }
  }
}
