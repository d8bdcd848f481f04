import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

/// `Player.volume` and `isMuted` (SPEC P4, P7) scale what reaches the audio sink.
final class VolumeTests: XCTestCase {
  /// Plays the sample to its end with `prepare` applied first; returns the sink.
  private func play(_ prepare: (Player) -> Void) throws -> PeakAudioSink {
    let sink = PeakAudioSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast(audioSink: sink))
    defer { player.close() }
    prepare(player)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    return sink
  }

  func testVolume_scalesEverySample() throws {
    let full = try play { _ in }
    let half = try play { $0.volume = 0.5 }
    XCTAssertEqual(half.frames, full.frames)
    XCTAssertGreaterThan(full.peak, 1000, "the sample has sound")
    XCTAssertEqual(Double(half.peak), Double(full.peak) / 2, accuracy: 1)
    XCTAssertEqual(half.sumOfMagnitudes / full.sumOfMagnitudes, 0.5, accuracy: 0.001)
  }

  func testMute_silencesEverySample_andKeepsTheVolume() throws {
    let muted = try play { player in
      player.volume = 0.8
      player.isMuted = true
      XCTAssertEqual(player.volume, 0.8)
      XCTAssertTrue(player.isMuted)
    }
    XCTAssertGreaterThan(muted.frames, 400_000, "audio still plays through")
    XCTAssertEqual(muted.peak, 0)
  }

  func testVolume_isClampedToZeroThroughOne() throws {
    let player = Player(configuration: .fast())
    defer { player.close() }
    player.volume = 2
    XCTAssertEqual(player.volume, 1)
    player.volume = -1
    XCTAssertEqual(player.volume, 0)
  }

  func testVolumeChangedWhilePlaying_appliesFromThenOn() throws {
    let full = try play { _ in }
    let sink = try play { player in
      let events = DispatchQueue(label: "volume")
      _ = player.addBoundaryTimeObserver(forTimes: [.seconds(5)], queue: events) {
        player.volume = 0.25
      }
    }
    let window = (
      before: (MediaTime.zero, MediaTime.seconds(4)),
      after: (MediaTime.seconds(6), MediaTime.seconds(10))
    )
    XCTAssertEqual(
      sink.peak(from: window.before.0, to: window.before.1),
      full.peak(from: window.before.0, to: window.before.1), "unchanged before the change")
    let reference = Double(full.peak(from: window.after.0, to: window.after.1))
    XCTAssertGreaterThan(reference, 1000)
    XCTAssertEqual(
      Double(sink.peak(from: window.after.0, to: window.after.1)), reference / 4, accuracy: 1)
  }
}

/// An audio sink that keeps the peak and summed magnitude of 16-bit samples by item time.
final class PeakAudioSink: AudioSink, @unchecked Sendable {
  let format = AudioOutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
  private let lock = NSLock()
  private var buffers: [(start: MediaTime, peak: Int, magnitude: Double, frames: Int)] = []

  func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    var peak = 0
    var magnitude = 0.0
    buffer.samples.withUnsafeBytes { raw in
      for sample in raw.bindMemory(to: Int16.self).prefix(buffer.frameCount * 2) {
        let value = abs(Int(sample))
        peak = max(peak, value)
        magnitude += Double(value)
      }
    }
    lock.lock()
    buffers.append((buffer.pts, peak, magnitude, buffer.frameCount))
    lock.unlock()
  }

  func finish() throws(PlayheadError) {}

  private var all: [(start: MediaTime, peak: Int, magnitude: Double, frames: Int)] {
    lock.lock()
    defer { lock.unlock() }
    return buffers
  }

  var frames: Int { all.reduce(0) { $0 + $1.frames } }
  var peak: Int { all.map(\.peak).max() ?? 0 }
  var sumOfMagnitudes: Double { all.reduce(0) { $0 + $1.magnitude } }

  /// The peak of the buffers that start in `[start, end)`.
  func peak(from start: MediaTime, to end: MediaTime) -> Int {
    all.filter { $0.start >= start && $0.start < end }.map(\.peak).max() ?? 0
  }
}
