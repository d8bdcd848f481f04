/// What a rule sees when it decides.
struct SessionView {
  let ladder: Ladder
  /// The segment about to be requested.
  let segment: Int
  /// Buffered media in seconds.
  let buffer: Double
  /// The maximum buffer in seconds.
  let maximumBuffer: Double
  /// The meter's throughput (bits/s) and latency (s); nil before the first download.
  let throughput: Double?
  let latency: Double?
  let lastThroughput: Double?
  /// The level of the last completed or requested segment; nil before the first.
  let lastLevel: Int?
  let hasStarted: Bool
  let isPlaying: Bool
  /// Seconds of media played so far (watch time).
  let watched: Double
  /// The network at this moment, trace and all: for the references that plan with the
  /// future (`LookaheadRule`), never for a rule under test.
  let network: Network
}

/// A download in progress, as a rule sees it.
struct DownloadProgressView {
  let level: Int
  let totalBits: Double
  let loadedBits: Double
  /// Seconds since the request.
  let elapsed: Double
  /// Seconds from request to first bit.
  let timeToFirstBit: Double
}

/// One ABR rule under test.
protocol SimulatedRule: AnyObject {
  /// Whether `abandon` is ever worth asking (it is asked every progress interval).
  var abandons: Bool { get }
  /// The level of the first segment.
  func firstLevel(_ view: SessionView) -> Int
  /// The level of the next segment.
  func nextLevel(_ view: SessionView) -> Int
  /// A lower level to restart the running download at, or nil.
  func abandon(_ view: SessionView, _ progress: DownloadProgressView) -> Int?
  /// A download ended (completed or abandoned).
  func downloaded(
    _ view: SessionView, level: Int, bits: Double, seconds: Double, timeToFirstBit: Double,
    abandoned: Bool)
  /// Seconds to wait before requesting the next segment.
  func idleBeforeRequest(_ view: SessionView) -> Double
  /// Whether playback may start (or resume after a stall) with `buffer` seconds buffered.
  func canStartPlayback(buffer: Double, afterStall: Bool) -> Bool
}

/// The buffer and playback clock of one session.
struct Playout {
  var buffer = 0.0
  var isPlaying = false
  var hasStarted = false
  var startupSeconds = 0.0
  var rebufferSeconds = 0.0
  var stallCount = 0
  var watchedSeconds = 0.0

  /// Lets `seconds` of wall time pass.
  mutating func advance(_ seconds: Double) {
    guard seconds > 0 else { return }
    if isPlaying {
      if seconds <= buffer {
        buffer -= seconds
        watchedSeconds += seconds
      } else {
        watchedSeconds += buffer
        rebufferSeconds += seconds - buffer
        buffer = 0
        isPlaying = false
        stallCount += 1
      }
    } else if hasStarted {
      rebufferSeconds += seconds
    } else {
      startupSeconds += seconds
    }
  }
}

/// The outcome of one session.
struct SessionResult {
  var totalSeconds = 0.0
  var rebufferSeconds = 0.0
  var startupSeconds = 0.0
  var utilitySum = 0.0
  var bitrateSum = 0.0
  var switches = 0
  /// Σ |ln(b_i / b_{i−1})| over consecutive played segments: the utility lost to
  /// switching (the smoothness term of the MPC and Pensieve QoE, with weight 1).
  var switchPenalty = 0.0
  var abandonments = 0
  var segmentSeconds = 0.0

  /// Time average of played utility, minus the switching term, minus 5 × rebuffer time in
  /// segment durations.
  var score: Double {
    (utilitySum - switchPenalty - 5 * rebufferSeconds / segmentSeconds) * segmentSeconds
      / totalSeconds
  }

  /// Adds a played segment at `level` after `previous` (nil for the first).
  mutating func play(level: Int, after previous: Int?, ladder: Ladder) {
    utilitySum += ladder.utilities[level]
    bitrateSum += ladder.bitrates[level]
    guard let previous, previous != level else { return }
    switches += 1
    switchPenalty += abs(ladder.utilities[level] - ladder.utilities[previous])
  }
  var averageBitrate: Double { bitrateSum * segmentSeconds / totalSeconds }
  var rebufferRatio: Double { rebufferSeconds / totalSeconds }
  var switchesPerMinute: Double { Double(switches) / (totalSeconds / 60) }
}

/// Plays the whole ladder over one trace with one rule.
struct Session {
  let ladder: Ladder
  let maximumBuffer: Double
  /// How often a running download is offered for abandonment, in seconds.
  let progressInterval: Double

  func run(rule: SimulatedRule, trace: Trace, log: ((String) -> Void)? = nil) -> SessionResult {
    var network = Network(trace: trace)
    var playout = Playout()
    var meter = ThroughputEstimator(segmentSeconds: ladder.segmentSeconds)
    var result = SessionResult(segmentSeconds: ladder.segmentSeconds)
    var lastLevel: Int?
    var lastCompleted: Int?
    var forcedLevel: Int?
    var segment = 0

    func view() -> SessionView {
      SessionView(
        ladder: ladder, segment: segment, buffer: playout.buffer, maximumBuffer: maximumBuffer,
        throughput: meter.throughput, latency: meter.latency,
        lastThroughput: meter.lastThroughput, lastLevel: lastLevel,
        hasStarted: playout.hasStarted, isPlaying: playout.isPlaying,
        watched: playout.watchedSeconds, network: network)
    }

    while segment < ladder.segmentCount {
      let level: Int
      if let forced = forcedLevel {
        level = forced
        forcedLevel = nil
      } else {
        if segment > 0 {
          let wait = rule.idleBeforeRequest(view())
          if wait > 0 {
            playout.advance(wait)
            network.idle(wait)
          }
        }
        let wanted = segment == 0 ? rule.firstLevel(view()) : rule.nextLevel(view())
        level = min(max(wanted, 0), ladder.levelCount - 1)
      }
      lastLevel = level
      let size = ladder.sizes[segment][level]
      let firstBit = network.spendLatency()
      playout.advance(firstBit)
      var loaded = 0.0
      var elapsed = firstBit
      var abandonedTo: Int?
      while loaded < size {
        let budget = rule.abandons ? progressInterval : Double.infinity
        let step = network.transfer(bits: size - loaded, budget: budget)
        loaded += step.bits
        elapsed += step.seconds
        playout.advance(step.seconds)
        if loaded < size, rule.abandons {
          let progress = DownloadProgressView(
            level: level, totalBits: size, loadedBits: loaded, elapsed: elapsed,
            timeToFirstBit: firstBit)
          if let target = rule.abandon(view(), progress), target >= 0, target < level {
            abandonedTo = target
            break
          }
        }
      }
      if let log {
        let clock = playout.startupSeconds + playout.rebufferSeconds + playout.watchedSeconds
        log(
          "t=\(Report.fixed(clock, 1)) seg=\(segment) level=\(level) dl=\(Report.fixed(elapsed, 2))"
            + " tput=\(Report.fixed(loaded / max(1e-9, elapsed - firstBit) / 1000, 0))k"
            + " buf=\(Report.fixed(playout.buffer, 2)) stall=\(Report.fixed(playout.rebufferSeconds, 2))"
            + (abandonedTo.map { " ABANDON->\($0)" } ?? ""))
      }
      if let target = abandonedTo {
        result.abandonments += 1
        rule.downloaded(
          view(), level: level, bits: loaded, seconds: elapsed, timeToFirstBit: firstBit,
          abandoned: true)
        forcedLevel = target
        continue
      }
      playout.buffer += ladder.segmentSeconds
      if !playout.isPlaying,
        rule.canStartPlayback(buffer: playout.buffer, afterStall: playout.hasStarted)
      {
        playout.isPlaying = true
        playout.hasStarted = true
      }
      meter.add(bits: size, seconds: elapsed - firstBit, latency: firstBit)
      result.play(level: level, after: lastCompleted, ladder: ladder)
      lastCompleted = level
      segment += 1
      rule.downloaded(
        view(), level: level, bits: size, seconds: elapsed, timeToFirstBit: firstBit,
        abandoned: false)
    }
    // Everything is loaded: whatever is buffered plays out.
    playout.hasStarted = true
    result.totalSeconds =
      playout.startupSeconds + playout.rebufferSeconds + playout.watchedSeconds + playout.buffer
    result.rebufferSeconds = playout.rebufferSeconds
    result.startupSeconds = playout.startupSeconds
    return result
  }
}
