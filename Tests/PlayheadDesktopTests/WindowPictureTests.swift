import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// The window shows the right picture (issue 13): a clip whose colours change each second
/// (colour bars turned 45° in hue per second, made with ffmpeg) is paused at known times,
/// and the captured window is compared with the decoded frame laid out by the engine's
/// converter for the same gravity and size, under each gravity and with the alpha clip.
final class WindowPictureTests: WindowTestCase {
  /// Makes the 8 s clip whose hue turns by 45° each second.
  private func hueClip() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-hue-\(UUID().uuidString).mp4")
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    let process = Process()
    process.executableURL = try XvfbDisplay.executable(named: "ffmpeg")
    process.arguments = [
      "-v", "error", "-y", "-f", "lavfi", "-i",
      "smptebars=s=320x240:r=25:d=8,hue=H=2*PI*floor(t)/8", "-c:v", "libx264", "-preset",
      "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", url.path,
    ]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "ffmpeg made the clip")
    return url
  }

  /// `image` composited over black (the window's background), opaque.
  private func overBlack(_ image: RGBAImage) -> RGBAImage {
    var pixels = image.pixels
    for offset in stride(from: 0, to: pixels.count, by: 4) {
      let alpha = Int(pixels[offset + 3])
      for channel in 0..<3 {
        pixels[offset + channel] = UInt8(Int(pixels[offset + channel]) * alpha / 255)
      }
      pixels[offset + 3] = 255
    }
    return RGBAImage(width: image.width, height: image.height, pixels: pixels)
  }

  /// Checks the window drawn by each renderer: SDL's software renderer (what `.automatic`
  /// chooses on Xvfb, whose OpenGL is llvmpipe) and the OpenGL one.
  private func check(
    clip: URL, gravity: VideoGravity, alphaMode: AlphaRenderMode = .none,
    times: [Double], file: StaticString = #filePath, line: UInt = #line
  ) throws {
    for rendering in [WindowRendering.software, .accelerated] {
      try check(
        clip: clip, gravity: gravity, alphaMode: alphaMode, rendering: rendering, times: times,
        file: file, line: line)
    }
  }

  private func check(
    clip: URL, gravity: VideoGravity, alphaMode: AlphaRenderMode, rendering: WindowRendering,
    times: [Double], file: StaticString, line: UInt
  ) throws {
    let size = WindowSize(width: 480, height: 200)
    let window = try WindowVideoSink(
      options: WindowOptions(
        title: "playhead-picture-\(UUID().uuidString.prefix(8))", size: size, gravity: gravity,
        background: .black, alphaMode: alphaMode, rendering: rendering))
    defer { window.close() }
    var configuration = PlayerConfiguration(videoSink: window)
    configuration.isAudioDisabled = true
    let player = Player(configuration: configuration)
    defer { player.close() }
    let recorder = PlayerEventRecorder(player)
    player.replaceCurrentItem(with: PlayerItem(url: clip))
    XCTAssertNotNil(recorder.waitForEvent(named: "readyToPlay"), file: file, line: line)
    for time in times {
      let done = expectation(description: "seek to \(time)")
      player.seek(to: MediaTime(seconds: time, preferredTimescale: 1000)) { _ in done.fulfill() }
      wait(for: [done], timeout: 30)
      let expected = overBlack(
        try PNGCodec.decode(
          try player.snapshot(
            width: size.width, height: size.height, gravity: gravity, alphaMode: alphaMode)))
      var shown: RGBAImage?
      poll("the frame at \(time) s drawn", file: file, line: line) {
        shown = window.snapshot()
        return (shown.flatMap { expected.meanAbsoluteDifference(to: $0) } ?? 255) < 8
      }
      let difference = shown.flatMap { expected.meanAbsoluteDifference(to: $0) } ?? 255
      XCTAssertLessThan(
        difference, 8,
        "\(clip.lastPathComponent) \(gravity), \(rendering) at \(time) s: mean difference",
        file: file,
        line: line)
    }
  }

  func testFit_showsTheDecodedFrames() throws {
    try check(clip: try hueClip(), gravity: .fit, times: [1.5, 4.5, 7.5])
  }

  func testFill_showsTheDecodedFrames() throws {
    try check(clip: try hueClip(), gravity: .fill, times: [2.5, 6.5])
  }

  func testStretch_showsTheDecodedFrames() throws {
    try check(clip: try hueClip(), gravity: .stretch, times: [0.5, 5.5])
  }

  func testAlphaClip_showsTheCompositedFrames() throws {
    try check(
      clip: try Fixtures.url("alpha-left.mp4"), gravity: .fit, alphaMode: .alphaLeft,
      times: [0.5, 1.5])
  }

  func testTheComparisonCanFail_anotherTimeDiffers() throws {
    // The bound is meaningful: the frame of another second is far from it.
    let window = try openWindow(size: WindowSize(width: 480, height: 200), background: .black)
    defer { window.close() }
    var configuration = PlayerConfiguration(videoSink: window)
    configuration.isAudioDisabled = true
    let player = Player(configuration: configuration)
    defer { player.close() }
    let recorder = PlayerEventRecorder(player)
    player.replaceCurrentItem(with: PlayerItem(url: try hueClip()))
    XCTAssertNotNil(recorder.waitForEvent(named: "readyToPlay"))
    let seekDone = expectation(description: "seek")
    player.seek(to: MediaTime(value: 2, timescale: 1)) { _ in seekDone.fulfill() }
    wait(for: [seekDone], timeout: 30)
    let atTwo = try PNGCodec.decode(try player.snapshot(width: 480, height: 200, gravity: .fit))
    let later = expectation(description: "seek later")
    player.seek(to: MediaTime(value: 5, timescale: 1)) { _ in later.fulfill() }
    wait(for: [later], timeout: 30)
    poll("the later frame, far from the one at 2 s") {
      (window.snapshot().flatMap { atTwo.meanAbsoluteDifference(to: $0) } ?? 0) > 16
    }
  }
}
