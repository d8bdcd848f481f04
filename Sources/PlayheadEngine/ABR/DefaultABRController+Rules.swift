import Foundation
import PlayheadCore

extension DefaultABRController {
  /// The adaptive decision for the next segment (manual selection already handled).
  ///
  /// 1. Throughput rule: the highest level whose download at `safetyFactor` × the
  ///    estimate fits in one segment's play time. The estimate is the lower of the
  ///    smoothed one and the last transfer's speed below `lowBufferSegments` of buffer, or
  ///    when that transfer was evidence against the level it loaded; a faster last
  ///    transfer may lift it by `riseStepLevels` above the current level.
  /// 2. From the low threshold up, the margin shrinks as the buffer grows (towards the
  ///    ceiling), and the buffer rule (BOLA's objective) may pick a higher level, at most
  ///    one above what the throughput and the current level justify.
  /// 3. A full buffer (within a tenth of a segment of the maximum less one segment) means
  ///    the link would idle: one level up, if the ceiling allows.
  /// 4. Ceiling: no rule above goes past the highest level that the link carries at
  ///    `ceilingFactor`, by the estimate or the last transfer, whichever is faster (a
  ///    level the link cannot carry drains the buffer and is left again: flapping).
  /// 5. Hold: the current level stays while the link carries it (at factor 1, by the
  ///    estimate or the last transfer) and at least `lowBufferSegments` segments (one at
  ///    least) are buffered: a step down needs evidence, not a dip of the smoothed
  ///    estimate under the safety margin. Deep-buffer hold: the level also stays while
  ///    one more segment of it leaves the buffer deep and the link is not far below it
  ///    (`holdsDeepBuffer`); a step down of more than one level stops at the highest
  ///    level in between that passes the same test at `slowTransferFactor`
  ///    (`deepStepFloor`).
  /// 6. Recovery: a level left for a lower one is tried again only once the last transfer
  ///    carries it at `safetyFactor / recoveryMargin` (the smoothed estimate lags both
  ///    ways: it would retry too early after a fall and too late after a rise); waived
  ///    on a deep buffer (`isDeepForRetry`), where the ceiling alone bounds the retry.
  /// 7. Insufficient-buffer guard: no download may take more than
  ///    `insufficientBufferFactor` of the buffer at the estimate (not while starting or
  ///    seeking, where an empty buffer delays the start rather than stalling playback).
  /// 8. Near the end of the content, the buffer is spent (`endgamePosition`, planned with
  ///    the slower of the estimate and the last transfer), which may go above the guard
  ///    and the ceiling: every remaining segment still arrives in time. The recovery rule
  ///    still holds: a level just left is not retried for the endgame either.
  func decide(
    in ladder: ABRLadder, context: ABRContext, allLevels: [BitrateLevel], state: inout State
  ) -> ABRDecision {
    let current = ladder.position(ofIndex: context.currentLevel ?? state.lastIndex)
    let situation = ABRSituation(
      context: context, defaultBandwidth: configuration.defaultBandwidthEstimate,
      lowBufferSegments: configuration.lowBufferSegments,
      currentBitrate: current.map { ladder.bitrates[$0] },
      slowTransferBufferShare: configuration.slowTransferBufferShare,
      isPersistentlySlow: configuration.slowTransferRun > 0
        && state.slowStreak >= configuration.slowTransferRun,
      slowTransferFactor: configuration.slowTransferFactor)
    state.lowestBitrate = ladder.bitrates.first
    let weight = caution(situation: situation, ladder: ladder, state: state)
    let (low, high) = bufferRuleThresholds(situation: situation, caution: weight)
    let factor = configuration.safetyFactor
    let byThroughput = throughputPosition(in: ladder, situation: situation, factor: factor)
    let shown = situation.planning(with: situation.shownThroughput)
    // A last transfer that drains the buffer is evidence: then nothing above what the
    // link carries, whatever the ceiling factor.
    let carried = !situation.lastTransferDrains
    let ceiling = max(
      byThroughput,
      throughputPosition(
        in: ladder, situation: shown,
        factor: carried ? configuration.ceilingFactor : min(1, configuration.ceilingFactor)))
    let lastShown = situation.planning(with: situation.lastShownThroughput)
    let carriedPosition = max(
      byThroughput, throughputPosition(in: ladder, situation: shown, factor: 1))
    var chosen = byThroughput
    var reason = ABRDecision.Reason.throughput
    // A link that has risen: the last transfer lifts the throughput rule a level or so.
    if let current, let last = situation.lastTransfer, last > situation.throughput,
      configuration.riseStepLevels > 0
    {
      let byLast = throughputPosition(
        in: ladder, situation: situation.planning(with: last), factor: factor)
      chosen = max(chosen, min(byLast, current + configuration.riseStepLevels))
    }
    if situation.bufferSeconds >= low {
      let excess = (situation.bufferSeconds - low) / configuration.overshootHorizonSeconds
      let overshoot = throughputPosition(
        in: ladder, situation: situation,
        factor: min(configuration.ceilingFactor, factor * (1 + excess * (1 - weight))))
      let byBuffer = bufferPosition(in: ladder, situation: situation, low: low, high: high)
      let stepped = min(byBuffer, max(byThroughput, current ?? 0) + 1)
      let pick = min(ceiling, max(overshoot, stepped))
      if pick > chosen {
        chosen = pick
        reason = .buffer
      }
    }
    // A full buffer means the loader waits for room, so the link idles: step up one level.
    let usable = situation.maximumBufferSeconds - situation.segmentSeconds
    if situation.bufferSeconds >= usable - Self.fullBufferTolerance * situation.segmentSeconds,
      let current, current + 1 > chosen, current + 1 <= ceiling
    {
      chosen = current + 1
      reason = .buffer
    }
    let healthy = max(1, configuration.lowBufferSegments) * situation.segmentSeconds
    if let current, chosen < current, current <= carriedPosition, situation.bufferSeconds >= healthy
    {
      chosen = current
    }
    if let current, chosen < current {
      chosen = deepStepFloor(
        in: ladder, situation: situation, current: current, wanted: chosen, low: low, high: high)
    }
    let isDeep = isDeepForRetry(situation: situation, high: high)
    if let current, chosen > current {
      chosen = recoveredPosition(
        in: ladder, situation: lastShown, wanted: chosen, state: state, isDeep: isDeep)
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
    let closing = endgamePosition(
      in: ladder,
      situation: situation.planning(with: situation.slowerShownThroughput))
    if closing > chosen {
      let recovered =
        current.map {
          closing > $0
            ? recoveredPosition(
              in: ladder, situation: lastShown, wanted: closing, state: state, isDeep: isDeep)
            : closing
        } ?? closing
      if recovered > chosen {
        chosen = recovered
        reason = .buffer
      }
    }
    noteLeaving(ladder: ladder, from: current, to: chosen, state: &state)
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
