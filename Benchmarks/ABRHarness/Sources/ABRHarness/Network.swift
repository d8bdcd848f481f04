/// The network of one session: a cursor into a repeating trace.
///
/// Latency is spent first (one latency of the current period; a latency that crosses a
/// period boundary continues at the next period's latency, pro rata), then bits flow at
/// each period's bandwidth, exactly across period boundaries.
struct Network {
  private let periods: [TracePeriod]
  private var index = 0
  private var remaining: Double

  init(trace: Trace) {
    periods = trace.periods
    remaining = periods[0].seconds
  }

  private mutating func nextPeriod() {
    index += 1
    if index == periods.count { index = 0 }
    remaining = periods[index].seconds
  }

  /// Spends one request latency; returns its length in seconds.
  mutating func spendLatency() -> Double {
    var units = 1.0
    var total = 0.0
    while units > 0 {
      let latency = periods[index].latency
      let needed = units * latency
      if needed <= remaining {
        remaining -= needed
        total += needed
        units = 0
      } else {
        total += remaining
        units -= remaining / latency
        nextPeriod()
      }
    }
    return total
  }

  /// Transfers up to `bits` in at most `budget` seconds; returns bits moved and seconds
  /// spent (less than `budget` only when all bits arrived).
  mutating func transfer(bits: Double, budget: Double) -> (bits: Double, seconds: Double) {
    var moved = 0.0
    var spent = 0.0
    while moved < bits && spent < budget {
      let bandwidth = periods[index].bandwidth
      let window = min(remaining, budget - spent)
      let possible = window * bandwidth
      if possible >= bits - moved {
        let seconds = (bits - moved) / bandwidth
        remaining -= seconds
        spent += seconds
        moved = bits
      } else {
        moved += possible
        spent += window
        remaining -= window
        if remaining <= 0 { nextPeriod() }
      }
    }
    return (moved, spent)
  }

  /// Lets `seconds` pass without traffic.
  mutating func idle(_ seconds: Double) {
    var left = seconds
    while left > remaining {
      left -= remaining
      nextPeriod()
    }
    remaining -= left
  }
}

/// One segment's load by a rule that never abandons, in the order `Session` plays it; the
/// planners that simulate ahead (`OraclePlanner`, `LookaheadRule`) share it.
extension Network {
  /// How long a request waits while one more segment does not fit under `maximumBuffer`
  /// (the baselines' loading rule).
  static func roomWait(buffer: Double, segmentSeconds: Double, maximumBuffer: Double) -> Double {
    max(0, buffer + segmentSeconds - maximumBuffer)
  }

  /// Lets the wait for room pass, then the request's latency.
  mutating func waitAndRequest(
    playout: inout Playout, segmentSeconds: Double, maximumBuffer: Double
  ) {
    let wait = Self.roomWait(
      buffer: playout.buffer, segmentSeconds: segmentSeconds, maximumBuffer: maximumBuffer)
    if wait > 0 {
      playout.advance(wait)
      idle(wait)
    }
    playout.advance(spendLatency())
  }

  /// Transfers all of `bits`, then adds the segment to the buffer and plays (a baseline
  /// starts or resumes once a segment is in).
  mutating func loadWhole(bits: Double, playout: inout Playout, segmentSeconds: Double) {
    var loaded = 0.0
    while loaded < bits {
      let step = transfer(bits: bits - loaded, budget: .infinity)
      loaded += step.bits
      playout.advance(step.seconds)
    }
    playout.buffer += segmentSeconds
    playout.isPlaying = true
    playout.hasStarted = true
  }
}
