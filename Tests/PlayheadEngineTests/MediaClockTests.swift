import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// The media clock (issue 12 §2, docs/decisions/0030): with an audio device that plays on a
/// clock of its own (`ClockedAudioSink`) the playback position follows what the device has
/// played, less its latency, and video is presented against it; with a plain sink the
/// player's clock leads. Every run is on a fast `ManualClock` with a `SimulatedAudioDevice`.
final class MediaClockTests: XCTestCase {
  private let frame = MediaTime(value: 1, timescale: 25)

  private struct Run {
    var frames: [ClockStampingVideoSink.Stamp]
    var dropped: Int
    var events: [String]
  }

  /// Plays the 10 s sample to its end with `audioSink` (a device on `clock`, or nil for a
  /// plain sink); `configure` may change the player before it plays.
  private func play(
    clock: ManualClock, device: SimulatedAudioDevice?,
    onFrame: @escaping @Sendable (MediaTime) -> Void = { _ in },
    configure: (Player) -> Void = { _ in }
  ) throws -> Run {
    let sink = ClockStampingVideoSink(clock: clock, onFrame: onFrame)
    let configuration = PlayerConfiguration(
      clock: clock, videoSink: sink, audioSink: device ?? DiscardAudioSink())
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: configuration)
    defer { player.close() }
    configure(player)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    return Run(
      frames: sink.stamps, dropped: player.currentItem?.statistics.framesDropped ?? -1,
      events: recorder.names)
  }

  /// How much later than the player's clock (from the first frame) each frame after
  /// `from` was shown: clock time since the first frame, less item time, at `speed`.
  private func lag(of run: Run, from: MediaTime, speed: Double = 1) -> [Double] {
    guard let first = run.frames.first else { return [] }
    return run.frames.filter { $0.itemTime >= from }.map { stamp in
      (stamp.clock - first.clock).seconds - stamp.itemTime.seconds / speed
    }
  }

  func testADeviceThatRunsFast_leadsThePosition() throws {
    let clock = ManualClock(advancesOnWait: true)
    let run = try play(clock: clock, device: SimulatedAudioDevice(clock: clock, speed: 1.05))
    let lags = lag(of: run, from: .seconds(1), speed: 1.05)
    XCTAssertFalse(lags.isEmpty)
    // Item time runs 5 % ahead of the clock: 9 s of media take 8.57 s.
    XCTAssertLessThan(lags.map(abs).max() ?? 1, 2 * frame.seconds, "frames follow the device")

    let plainClock = ManualClock(advancesOnWait: true)
    let plain = try play(clock: plainClock, device: nil)
    XCTAssertLessThan(lag(of: plain, from: .seconds(1)).map(abs).max() ?? 1, frame.seconds)
    let last = try XCTUnwrap(run.frames.last)
    let plainLast = try XCTUnwrap(plain.frames.last)
    XCTAssertLessThan(
      (last.clock - run.frames[0].clock).seconds,
      (plainLast.clock - plain.frames[0].clock).seconds - 0.3,
      "with the device 5 % fast the item ends sooner on the clock")
  }

  func testTheDevicesLatency_delaysThePicture() throws {
    let clock = ManualClock(advancesOnWait: true)
    let latency = MediaTime(milliseconds: 200)
    let run = try play(clock: clock, device: SimulatedAudioDevice(clock: clock, latency: latency))
    // The first frame shows at once; the ones after it wait until their audio is heard.
    let lags = lag(of: run, from: .seconds(1))
    XCTAssertFalse(lags.isEmpty)
    for value in lags { XCTAssertEqual(value, latency.seconds, accuracy: frame.seconds) }
  }

  func testAHungDevice_holdsThePosition_withoutAStall() throws {
    let clock = ManualClock(advancesOnWait: true)
    let device = SimulatedAudioDevice(clock: clock)
    let heldAt = Locked<MediaTime?>(nil)
    let hang = MediaTime(value: 2, timescale: 1)
    let run = try play(
      clock: clock, device: device,
      onFrame: { itemTime in
        guard itemTime >= .seconds(3), heldAt.value == nil else { return }
        device.holdPlayback(true)
        heldAt.withLock { $0 = clock.now }
        // A worker of the clock lets the device go on after two seconds of clock time.
        clock.startThread(named: "device-release", stackSize: 1 << 18) {
          clock.wait(until: clock.now + hang, orUntil: WakeSignal())
          device.holdPlayback(false)
        }
      })
    let held = try XCTUnwrap(heldAt.value)
    let after = try XCTUnwrap(run.frames.first { $0.clock > held })
    XCTAssertGreaterThanOrEqual(after.clock - held, hang, "no frame while the device is hung")
    XCTAssertLessThan(after.itemTime, .seconds(3) + frame + frame, "the position waited")
    XCTAssertFalse(run.events.contains("playbackStalled"), "a device that holds is not a stall")
    XCTAssertEqual(run.dropped, 0)
  }

  func testPauseAndSeek_driveTheDevice_andAudioIsWrittenAhead() throws {
    let clock = ManualClock(advancesOnWait: true)
    let device = SimulatedAudioDevice(clock: clock)
    let queued = Locked<[Int]>([])
    let run = try play(
      clock: clock, device: device,
      onFrame: { itemTime in
        guard itemTime >= .seconds(1), itemTime < MediaTime(value: 19, timescale: 10) else {
          return
        }
        queued.withLock { $0.append(device.queuedFrameCount) }
      },
      configure: { player in
        _ = player.addBoundaryTimeObserver(forTimes: [.seconds(2)], queue: .global()) {
          player.pause()
          player.seek(to: .seconds(6)) { _ in player.play() }
        }
      })
    let changes = device.pauseChanges
    XCTAssertEqual(changes.first, false, "the device starts when playback does")
    XCTAssertEqual(Array(changes.prefix(3)), [false, true, false], "paused, then on again")
    XCTAssertGreaterThanOrEqual(device.flushCount, 2, "the first write and the seek flush it")
    // What is queued stays near the target (0.2 s, plus one buffer), and is not nothing.
    let middle = queued.value
    XCTAssertFalse(middle.isEmpty)
    XCTAssertLessThanOrEqual(middle.max() ?? .max, 48_000 * 3 / 10)
    XCTAssertGreaterThan(middle.min() ?? 0, 0)
    XCTAssertTrue(run.frames.contains { $0.itemTime >= .seconds(6) })
    XCTAssertFalse(run.frames.contains { $0.itemTime > .seconds(3) && $0.itemTime < .seconds(5) })
  }

  func testAPictureThatFreezes_whileTheDevicePlaysOn_dropsTheFramesItMissed() throws {
    let clock = ManualClock(advancesOnWait: true)
    // Two seconds written ahead: the device does not run dry while the picture is stuck.
    let device = SimulatedAudioDevice(clock: clock, queueTarget: .seconds(2))
    let frozen = Locked(false)
    let run = try play(
      clock: clock, device: device,
      onFrame: { itemTime in
        guard itemTime >= .seconds(3), !frozen.value else { return }
        frozen.withLock { $0 = true }
        clock.advance(by: .seconds(1))
      })
    XCTAssertEqual(run.frames.count + run.dropped, 250, "every frame is shown or dropped")
    XCTAssertEqual(Double(run.dropped), 25, accuracy: 3, "the second the picture missed")
    let after = try XCTUnwrap(run.frames.first { $0.itemTime > .seconds(3) })
    XCTAssertEqual(after.itemTime.seconds, 4, accuracy: 2 * frame.seconds, "back with the sound")
    // The decoder, six frames behind the sound, catches up in one wait.
    XCTAssertLessThanOrEqual(run.events.filter { $0 == "playbackStalled" }.count, 1)
  }

  func testTheRateStage_withADevice_playsTwiceAsFast() throws {
    let clock = ManualClock(advancesOnWait: true)
    let run = try play(
      clock: clock, device: SimulatedAudioDevice(clock: clock),
      configure: { $0.defaultRate = 2 })
    let lags = lag(of: run, from: .seconds(1), speed: 2)
    XCTAssertFalse(lags.isEmpty)
    XCTAssertLessThan(lags.map(abs).max() ?? 1, 3 * frame.seconds)
  }

  func testAFastRunWithADevice_isTheSameEveryTime() throws {
    var first: [String]?
    for _ in 0..<3 {
      let clock = ManualClock(advancesOnWait: true)
      let run = try play(
        clock: clock,
        device: SimulatedAudioDevice(clock: clock, latency: MediaTime(milliseconds: 40)))
      // The events up to the end (those after it may arrive after the wait returned).
      let events = run.events.prefix { $0 != "didPlayToEnd" }
      let text = run.frames.map { "\($0.clock.seconds) \($0.itemTime.seconds)" } + events
      if let first { XCTAssertEqual(text, first) } else { first = text }
    }
  }
}

/// A video sink that stamps every presented frame with the clock time it was shown at (it
/// runs on the playback thread, inside the step that presents the frame).
final class ClockStampingVideoSink: VideoSink, Sendable {
  struct Stamp: Sendable {
    var clock: MediaTime
    var itemTime: MediaTime
  }

  private let clock: any Clock
  private let onFrame: @Sendable (MediaTime) -> Void
  private let records = Locked<[Stamp]>([])

  init(clock: any Clock, onFrame: @escaping @Sendable (MediaTime) -> Void) {
    self.clock = clock
    self.onFrame = onFrame
  }

  var stamps: [Stamp] { records.value }

  func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    let stamp = Stamp(clock: clock.now, itemTime: itemTime)
    records.withLock { $0.append(stamp) }
    onFrame(itemTime)
  }
}
