import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

/// The audio enhancement filters and the output channel through the player (SPEC P8, seed
/// 003's `audioEnhance` filter and `outputAudioChannel`): what reaches the sink, set before
/// and while playing. The sample has 440 Hz on the left and 660 Hz on the right.
final class AudioEnhancementPlaybackTests: XCTestCase {
  /// Plays the 10 s sample to its end in fast mode with `prepare` applied first.
  private func play(
    url: URL? = nil, configure: (inout PlayerConfiguration) -> Void = { _ in },
    prepare: (Player) -> Void = { _ in }
  ) throws -> SampleCollectingAudioSink {
    let sink = SampleCollectingAudioSink()
    var configuration = PlayerConfiguration.fast(audioSink: sink)
    configure(&configuration)
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try url ?? Fixtures.url("sample-h264-aac.mp4"), configuration: configuration)
    defer { player.close() }
    prepare(player)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    return sink
  }

  /// Writes a 48 kHz stereo WAV file of `seconds` from a function of (frame, channel).
  private func makeWAV(seconds: Double, _ sample: (Int, Int) -> Double) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-enhancement-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("signal.wav")
    let format = AudioOutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
    let sink = try WAVAudioSink(url: url, format: format)
    let frames = Int(seconds * 48_000)
    var values: [Int16] = []
    values.reserveCapacity(frames * 2)
    for frame in 0..<frames {
      for channel in 0..<2 {
        values.append(Int16(max(-1, min(1, sample(frame, channel))) * 32_000))
      }
    }
    let data = values.withUnsafeBufferPointer { Data(buffer: $0) }
    try sink.write(AudioBuffer(format: format, samples: data, frameCount: frames, pts: .zero))
    try sink.finish()
    return url
  }

  /// A deterministic noise in -1…1, different on each channel.
  static func noise(_ frame: Int, _ channel: Int) -> Double {
    var state = UInt64(frame &* 2 &+ channel &+ 1) &* 6_364_136_223_846_793_005
    state ^= state >> 29
    state = state &* 0xbf58_476d_1ce4_e5b9
    state ^= state >> 32
    return Double(state % 20_001) / 10_000 - 1
  }

  /// Changes the player at `time` of item time (applied within the next second).
  private func at(_ time: MediaTime, _ player: Player, _ change: @escaping @Sendable () -> Void) {
    let queue = DispatchQueue(label: "audio-enhancement-test")
    _ = player.addBoundaryTimeObserver(forTimes: [time], queue: queue, using: change)
  }

  func testSurround_widensTheSides_andTheAudioKeepsItsLength() throws {
    let plain = try play()
    let wide = try play(configure: { $0.audioEnhancement = AudioEnhancement(surround: .threeD) })
    XCTAssertEqual(wide.frameCount, plain.frameCount, "what the filters held back is heard")
    let window = (from: 1.0, to: 9.0)
    let ratio = wide.sideOverMid(window) / plain.sideOverMid(window)
    XCTAssertGreaterThan(ratio, 1.5, "side energy raised against the centre")
  }

  func testDialogueEnhancement_raisesTheCentre() throws {
    // Voice-like content in the centre (the same on both sides) under uncorrelated noise.
    let url = try makeWAV(seconds: 6) { frame, channel in
      let t = Double(frame) / 48_000
      let voice = 0.3 * sin(2 * .pi * 220 * t) * (0.6 + 0.4 * sin(2 * .pi * 3 * t))
      return voice + 0.2 * Self.noise(frame, channel)
    }
    let plain = try play(url: url)
    let dialogue = try play(
      url: url, configure: { $0.audioEnhancement = AudioEnhancement(dialogueVoiceLevel: 10) })
    XCTAssertEqual(dialogue.frameCount, plain.frameCount)
    let window = (from: 1.0, to: 5.0)
    XCTAssertLessThan(
      dialogue.sideOverMid(window), plain.sideOverMid(window) * 0.8, "centre raised")
  }

  func testNormalizer_narrowsTheLoudnessRange() throws {
    // A tone that alternates loud and quiet every second.
    let url = try makeWAV(seconds: 8) { frame, _ in
      let t = Double(frame) / 48_000
      return (Int(t) % 2 == 0 ? 0.5 : 0.05) * sin(2 * .pi * 440 * t)
    }
    let plain = try play(url: url)
    let normalized = try play(
      url: url, configure: { $0.audioEnhancement = AudioEnhancement(normalizesVolume: true) })
    XCTAssertEqual(normalized.frameCount, plain.frameCount)
    // Loud seconds over quiet seconds, skipping the normaliser's first seconds.
    func range(_ sink: SampleCollectingAudioSink) -> Double {
      sink.rms((4.2, 4.8)) / sink.rms((5.2, 5.8))
    }
    XCTAssertEqual(range(plain), 10, accuracy: 0.5)
    XCTAssertLessThan(range(normalized), range(plain) / 2, "loudness range narrowed")
  }

  func testTurningTheFiltersOffWhilePlaying_givesTheUntouchedAudioFromThenOn() throws {
    let plain = try play()
    let sink = try play(
      configure: { $0.audioEnhancement = AudioEnhancement(surround: .threeD) },
      prepare: { player in
        XCTAssertTrue(player.isAudioEnhancementEnabled)
        self.at(.seconds(4), player) { player.isAudioEnhancementEnabled = false }
      })
    XCTAssertEqual(sink.frameCount, plain.frameCount)
    XCTAssertNotEqual(sink.samples((1, 3)), plain.samples((1, 3)), "on before the change")
    XCTAssertEqual(sink.samples((5.5, 10)), plain.samples((5.5, 10)), "bit-exact once off")
  }

  func testOptionsSetWhilePlaying_applyFromThenOn_andTheFirstOptionsHold() throws {
    let plain = try play()
    let sink = try play(prepare: { player in
      XCTAssertEqual(player.audioEnhancement, .none)
      self.at(.seconds(4), player) { player.audioEnhancement = AudioEnhancement(surround: .threeD) }
    })
    XCTAssertEqual(sink.frameCount, plain.frameCount)
    XCTAssertEqual(sink.samples((0, 3.5)), plain.samples((0, 3.5)), "untouched before")
    XCTAssertGreaterThan(
      sink.sideOverMid((6, 9)) / plain.sideOverMid((6, 9)), 1.5, "widened after")
  }

  func testOutputChannel_leftOrRight_silencesTheOtherSide_andChangesWhilePlaying() throws {
    let plain = try play()
    let left = try play(configure: { $0.audioOutputChannel = .left })
    XCTAssertEqual(left.channel(0, (0, 10)), plain.channel(0, (0, 10)), "the left as it was")
    XCTAssertTrue(left.channel(1, (0, 10)).allSatisfy { $0 == 0 }, "the right silent")

    let switched = try play(prepare: { player in
      XCTAssertEqual(player.audioOutputChannel, .both)
      self.at(.seconds(4), player) { player.audioOutputChannel = .right }
    })
    XCTAssertEqual(switched.samples((0, 3.5)), plain.samples((0, 3.5)))
    XCTAssertTrue(switched.channel(0, (5, 10)).allSatisfy { $0 == 0 }, "the left silent")
    XCTAssertEqual(switched.channel(1, (5, 10)), plain.channel(1, (5, 10)))
  }

  func testTheFiltersLookAhead_doesNotMovePictureAgainstSound() throws {
    // On a device clock, the position follows what is heard: with filters that hold audio
    // back, each frame still shows when the audio of its time is heard.
    /// When (clock seconds after the first frame) the last frame up to 8 s showed, and its
    /// item time.
    func lateFrame(_ enhancement: AudioEnhancement) throws -> (shown: Double, itemTime: Double) {
      let clock = ManualClock(advancesOnWait: true)
      let video = ClockStampingVideoSink(clock: clock, onFrame: { _ in })
      let device = SimulatedAudioDevice(clock: clock)
      var configuration = PlayerConfiguration(clock: clock, videoSink: video, audioSink: device)
      configuration.audioEnhancement = enhancement
      let (player, recorder) = EventRecorder.recordingPlayer(
        url: try Fixtures.url("sample-h264-aac.mp4"), configuration: configuration)
      defer { player.close() }
      player.play()
      XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
      let stamps = video.stamps
      let first = try XCTUnwrap(stamps.first)
      let late = try XCTUnwrap(stamps.last { $0.itemTime <= .seconds(8) })
      return ((late.clock - first.clock).seconds, late.itemTime.seconds)
    }
    let plain = try lateFrame(.none)
    let filtered = try lateFrame(AudioEnhancement(normalizesVolume: true, surround: .threeD))
    XCTAssertEqual(plain.itemTime, filtered.itemTime)
    // Without compensation every frame would show the normaliser's look-ahead (0.3 s and
    // more) early.
    XCTAssertEqual(filtered.shown, plain.shown, accuracy: 0.045, "frames wait for their audio")
  }

  func testFiltersOnADeviceClock_withFewFramesDecodedAhead_playToTheEnd() throws {
    // The audio output holds its filters' tail until it learns that the audio ended; the
    // video, two frames ahead, drains the last frames out of its decoder only as the
    // position moves on, which that audio leads. The audio's end is told when its own
    // decoder drains, so the tail plays and the last frames show.
    func lastFrame(framesAhead: Int) throws -> Double {
      let clock = ManualClock(advancesOnWait: true)
      let video = ClockStampingVideoSink(clock: clock, onFrame: { _ in })
      let device = SimulatedAudioDevice(clock: clock)
      var configuration = PlayerConfiguration(clock: clock, videoSink: video, audioSink: device)
      configuration.audioEnhancement = AudioEnhancement(normalizesVolume: true, surround: .threeD)
      configuration.videoFramesAhead = framesAhead
      let (player, recorder) = EventRecorder.recordingPlayer(
        url: try Fixtures.url("sample-h264-aac.mp4"), configuration: configuration)
      defer { player.close() }
      player.play()
      XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "\(framesAhead) frames ahead")
      return try XCTUnwrap(video.stamps.last).itemTime.seconds
    }
    XCTAssertEqual(try lastFrame(framesAhead: 2), try lastFrame(framesAhead: 6))
  }
}

/// An audio sink that keeps every 16-bit stereo sample it is given, in order.
final class SampleCollectingAudioSink: AudioSink, Sendable {
  let format = AudioOutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
  private let collected = Locked<[Int16]>([])

  func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    let values = buffer.samples.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    collected.withLock { $0.append(contentsOf: values.prefix(buffer.frameCount * 2)) }
  }

  func finish() throws(PlayheadError) {}

  var frameCount: Int { collected.value.count / 2 }

  /// The interleaved samples from `window.0` to `window.1` seconds of output.
  func samples(_ window: (Double, Double)) -> [Int16] {
    let all = collected.value
    let start = min(all.count, Int(window.0 * 48_000) * 2)
    let end = min(all.count, Int(window.1 * 48_000) * 2)
    return Array(all[start..<end])
  }

  /// One channel's samples in the window.
  func channel(_ index: Int, _ window: (Double, Double)) -> [Int16] {
    let values = samples(window)
    return stride(from: index, to: values.count, by: 2).map { values[$0] }
  }

  /// The root mean square of both channels in the window, 0…1.
  func rms(_ window: (Double, Double)) -> Double {
    let values = samples(window)
    let sum = values.reduce(0.0) { $0 + Double($1) * Double($1) }
    return (sum / Double(max(1, values.count))).squareRoot() / 32_768
  }

  /// The side (L − R) energy over the mid (L + R) energy in the window.
  func sideOverMid(_ window: (from: Double, to: Double)) -> Double {
    let left = channel(0, window)
    let right = channel(1, window)
    var mid = 0.0
    var side = 0.0
    for (l, r) in zip(left, right) {
      let sum = (Double(l) + Double(r)) / 2
      let difference = (Double(l) - Double(r)) / 2
      mid += sum * sum
      side += difference * difference
    }
    return (side / max(1, mid)).squareRoot()
  }
}
