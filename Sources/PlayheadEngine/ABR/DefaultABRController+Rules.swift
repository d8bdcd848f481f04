import Foundation
import PlayheadCore

/// The numbers one decision works with, in wall-clock seconds and bits per second.
struct ABRSituation {
  /// The media duration of one segment.
  let segmentSeconds: Double
  /// How long one segment plays at the current rate.
  let segmentPlaySeconds: Double
  /// The buffer level in media seconds.
  let bufferSeconds: Double
  /// How long the buffer plays at the current rate.
  let bufferPlaySeconds: Double
  /// The maximum buffer in media seconds (at least one segment).
  let maximumBufferSeconds: Double
  /// The throughput estimate.
  let throughput: Double
  /// Whether `throughput` was measured (not the default estimate).
  let isMeasured: Bool
  /// Request latency.
  let latencySeconds: Double
  /// Media left after the next segment; infinity when unknown.
  let remainingSeconds: Double

  init(context: ABRContext, defaultBandwidth: Int) {
    let rate = context.playbackRate.isFinite && context.playbackRate > 0 ? context.playbackRate : 1
    let segment = max(0.05, context.segmentDuration.finiteSeconds)
    segmentSeconds = segment
    segmentPlaySeconds = segment / rate
    bufferSeconds = context.bufferLevel.finiteSeconds
    bufferPlaySeconds = bufferSeconds / rate
    maximumBufferSeconds = max(segment, context.maximumBuffer.finiteSeconds)
    if let measured = context.throughputBitsPerSecond, measured.isFinite, measured > 0 {
      throughput = measured
      isMeasured = true
    } else {
      throughput = Double(max(1, defaultBandwidth))
      isMeasured = false
    }
    latencySeconds = context.requestLatency?.finiteSeconds ?? 0
    if let remaining = context.remainingContent, remaining.isNumeric {
      remainingSeconds = remaining.finiteSeconds
    } else {
      remainingSeconds = .infinity
    }
  }

  /// Wall time to fetch one segment of `bitrate` at `throughput × factor`.
  func downloadSeconds(bitrate: Double, factor: Double) -> Double {
    latencySeconds + segmentSeconds * bitrate / (throughput * factor)
  }
}

extension DefaultABRController {
  /// The adaptive decision for the next segment.
  func decide(in ladder: ABRLadder, context: ABRContext, allLevels: [BitrateLevel])
    -> ABRDecision
  {
    let situation = ABRSituation(
      context: context, defaultBandwidth: configuration.defaultBandwidthEstimate)
    let current = ladder.position(ofIndex: context.currentLevel ?? state.lastIndex)
    let byThroughput = throughputPosition(in: ladder, situation: situation)
    var chosen = byThroughput
    var reason = ABRDecision.Reason.throughput
    if situation.bufferSeconds >= configuration.bufferRuleLowSeconds {
      let byBuffer = bufferPosition(in: ladder, situation: situation)
      if byBuffer > byThroughput {
        // Step up at most one level above what both the throughput and the current level
        // justify, so that a full buffer does not jump straight past the bandwidth.
        chosen = min(byBuffer, max(byThroughput, current ?? 0) + 1)
        reason = .buffer
      }
    }
    let guarded = insufficientBufferPosition(
      in: ladder, situation: situation, wanted: chosen)
    if guarded < chosen {
      chosen = guarded
      reason = .insufficientBuffer
    }
    if let wanted = context.currentLevel,
      let level = allLevels.first(where: { $0.index == wanted }),
      !context.constraints.allows(level), ladder.levels[chosen].index != wanted,
      reason == .throughput
    {
      reason = .constrained
    }
    return ABRDecision(level: ladder.levels[chosen].index, reason: reason)
  }

  /// The highest level whose download at the discounted throughput fits in one segment's
  /// play time.
  func throughputPosition(in ladder: ABRLadder, situation: ABRSituation) -> Int {
    var chosen = 0
    for position in 1..<max(1, ladder.count) {
      let seconds = situation.downloadSeconds(
        bitrate: ladder.bitrates[position], factor: configuration.safetyFactor)
      if seconds <= situation.segmentPlaySeconds { chosen = position } else { break }
    }
    return chosen
  }

  /// The level the buffer rule picks: the lowest level below `bufferRuleLowSeconds`, the
  /// highest from `bufferRuleHighSeconds`, and in between the level that maximises
  /// `(V·(utility + γ) − buffer) / bitrate` (BOLA's objective with V and γ set by these
  /// two thresholds).
  func bufferPosition(in ladder: ABRLadder, situation: ABRSituation) -> Int {
    guard ladder.count > 1 else { return 0 }
    let high = min(
      configuration.bufferRuleHighSeconds,
      situation.maximumBufferSeconds - situation.segmentSeconds)
    let low = min(configuration.bufferRuleLowSeconds, high)
    let first = thresholdOffset(in: ladder, position: 1)
    let last = thresholdOffset(in: ladder, position: ladder.top)
    let spread = max(1e-9, last - first)
    let v = max(1e-9, (high - low) / spread)
    let vGamma = low - v * first
    var best = 0
    var bestScore = -Double.infinity
    for position in 0..<ladder.count {
      let score =
        (vGamma + v * ladder.utilities[position] - situation.bufferSeconds)
        / ladder.bitrates[position]
      if score > bestScore {
        bestScore = score
        best = position
      }
    }
    return best
  }

  /// The buffer level (before V and γ) at which BOLA prefers `position` to the level
  /// below it: `(b_m·u_{m−1} − b_{m−1}·u_m) / (b_m − b_{m−1})`.
  func thresholdOffset(in ladder: ABRLadder, position: Int) -> Double {
    let b1 = ladder.bitrates[position]
    let b0 = ladder.bitrates[position - 1]
    let u1 = ladder.utilities[position]
    let u0 = ladder.utilities[position - 1]
    guard b1 > b0 else { return u0 }
    return (b1 * u0 - b0 * u1) / (b1 - b0)
  }

  /// `wanted` or lower: the highest level whose download at the estimate takes at most the
  /// configured share of the buffer (always at least the lowest level).
  func insufficientBufferPosition(
    in ladder: ABRLadder, situation: ABRSituation, wanted: Int
  ) -> Int {
    let budget =
      configuration.insufficientBufferFactor
      * max(0, situation.bufferPlaySeconds - situation.latencySeconds)
    var chosen = wanted
    while chosen > 0 {
      let seconds = situation.downloadSeconds(bitrate: ladder.bitrates[chosen], factor: 1)
      if seconds - situation.latencySeconds <= budget { break }
      chosen -= 1
    }
    return chosen
  }
}
