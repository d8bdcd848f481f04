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
  /// Makes the clip with ffmpeg: `seconds` of 160x120 black at 25 fps, white for the first
  /// frame of each second; silence, with a 1 kHz beep for the first 50 ms of each second.
  private func makeClip(seconds: Int) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-avsync-\(UUID().uuidString).mp4")
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    let process = Process()
    process.executableURL = try XvfbDisplay.executable(named: "ffmpeg")
    process.arguments = [
      "-v", "error", "-y", "-f", "lavfi", "-i",
      "color=c=black:s=160x120:r=25:d=\(seconds),drawbox=x=0:y=0:w=160:h=120:color=white:"
        + "t=fill:enable='lt(mod(t\\,1)\\,0.04)'",
      "-f", "lavfi", "-i",
      "aevalsrc='if(lt(mod(t\\,1)\\,0.05)\\,0.5*sin(2*PI*1000*t)\\,0)':s=48000:d=\(seconds)",
      "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p",
      "-c:a", "aac", "-b:a", "96k", "-shortest", url.path,
    ]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "ffmpeg made the clip")
    return url
  }

  /// The device frame of each beep's first loud sample in the driver's file.
  private func beepOnsets(_ capture: DiskAudioCapture) -> [Int] {
    let data = capture.contents()
    let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    var onsets: [Int] = []
    var quietFrames = Int.max
    for frame in 0..<(samples.count / 2) {
      if abs(Int(samples[frame * 2])) > 3_000 {
        if quietFrames > 24_000 { onsets.append(frame) }
        quietFrames = 0
      } else if quietFrames < Int.max {
        quietFrames += 1
      }
    }
    return onsets
  }

  func testFlashesAndBeeps_stayWithin40Milliseconds_overAMinute() throws {
    let seconds = 60
    let clip = try makeClip(seconds: seconds)
    let capture = DiskAudioCapture()
    let window = try openWindow(size: WindowSize(width: 320, height: 240))
    defer { window.close() }
    let device = try SDLAudioOutput()
    let stamps = DeviceTimeStampingSink(forwardingTo: window, device: device)
    let (player, recorder) = PlayerEventRecorder.recordingPlayer(
      url: clip, configuration: PlayerConfiguration(videoSink: stamps, audioSink: device))
    player.play()
    XCTAssertEqual(recorder.waitForItemEnd(timeoutSeconds: 120)?.name, "didPlayToEnd")
    player.close()

    let flashes = stamps.flashDeviceFrames
    let beeps = beepOnsets(capture)
    XCTAssertEqual(beeps.count, seconds, "a beep heard every second")
    // A flash frame that was late is dropped, as any frame; nearly all must show.
    XCTAssertGreaterThanOrEqual(
      flashes.count, seconds - 3, "flashes presented: \(flashes.keys.sorted())")
    // Both in frames of the clip's sound from its start (the first beep).
    let offsets = flashes.keys.sorted().filter { $0 < beeps.count }.map {
      Double(flashes[$0]! - (beeps[$0] - beeps[0])) / 48  // milliseconds
    }
    let worst = offsets.map(abs).max() ?? .infinity
    print(
      "A/V offset over \(seconds) s: worst \(worst) ms, first \(offsets.first ?? 0) ms, "
        + "last \(offsets.last ?? 0) ms")
    XCTAssertLessThan(worst, 40, "every flash within 40 ms of its beep: \(offsets)")
    let drift = abs((offsets.last ?? 0) - (offsets.first ?? 0))
    XCTAssertLessThan(drift, 40, "no drift of a frame over the minute")
  }
}

/// Forwards frames to a window and notes, for each frame at a whole second of item time
/// (the flashes), which of the clip's sample frames the device was playing then: its
/// played count less its latency.
final class DeviceTimeStampingSink: VideoSink, Sendable {
  private let target: any VideoSink
  private let device: SDLAudioOutput
  private let stamps = Locked<[Int: Int]>([:])

  init(forwardingTo target: any VideoSink, device: SDLAudioOutput) {
    self.target = target
    self.device = device
  }

  /// The sample frame heard when the flash of each second (by its index) was presented.
  var flashDeviceFrames: [Int: Int] { stamps.value }

  func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    try target.present(frame, itemTime: itemTime)
    let ticks = itemTime.convertScale(1000, rounding: .roundHalfAwayFromZero).value
    guard ticks % 1000 == 0 else { return }
    let progress = device.progress()
    let latency = Int(progress.latency.seconds * 48_000)
    stamps.withLock { $0[Int(ticks / 1000)] = progress.playedFrameCount - latency }
  }
}
