/// How a clock's time moves, which decides how a player paced by it behaves.
public enum PlaybackTiming: Sendable, Equatable {
  /// Time moves by itself (`HostClock`): playback in real time.
  case realTime
  /// Time moves only when a test advances the clock (`ManualClock()`).
  case manual
  /// Time jumps to the next deadline once every worker of the clock waits
  /// (`ManualClock(advancesOnWait: true)`): playback runs as fast as decoding allows, in
  /// the same order of events every run, and decoding never falls behind the clock.
  case fast
}
