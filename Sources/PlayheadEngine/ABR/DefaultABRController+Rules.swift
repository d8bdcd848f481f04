import Foundation
import PlayheadCore

extension DefaultABRController {
  /// The adaptive decision for the next segment (manual selection already handled).
  ///
  /// 1. Throughput rule: the highest level whose download at `safetyFactor` × the
  ///    estimate fits in one segment's play time (below `lowBufferSegments` of buffer,
  ///    the lower of the estimate and the last transfer's speed).
  /// 2. From the low threshold up, on a calm network the throughput rule may overshoot the
  ///    estimate in proportion to the buffer above the threshold, and the buffer rule
  ///    (BOLA's objective) may pick a higher level, at most one above what the
  ///    throughput and the current level justify.
  /// 3. A full buffer (within a tenth of a segment of the maximum less one segment) means
  ///    the link would idle: at least one level above the current one.
  /// 4. Insufficient-buffer guard: no download may take more than
  ///    `insufficientBufferFactor` of the buffer at the estimate (not while starting or
  ///    seeking, where an empty buffer delays the start rather than stalling playback).
  /// 5. Near the end of the content, the buffer is spent (`endgamePosition`), which may
  ///    go above the guard: every remaining segment still arrives in time.
  func decide(
    in ladder: ABRLadder, context: ABRContext, allLevels: [BitrateLevel], state: inout State
  ) -> ABRDecision {
    let situation = ABRSituation(
      context: context, defaultBandwidth: configuration.defaultBandwidthEstimate,
      lowBufferSegments: configuration.lowBufferSegments)
    state.lowestBitrate = ladder.bitrates.first
    let weight = caution(situation: situation, ladder: ladder, state: state)
    let (low, high) = bufferRuleThresholds(situation: situation, caution: weight)
    let current = ladder.position(ofIndex: context.currentLevel ?? state.lastIndex)
    let byThroughput = throughputPosition(
      in: ladder, situation: situation, factor: configuration.safetyFactor)
    var chosen = byThroughput
    var reason = ABRDecision.Reason.throughput
    if situation.bufferSeconds >= low {
      let excess = (situation.bufferSeconds - low) / configuration.overshootHorizonSeconds
      let overshoot = throughputPosition(
        in: ladder, situation: situation,
        factor: configuration.safetyFactor * (1 + excess * (1 - weight)))
      let byBuffer = bufferPosition(in: ladder, situation: situation, low: low, high: high)
      let stepped = min(byBuffer, max(byThroughput, current ?? 0) + 1)
      let pick = max(overshoot, stepped)
      if pick > chosen {
        chosen = pick
        reason = .buffer
      }
    }
    // A full buffer means the loader waits for room, so the link idles: step up one level.
    let usable = situation.maximumBufferSeconds - situation.segmentSeconds
    if situation.bufferSeconds >= usable - Self.fullBufferTolerance * situation.segmentSeconds,
      let current, current + 1 > chosen, current + 1 < ladder.count
    {
      chosen = current + 1
      reason = .buffer
    }
    // Starting or after a seek, an empty buffer is a startup delay, not a stall: the
    // throughput rule alone decides, as for the first segment.
    let isStarting = context.phase == .starting || context.phase == .seeking
    let guarded =
      isStarting
      ? chosen : insufficientBufferPosition(in: ladder, situation: situation, wanted: chosen)
    if guarded < chosen {
      chosen = guarded
      reason = .insufficientBuffer
    }
    // The endgame rule has its own safety margin and wins over the guard.
    let closing = endgamePosition(in: ladder, situation: situation)
    if closing > chosen {
      chosen = closing
      reason = .buffer
    }
    let level = ladder.levels[chosen].index
    if let previous = context.currentLevel, previous != level,
      let old = allLevels.first(where: { $0.index == previous }),
      !context.constraints.allows(old)
    {
      reason = .constrained
    }
    return ABRDecision(level: level, reason: reason)
  }

  /// How close (in segments) to the usable maximum the buffer counts as full.
  static let fullBufferTolerance = 0.1

  /// The highest level whose download at `factor` × the estimate fits in one segment's
  /// play time (the lowest when none does).
  func throughputPosition(in ladder: ABRLadder, situation: ABRSituation, factor: Double) -> Int {
    var chosen = 0
    for position in 1..<max(1, ladder.count) {
      let seconds = situation.downloadSeconds(bitrate: ladder.bitrates[position], factor: factor)
      guard seconds <= situation.segmentPlaySeconds else { break }
      chosen = position
    }
    return chosen
  }

  /// The buffer levels (seconds) where the buffer rule starts and where it reaches the
  /// highest level: shares of the usable buffer, between the calm and the cautious ones.
  func bufferRuleThresholds(situation: ABRSituation, caution weight: Double)
    -> (low: Double, high: Double)
  {
    let usable = max(0, situation.maximumBufferSeconds - situation.segmentSeconds)
    func blend(_ calm: Double, _ cautious: Double) -> Double {
      usable * (calm + (cautious - calm) * weight)
    }
    let high = blend(configuration.calmHighFraction, configuration.cautiousHighFraction)
    let low = min(high, blend(configuration.calmLowFraction, configuration.cautiousLowFraction))
    return (low, high)
  }

  /// The level the buffer rule picks: the lowest level below `low` seconds of buffer, the
  /// highest from `high`, and in between the level that maximises
  /// `(V·(utility + γ) − buffer) / bitrate` (BOLA's objective, with V and γ set by these
  /// two thresholds and utility `ln(bitrate / lowest)`).
  func bufferPosition(in ladder: ABRLadder, situation: ABRSituation, low: Double, high: Double)
    -> Int
  {
    guard ladder.count > 1 else { return 0 }
    let first = thresholdOffset(in: ladder, position: 1)
    let last = thresholdOffset(in: ladder, position: ladder.top)
    let v = max(1e-9, (high - low) / max(1e-9, last - first))
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

  /// Near the end of the content the buffer need not be refilled: the highest level at
  /// which every remaining segment, fetched at the discounted throughput, still arrives
  /// before the buffer (less `endgameReserveSeconds`) runs out. 0 when the end is unknown.
  func endgamePosition(in ladder: ABRLadder, situation: ABRSituation) -> Int {
    guard situation.remainingSeconds.isFinite else { return 0 }
    let segments = (situation.remainingSeconds / situation.segmentSeconds).rounded(.up) + 1
    let available = situation.bufferPlaySeconds - configuration.endgameReserveSeconds
    guard available > 0 else { return 0 }
    var chosen = 0
    for position in 1..<max(1, ladder.count) {
      let fetch = situation.downloadSeconds(
        bitrate: ladder.bitrates[position], factor: configuration.safetyFactor)
      let playable = available + (segments - 1) * situation.segmentPlaySeconds
      guard fetch <= available, segments * fetch <= playable else { break }
      chosen = position
    }
    return chosen
  }

  /// `wanted` or lower: the highest level whose download at the estimate takes at most
  /// `insufficientBufferFactor` of the buffer's play time (always at least the lowest).
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
