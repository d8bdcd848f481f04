import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia

/// An audio output device simulated on a clock: it plays the sample frames written to it
/// at its sample rate (times `speed`) while it is not paused and has frames, and reports
/// them with a fixed latency, as a sound card does (`ClockedAudioSink`).
///
/// On a `ManualClock` it makes the device the player's media clock in a test: a device that
/// runs fast or slow, lags, stops playing or runs dry, deterministically. It counts what it
/// was given and how it was driven for the test to check.
///
/// ```swift
/// let clock = ManualClock(advancesOnWait: true)
/// let device = SimulatedAudioDevice(clock: clock, latency: .milliseconds(80))
/// let player = Player(url: url, configuration: PlayerConfiguration(clock: clock, audioSink: device))
/// ```
public final class SimulatedAudioDevice: ClockedAudioSink, Sendable {
  public let format: AudioOutputFormat
  public let queueTarget: MediaTime
  /// The output latency the device reports.
  public let latency: MediaTime
  /// How fast the device plays against the clock (1.05: 5 % fast).
  public let speed: Double
  private let clock: any Clock
  private let state = Locked(State())

  private struct State: Sendable {
    var paused = true
    /// Set by `holdPlayback(_:)`: the device stops taking frames (a hung device).
    var held = false
    var finished = false
    /// Frames written and played since the last flush.
    var written = 0
    var played = 0
    /// Where the current run of playing began: the clock time and the frames played then.
    var runStartNs: Int64 = 0
    var runBase = 0
    var totalWritten = 0
    var totalPlayed = 0
    var flushes = 0
    var pauseChanges: [Bool] = []
  }

  /// A paused device on `clock` that plays `format` at `speed` with `latency`; the player
  /// keeps `queueTarget` of audio written ahead.
  public init(
    clock: any Clock,
    format: AudioOutputFormat = AudioOutputFormat(
      sampleRate: 48_000, channels: 2, sampleFormat: .int16),
    latency: MediaTime = .zero, queueTarget: MediaTime = MediaTime(value: 1, timescale: 5),
    speed: Double = 1
  ) {
    self.clock = clock
    self.format = format
    self.latency = latency
    self.queueTarget = queueTarget
    self.speed = speed
  }

  public func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    let frames = buffer.frameCount
    let finished = update { state in
      guard !state.finished else { return true }
      state.written += frames
      state.totalWritten += frames
      return false
    }
    if finished { throw PlayheadError(.invalidState, "the simulated audio device was finished") }
  }

  public func finish() throws(PlayheadError) {
    update { $0.finished = true }
  }

  public func progress() -> AudioOutputProgress {
    AudioOutputProgress(playedFrameCount: update { $0.played }, latency: latency)
  }

  public func setPaused(_ paused: Bool) {
    update { state in
      guard state.paused != paused else { return }
      state.paused = paused
      state.pauseChanges.append(paused)
    }
  }

  public func flush() {
    update { state in
      state.written = 0
      state.played = 0
      state.runBase = 0
      state.flushes += 1
    }
  }

  /// Stops (true) or lets (false) the device take frames, as a device that hangs does.
  public func holdPlayback(_ held: Bool) {
    update { $0.held = held }
  }

  /// Whether the device is paused by the player.
  public var isPaused: Bool { update { $0.paused } }
  /// Frames written and not yet played.
  public var queuedFrameCount: Int { update { $0.written - $0.played } }
  /// Frames written since the device was made.
  public var totalWrittenFrameCount: Int { update { $0.totalWritten } }
  /// Frames played since the device was made.
  public var totalPlayedFrameCount: Int { update { $0.totalPlayed } }
  /// How many times the player flushed it.
  public var flushCount: Int { update { $0.flushes } }
  /// Every change of the paused state, in order (true: paused).
  public var pauseChanges: [Bool] { update { $0.pauseChanges } }

  /// Plays up to the clock's time, then runs `body` on the state. A run of playing starts
  /// afresh (from now) when the device ran dry, or `body` paused, resumed, held or
  /// flushed it; otherwise it goes on, so that no fraction of a frame is lost.
  @discardableResult
  private func update<T: Sendable>(_ body: (inout State) -> T) -> T {
    let nowNs = clock.now.convertScale(1_000_000_000, rounding: .roundTowardZero).value
    let rate = Double(format.sampleRate) * speed
    return state.withLock { state in
      var restart = false
      if !state.paused && !state.held {
        let elapsed = Double(max(0, nowNs - state.runStartNs)) / 1e9
        let reached = state.runBase + Int((elapsed * rate).rounded(.down))
        let played = min(state.written, reached)
        state.totalPlayed += played - state.played
        state.played = played
        // A device that ran dry idles until it has frames again.
        restart = reached >= state.written
      }
      let before = (state.paused, state.held, state.flushes)
      let result = body(&state)
      if restart || before != (state.paused, state.held, state.flushes) {
        state.runStartNs = nowNs
        state.runBase = state.played
      }
      return result
    }
  }
}
