import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import PlayheadTesting
import XCTest

@testable import PlayheadDesktop

/// The MPRIS2 service on a private session bus (`dbus-daemon` started by the test), driven
/// with `dbus-send` as a desktop's media keys and widgets would: play-pause and seek change
/// the player, the metadata has the title, a second player takes the instance name.
final class MPRISServiceTests: XCTestCase {
  private var bus: PrivateSessionBus!

  override func setUpWithError() throws {
    try super.setUpWithError()
    bus = try PrivateSessionBus()
  }

  override func tearDown() {
    bus?.stop()
    bus = nil
    super.tearDown()
  }

  private func makePlayer() throws -> Player {
    var configuration = PlayerConfiguration()
    configuration.isAudioDisabled = true
    let player = Player(configuration: configuration)
    let recorder = PlayerEventRecorder(player)
    player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4")))
    XCTAssertNotNil(recorder.waitForEvent(named: "readyToPlay"))
    return player
  }

  private func call(_ member: String, _ arguments: [String] = [], on name: String) throws -> String
  {
    try bus.send(
      ["--dest=\(name)", "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player.\(member)"]
        + arguments)
  }

  private func property(_ name: String, of interface: String, on busName: String) throws -> String {
    try bus.send([
      "--dest=\(busName)", "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.Get",
      "string:\(interface)", "string:\(name)",
    ])
  }

  func testPlayPauseSeekAndMetadataFromTheBus() throws {
    let player = try makePlayer()
    defer { player.close() }
    let service = try MPRISService(
      player: player, metadata: { MPRISMetadata(title: "Sample clip") }, busAddress: bus.address)
    defer { service.close() }
    XCTAssertEqual(service.busName, "org.mpris.MediaPlayer2.playhead")
    let name = service.busName
    let playerInterface = "org.mpris.MediaPlayer2.Player"

    XCTAssertTrue(
      try property("PlaybackStatus", of: playerInterface, on: name).contains("\"Paused\""))
    try call("PlayPause", on: name)
    poll("PlayPause played") { player.rate != 0 }
    XCTAssertTrue(
      try property("PlaybackStatus", of: playerInterface, on: name).contains("\"Playing\""))
    try call("Pause", on: name)
    poll("Pause paused") { player.rate == 0 }

    let before = player.currentTime().seconds
    try call("Seek", ["int64:3000000"], on: name)
    poll("Seek moved 3 s ahead") { abs(player.currentTime().seconds - (before + 3)) < 0.5 }
    try call(
      "SetPosition", ["objpath:/org/playhead/track/current", "int64:7000000"], on: name)
    poll("SetPosition went to 7 s") { abs(player.currentTime().seconds - 7) < 0.5 }
    let position = try property("Position", of: playerInterface, on: name)
    XCTAssertTrue(position.contains("int64 7"), position)

    let metadata = try property("Metadata", of: playerInterface, on: name)
    XCTAssertTrue(metadata.contains("xesam:title"), metadata)
    XCTAssertTrue(metadata.contains("Sample clip"), metadata)
    XCTAssertTrue(metadata.contains("mpris:length"), metadata)
    XCTAssertTrue(metadata.contains("int64 10000000"), "10 s in microseconds: \(metadata)")
    let identity = try property("Identity", of: "org.mpris.MediaPlayer2", on: name)
    XCTAssertTrue(identity.contains("\"Playhead\""), identity)

    XCTAssertThrowsError(try call("Rewind", on: name), "an unknown method is an error")
    let introspection = try bus.send([
      "--dest=\(name)", "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Introspectable.Introspect",
    ])
    XCTAssertTrue(introspection.contains("org.mpris.MediaPlayer2.Player"), introspection)
  }

  func testASecondPlayerTakesTheInstanceName_andQuitReachesTheHandler() throws {
    let first = try makePlayer()
    defer { first.close() }
    let second = try makePlayer()
    defer { second.close() }
    let one = try MPRISService(
      player: first, metadata: { MPRISMetadata() }, busAddress: bus.address)
    defer { one.close() }
    let quit = expectation(description: "Quit reached the handler")
    let two = try MPRISService(
      player: second, metadata: { MPRISMetadata() },
      handlers: MPRISHandlers(quit: { quit.fulfill() }), busAddress: bus.address)
    defer { two.close() }
    XCTAssertEqual(two.busName, "org.mpris.MediaPlayer2.playhead.instance\(getpid())")
    try call("Play", on: two.busName)
    poll("the second player plays") { second.rate != 0 }
    XCTAssertEqual(first.rate, 0, "the first is left alone")
    let canQuit = try property("CanQuit", of: "org.mpris.MediaPlayer2", on: two.busName)
    XCTAssertTrue(canQuit.contains("boolean true"), canQuit)
    try bus.send([
      "--dest=\(two.busName)", "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Quit",
    ])
    wait(for: [quit], timeout: 10)
  }
}
