import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play` in a window on a desktop with a session bus offers MPRIS2 (issue 14):
/// `dbus-send` on a private bus pauses it, reads its title and quits it, as media keys
/// and desktop widgets do.
final class MPRISCommandTests: XCTestCase {
  func testPlayPauseMetadataAndQuitFromTheBus() throws {
    let display = try XvfbDisplay()
    defer { display.stop() }
    let bus = try PrivateSessionBus()
    defer { bus.stop() }
    let folder = try makeTemporaryDirectory()
    let process = try CLIRunner.start(
      ["play", try Fixtures.url("sample-h264-aac.mp4").path, "--json"],
      environment: [
        "DISPLAY": display.name, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "disk",
        "SDL_DISKAUDIOFILE": folder.appendingPathComponent("device.raw").path,
        "DBUS_SESSION_BUS_ADDRESS": bus.address,
      ])
    XCTAssertTrue(process.waitForOutput(containing: "\"firstFrame\""), "playing")
    let name = "org.mpris.MediaPlayer2.playhead"
    let path = "/org/mpris/MediaPlayer2"
    try bus.send(["--dest=\(name)", path, "org.mpris.MediaPlayer2.Player.PlayPause"])
    XCTAssertTrue(process.waitForOutput(containing: "\"rate\":0"), "PlayPause paused")
    let metadata = try bus.send([
      "--dest=\(name)", path, "org.freedesktop.DBus.Properties.Get",
      "string:org.mpris.MediaPlayer2.Player", "string:Metadata",
    ])
    XCTAssertTrue(metadata.contains("sample-h264-aac.mp4"), "the title: \(metadata)")
    let status = try bus.send([
      "--dest=\(name)", path, "org.freedesktop.DBus.Properties.Get",
      "string:org.mpris.MediaPlayer2.Player", "string:PlaybackStatus",
    ])
    XCTAssertTrue(status.contains("\"Paused\""), status)
    try bus.send(["--dest=\(name)", path, "org.mpris.MediaPlayer2.Quit"])
    let result = process.wait()
    assertStatus(result, 0)
    XCTAssertEqual(result.jsonLines().last?["outcome"] as? String, "quit")
  }
}
