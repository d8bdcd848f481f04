import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// Ten minutes of picture against sound on a device clock, fast-forwarded (issue 13): a
/// clip with a white flash and a beep at every whole second plays in fast mode onto a
/// simulated device with latency, which leads the clock as a sound card does (decision
/// 0030). When each flash frame is presented, the device's played count less its latency
/// says which sample is heard; that is compared with where the beep's first loud sample
/// was in what the device was given. Over 600 beeps the offset must not drift by a video
/// frame (40 ms at 25 fps); on this device the mapping is exact to a sample (measured: 0.02
/// ms from the second flash to the last), so the bound is 5 ms. The first flash is left
/// out: the first frame is shown when the item is ready, before the device has played
/// anything (one latency early, as in any player). AVSyncTests runs the real SDL device for
/// a minute in real time.
final class AVDriftTests: XCTestCase {
  /// A simulated device that also finds the beeps in what it is given.
  private final class BeepListeningDevice: ClockedAudioSink, Sendable {
    let device: SimulatedAudioDevice
    private let detector = Locked(BeepOnsetDetector(channels: 2))

    init(device: SimulatedAudioDevice) { self.device = device }

    var format: AudioOutputFormat { device.format }
    var queueTarget: MediaTime { device.queueTarget }
    var onsets: [Int] { detector.value.onsets }

    func write(_ buffer: AudioBuffer) throws(PlayheadError) {
      buffer.samples.withUnsafeBytes { raw in
        let samples = raw.bindMemory(to: Int16.self)
        detector.withLock { $0.feed(samples) }
      }
      try device.write(buffer)
    }

    func finish() throws(PlayheadError) { try device.finish() }
    func progress() -> AudioOutputProgress { device.progress() }
    func setPaused(_ paused: Bool) { device.setPaused(paused) }
    func flush() { device.flush() }
  }

  func testTenMinutes_driftLessThanAFrame() throws {
    let seconds = 600
    let clip = try FlashBeepClip.make(seconds: seconds, width: 64, height: 48)
    addTeardownBlock { try? FileManager.default.removeItem(at: clip) }
    let clock = ManualClock(advancesOnWait: true)
    let device = BeepListeningDevice(
      device: SimulatedAudioDevice(clock: clock, latency: MediaTime(milliseconds: 45)))
    let stamps = DeviceTimeStampingSink(forwardingTo: DiscardVideoSink(), device: device)
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: clip,
      configuration: PlayerConfiguration(clock: clock, videoSink: stamps, audioSink: device))
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForItemEnd(timeoutMs: 300_000)?.name, "didPlayToEnd")

    let beeps = device.onsets
    XCTAssertEqual(beeps.count, seconds, "a beep given to the device every second")
    XCTAssertEqual(stamps.flashDeviceFrames.count, seconds, "every flash presented")
    XCTAssertEqual(player.currentItem?.statistics.framesDropped, 0)
    let offsets = Array(stamps.offsetsMs(beepOnsets: beeps).dropFirst())
    XCTAssertEqual(offsets.count, seconds - 1)
    let worst = offsets.map(abs).max() ?? .infinity
    let drift = (offsets.max() ?? 0) - (offsets.min() ?? 0)
    print(
      "A/V over \(seconds) s on a device clock: worst \(worst) ms, first \(offsets.first ?? 0) ms,"
        + " last \(offsets.last ?? 0) ms, spread \(drift) ms")
    XCTAssertLessThan(worst, 40, "every flash within 40 ms of its beep")
    XCTAssertLessThan(drift, 5, "no drift over ten minutes: \(offsets.suffix(5))")
  }
}
