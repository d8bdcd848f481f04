import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

final class SDLAudioOutputTests: XCTestCase {
  private let stereo16 = AudioOutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)

  override func tearDown() {
    XCTAssertEqual(
      SDLRuntime.shared.userCount(of: .audio), 0, "every test must close its audio devices")
    super.tearDown()
  }

  func testDiskDevice_grantsTheFormatAndStartsPaused() throws {
    let capture = DiskAudioCapture()
    let output = try SDLAudioOutput(format: stereo16)
    defer { try? output.finish() }
    XCTAssertEqual(output.driverName, "disk")
    XCTAssertEqual(output.format, stereo16)
    XCTAssertEqual(output.bufferFrameCount, 1024)
    XCTAssertTrue(output.isPaused)
    XCTAssertEqual(
      output.progress(),
      AudioOutputProgress(playedFrameCount: 0, latency: MediaTime(value: 1024, timescale: 48_000)))
    _ = capture
  }

  func testWrittenTone_reachesTheDeviceInOrder_progressRisesToTheWrittenCount() throws {
    let capture = DiskAudioCapture()
    let output = try SDLAudioOutput(format: stereo16)
    defer { try? output.finish() }
    let tone = TestTone.stereoInt16(frames: 12_000)
    try write(tone, to: output, chunkFrames: 1000)
    XCTAssertEqual(output.queuedFrameCount, 12_000)
    XCTAssertEqual(output.progress().playedFrameCount, 0, "a paused device plays nothing")

    output.setPaused(false)
    var seen: [Int] = []
    DiskAudioCapture.poll("the whole tone to be played") {
      seen.append(output.progress().playedFrameCount)
      return seen.last == 12_000
    }
    XCTAssertEqual(seen, seen.sorted(), "the played count never goes back")
    XCTAssertTrue(seen.allSatisfy { $0 <= 12_000 }, "never more than was written")
    XCTAssertGreaterThan(Set(seen).count, 2, "the count rises buffer by buffer")
    DiskAudioCapture.poll("the tone to reach the file") {
      capture.audibleBytes(bytesPerFrame: 4).count >= tone.count
    }
    XCTAssertEqual(capture.audibleBytes(bytesPerFrame: 4), tone)
  }

  func testPause_stopsTheToneAndTheCount_resumeCarriesOn() throws {
    let capture = DiskAudioCapture()
    let output = try SDLAudioOutput(format: stereo16)
    defer { try? output.finish() }
    let tone = TestTone.stereoInt16(frames: 24_000)
    try write(tone, to: output, chunkFrames: 4800)
    output.setPaused(false)
    DiskAudioCapture.poll("some tone to be played") {
      output.progress().playedFrameCount >= 4096
    }
    output.setPaused(true)
    let playedAtPause = output.progress().playedFrameCount
    XCTAssertLessThan(playedAtPause, 24_000)
    // The disk driver writes silence while paused (through a stdio buffer of up to 8 KiB):
    // once five more device buffers reached the file, the last one of tone has too.
    let lengthAtPause = capture.byteCount
    DiskAudioCapture.poll("the paused device to write silence") {
      capture.byteCount >= lengthAtPause + 5 * 4096
    }
    XCTAssertEqual(output.progress().playedFrameCount, playedAtPause)
    XCTAssertEqual(
      capture.audibleBytes(bytesPerFrame: 4), tone.prefix(playedAtPause * 4),
      "the file holds exactly the frames counted as played, then silence")

    output.setPaused(false)
    DiskAudioCapture.poll("the rest of the tone") {
      output.progress().playedFrameCount == 24_000
        && capture.audibleBytes(bytesPerFrame: 4).count == tone.count
    }
    XCTAssertEqual(capture.audibleBytes(bytesPerFrame: 4), tone)
  }

  func testFlush_dropsTheQueueAndRestartsTheCount() throws {
    let capture = DiskAudioCapture()
    let output = try SDLAudioOutput(format: stereo16)
    defer { try? output.finish() }
    let first = TestTone.stereoInt16(frames: 48_000, seed: 1)
    try write(first, to: output, chunkFrames: 4800)
    output.setPaused(false)
    DiskAudioCapture.poll("some of the first tone to be played") {
      output.progress().playedFrameCount >= 2048
    }
    output.flush()
    XCTAssertEqual(output.progress().playedFrameCount, 0)
    XCTAssertEqual(output.queuedFrameCount, 0)
    XCTAssertEqual(output.totalWrittenFrameCount, 48_000)

    let second = TestTone.stereoInt16(frames: 6000, seed: 2)
    try write(second, to: output, chunkFrames: 1200)
    DiskAudioCapture.poll("the second tone to be played") {
      output.progress().playedFrameCount == 6000
        && capture.audibleBytes(bytesPerFrame: 4).suffix(second.count) == second
    }
    let audible = capture.audibleBytes(bytesPerFrame: 4)
    let before = audible.prefix(audible.count - second.count)
    XCTAssertGreaterThanOrEqual(before.count, 2048 * 4)
    XCTAssertLessThan(before.count, first.count, "the flushed rest never played")
    XCTAssertEqual(before, first.prefix(before.count), "what played of the first tone, in order")
  }

  func testFinish_closesTheDevice_writesThenThrow() throws {
    let capture = DiskAudioCapture()
    let output = try SDLAudioOutput(format: stereo16)
    XCTAssertEqual(SDLRuntime.shared.userCount(of: .audio), 1)
    try output.finish()
    try output.finish()
    XCTAssertEqual(SDLRuntime.shared.userCount(of: .audio), 0)
    let buffer = AudioBuffer(
      format: stereo16, samples: TestTone.stereoInt16(frames: 10), frameCount: 10, pts: .zero)
    XCTAssertThrowsError(try output.write(buffer)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidState)
    }
    _ = capture
  }

  func testFloat32_isGranted_andItsSamplesReachTheDevice() throws {
    let capture = DiskAudioCapture()
    let float32 = AudioOutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .float32)
    let output = try SDLAudioOutput(format: float32)
    defer { try? output.finish() }
    XCTAssertEqual(output.format, float32)
    var samples = [Float](repeating: 0, count: 4800 * 2)
    for index in samples.indices { samples[index] = Float(index % 200 + 1) / 400 }
    let tone = samples.withUnsafeBytes { Data($0) }
    try output.write(AudioBuffer(format: float32, samples: tone, frameCount: 4800, pts: .zero))
    output.setPaused(false)
    DiskAudioCapture.poll("the float tone to be played and written") {
      output.progress().playedFrameCount == 4800
        && capture.audibleBytes(bytesPerFrame: 8).count >= tone.count
    }
    XCTAssertEqual(capture.audibleBytes(bytesPerFrame: 8), tone)
  }

  func testNoDriver_throwsWithSDLsMessage() {
    setenv("SDL_AUDIODRIVER", "no-such-driver", 1)
    defer { unsetenv("SDL_AUDIODRIVER") }
    XCTAssertThrowsError(try SDLAudioOutput()) { error in
      let error = error as? PlayheadError
      XCTAssertEqual(error?.code, .ioError)
      XCTAssertTrue(
        error?.message.contains("no-such-driver") ?? false, error?.message ?? "no message")
    }
  }

  func testWrongFormat_isRefused() throws {
    let capture = DiskAudioCapture()
    let output = try SDLAudioOutput(format: stereo16)
    defer { try? output.finish() }
    let mono = AudioOutputFormat(sampleRate: 48_000, channels: 1, sampleFormat: .int16)
    let buffer = AudioBuffer(format: mono, samples: Data(count: 20), frameCount: 10, pts: .zero)
    XCTAssertThrowsError(try output.write(buffer)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
    }
    _ = capture
  }

  /// Writes `samples` (stereo int16) in buffers of `chunkFrames` frames.
  private func write(_ samples: Data, to output: SDLAudioOutput, chunkFrames: Int) throws {
    let bytesPerFrame = 4
    var offset = 0
    while offset < samples.count {
      let end = min(samples.count, offset + chunkFrames * bytesPerFrame)
      let chunk = samples.subdata(in: offset..<end)
      try output.write(
        AudioBuffer(
          format: stereo16, samples: chunk, frameCount: chunk.count / bytesPerFrame, pts: .zero))
      offset = end
    }
  }
}
