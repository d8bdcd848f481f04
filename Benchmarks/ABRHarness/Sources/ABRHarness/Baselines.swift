/// What every baseline shares: the loading rule of the reference simulator (request while
/// one more segment fits under the maximum buffer) and playback that starts or resumes as
/// soon as a segment is buffered.
class BaselineRule {
  var abandons: Bool { false }

  func idleBeforeRequest(_ view: SessionView) -> Double {
    Network.roomWait(
      buffer: view.buffer, segmentSeconds: view.ladder.segmentSeconds,
      maximumBuffer: view.maximumBuffer)
  }

  func canStartPlayback(buffer: Double, afterStall: Bool) -> Bool { buffer > 0 }

  func firstLevel(_ view: SessionView) -> Int { 0 }

  func downloaded(
    _ view: SessionView, level: Int, bits: Double, seconds: Double, timeToFirstBit: Double,
    abandoned: Bool
  ) {}

  /// The highest level whose download at `throughput` (after the meter's latency) fits in
  /// one segment duration.
  static func levelFromThroughput(_ view: SessionView, throughput: Double) -> Int {
    let ladder = view.ladder
    let latency = view.latency ?? 0
    var level = 0
    while level + 1 < ladder.levelCount,
      latency + ladder.segmentSeconds * ladder.bitrates[level + 1] / throughput
        <= ladder.segmentSeconds
    {
      level += 1
    }
    return level
  }
}

/// The throughput rule of dash.js as described by Spiteri et al. (MMSys 2018): the
/// highest level under 0.9 × the meter's estimate (EWMA half-lives 3 s / 8 s, the lower),
/// an insufficient-buffer rule that keeps a download within a shrinking share of the
/// buffer (0.9 decaying to 0.5), and abandonment of a download that would take longer than
/// 1.8 segment durations.
final class ThroughputRule: BaselineRule, SimulatedRule {
  static let safetyFactor = 0.9
  private var bufferSafety = 0.9

  override var abandons: Bool { true }

  func nextLevel(_ view: SessionView) -> Int {
    guard let throughput = view.throughput else { return 0 }
    var level = Self.levelFromThroughput(view, throughput: throughput * Self.safetyFactor)
    let safeBits = bufferSafety * (view.buffer - (view.latency ?? 0)) * throughput
    bufferSafety = max(0.5, bufferSafety * 0.9)
    for lower in 0..<level
    where view.ladder.bitrates[lower + 1] * view.ladder.segmentSeconds > safeBits {
      level = lower
      break
    }
    return level
  }

  func abandon(_ view: SessionView, _ progress: DownloadProgressView) -> Int? {
    let transfer = progress.elapsed - progress.timeToFirstBit
    guard progress.elapsed >= 0.5, transfer > 0, progress.loadedBits > 0 else { return nil }
    let speed = progress.loadedBits / transfer
    let left = progress.totalBits - progress.loadedBits
    guard progress.elapsed + left / speed > 1.8 * view.ladder.segmentSeconds else { return nil }
    let level = Self.levelFromThroughput(view, throughput: speed * Self.safetyFactor)
    let size =
      progress.totalBits * view.ladder.bitrates[level] / view.ladder.bitrates[progress.level]
    guard level < progress.level, size < left else { return nil }
    return level
  }
}

/// BOLA (Spiteri, Urgaonkar, Sitaraman, INFOCOM 2016): utility ln(b / b_min), the level
/// maximising (V·(u + γp) − Q) / S. γp = 5 and V = (Q_max − p) / (u_max + γp) from the
/// buffer size Q_max, with BOLA-FINITE's smaller effective buffer near the start and the
/// end of the video, BOLA-U's guard against stepping more than one level above the
/// throughput level, and BOLA's abandonment rule.
final class BolaRule: BaselineRule, SimulatedRule {
  static let gammaP = 5.0
  private(set) var lastLevel = 0
  private var v = 0.0

  override var abandons: Bool { true }

  func nextLevel(_ view: SessionView) -> Int {
    let ladder = view.ladder
    let p = ladder.segmentSeconds
    let fromEdge = Double(min(view.segment, ladder.segmentCount - view.segment))
    let effectiveBuffer = min(view.maximumBuffer, max(fromEdge / 2, 3) * p)
    v = (effectiveBuffer - p) / (ladder.utilities[ladder.levelCount - 1] + Self.gammaP)
    var level = levelFromBuffer(view.buffer, ladder: ladder)
    if level > lastLevel, let throughput = view.throughput {
      let byThroughput = Self.levelFromThroughput(view, throughput: throughput)
      if level <= byThroughput {
      } else if lastLevel > byThroughput {
        level = lastLevel
      } else {
        level = byThroughput + 1
      }
    }
    lastLevel = level
    return level
  }

  func levelFromBuffer(_ buffer: Double, ladder: Ladder) -> Int {
    var best = 0
    var bestScore = -Double.infinity
    for level in 0..<ladder.levelCount {
      let score = (v * (ladder.utilities[level] + Self.gammaP) - buffer) / ladder.bitrates[level]
      if score > bestScore {
        bestScore = score
        best = level
      }
    }
    return best
  }

  func abandon(_ view: SessionView, _ progress: DownloadProgressView) -> Int? {
    let ladder = view.ladder
    let left = progress.totalBits - progress.loadedBits
    guard progress.loadedBits > 0, left > 0 else { return nil }
    var score = (v * (Self.gammaP + ladder.utilities[progress.level]) - view.buffer) / left
    guard score >= 0 else { return nil }
    var target: Int?
    for level in 0..<progress.level {
      let size = progress.totalBits * ladder.bitrates[level] / ladder.bitrates[progress.level]
      let other = (v * (Self.gammaP + ladder.utilities[level]) - view.buffer) / size
      if size < left, other > score {
        score = other
        target = level
      }
    }
    if let target { lastLevel = target }
    return target
  }
}

/// dash.js's DYNAMIC rule as in the reference simulator: the throughput rule while the
/// buffer is under 10 s, BOLA above it (entered when BOLA asks at least as much as the
/// throughput rule, left below 10 s when it asks less); the throughput rule's abandonment.
final class DynamicRule: BaselineRule, SimulatedRule {
  private let bola = BolaRule()
  private let throughput = ThroughputRule()
  private var usesBola = false

  override var abandons: Bool { true }

  func nextLevel(_ view: SessionView) -> Int {
    let byBola = bola.nextLevel(view)
    let byThroughput = throughput.nextLevel(view)
    if usesBola {
      if view.buffer < 10, byBola < byThroughput { usesBola = false }
    } else if view.buffer > 10, byBola >= byThroughput {
      usesBola = true
    }
    return usesBola ? byBola : byThroughput
  }

  func abandon(_ view: SessionView, _ progress: DownloadProgressView) -> Int? {
    throughput.abandon(view, progress)
  }
}

/// BBA-0 (Huang et al., SIGCOMM 2014): a rate map from the buffer, the lowest rate up to a
/// 5 s reservoir, rising linearly over a 10 s cushion to the highest; the level changes
/// only when the map passes the next level up or down.
final class BufferBasedRule: BaselineRule, SimulatedRule {
  static let reservoir = 5.0
  static let cushion = 10.0
  private var lastLevel = 0

  func nextLevel(_ view: SessionView) -> Int {
    let rates = view.ladder.bitrates
    let top = rates.count - 1
    let level: Int
    if view.buffer <= Self.reservoir {
      level = 0
    } else if view.buffer >= Self.reservoir + Self.cushion {
      level = top
    } else {
      let mapped =
        rates[0] + (rates[top] - rates[0]) * (view.buffer - Self.reservoir) / Self.cushion
      let up = lastLevel == top ? rates[top] : rates[lastLevel + 1]
      let down = lastLevel == 0 ? rates[0] : rates[lastLevel - 1]
      if mapped >= up {
        level = rates.lastIndex { $0 < mapped } ?? 0
      } else if mapped <= down {
        level = rates.firstIndex { $0 > mapped } ?? top
      } else {
        level = lastLevel
      }
    }
    lastLevel = level
    return level
  }

  func abandon(_ view: SessionView, _ progress: DownloadProgressView) -> Int? { nil }
}
