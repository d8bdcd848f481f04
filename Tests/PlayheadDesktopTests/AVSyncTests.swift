import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// Picture against sound on a real device (issue 13): a clip with a white flash and a beep
/// at every whole second plays into a window with its sound on SDL's disk driver. When a
/// flash frame is presented, the device's own count of the frames it has taken (less its
/// latency) says which sample is being heard; that is compared with where each beep's
/// first loud sample is in what the device played (the driver's file, counted from the
/// first beep, which starts the clip). The device plays in real time (a minute); at twice
/// that speed the worst offset measured was 32 ms, in real time 21 ms (one device buffer).
final class AVSyncTests: WindowTestCase {
  /// The device frame of each beep's first loud sample in the driver's file.
  private func beepOnsets(_ capture: DiskAudioCapture) -> [Int] {
    let data = capture.contents()
    var detector = BeepOnsetDetector(channels: 2)
    detector.feed(data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) })
    return detector.onsets
  }

  func testFlashesAndBeeps_stayWithin40Milliseconds_overAMinute() throws {
    let seconds = 60
    let clip = try FlashBeepClip.make(seconds: seconds)
    addTeardownBlock { try? FileManager.default.removeItem(at: clip) }
    let capture = DiskAudioCapture()
    let window = try openWindow(size: WindowSize(width: 320, height: 240))
    defer { window.close() }
    let device = try SDLAudioOutput()
    let stamps = DeviceTimeStampingSink(forwardingTo: window, device: device)
    let (player, recorder) = PlayerEventRecorder.recordingPlayer(
      url: clip, configuration: PlayerConfiguration(videoSink: stamps, audioSink: device))
    player.play()
    XCTAssertEqual(recorder.waitForItemEnd(timeoutMs: 120_000)?.name, "didPlayToEnd")
    player.close()

    let flashes = stamps.flashDeviceFrames
    let beeps = beepOnsets(capture)
    XCTAssertEqual(beeps.count, seconds, "a beep heard every second")
    // A flash frame that was late is dropped, as any frame; nearly all must show.
    XCTAssertGreaterThanOrEqual(
      flashes.count, seconds - 3, "flashes presented: \(flashes.keys.sorted())")
    // Both in frames of the clip's sound from its start (the first beep).
    let offsets = stamps.offsetsMs(beepOnsets: beeps)
    let worst = offsets.map(abs).max() ?? .infinity
    print(
      "A/V offset over \(seconds) s: worst \(worst) ms, first \(offsets.first ?? 0) ms, "
        + "last \(offsets.last ?? 0) ms")
    XCTAssertLessThan(worst, 40, "every flash within 40 ms of its beep: \(offsets)")
    let drift = abs((offsets.last ?? 0) - (offsets.first ?? 0))
    XCTAssertLessThan(drift, 40, "no drift of a frame over the minute")
  }
}
