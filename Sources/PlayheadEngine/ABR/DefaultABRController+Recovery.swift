import PlayheadCore

/// The recovery rule (decision 0038): a level left for a lower one is not retried until the
/// last transfer carries it with the recovery margin.
extension DefaultABRController {
  /// `wanted` or lower: a level at or above the lowest one left for a lower level is
  /// taken only when the speed `situation` plans with (the decision passes the last
  /// transfer's) carries it at `safetyFactor / recoveryMargin`; `wanted` whatever the
  /// speed when the buffer `isDeep` (`isDeepForRetry`).
  func recoveredPosition(
    in ladder: ABRLadder, situation: ABRSituation, wanted: Int, state: State, isDeep: Bool
  ) -> Int {
    guard !isDeep, let left = state.leftBitrate, ladder.bitrates[wanted] >= left else {
      return wanted
    }
    let recovered = throughputPosition(
      in: ladder, situation: situation,
      factor: configuration.safetyFactor / configuration.recoveryMargin)
    var chosen = wanted
    while chosen > 0, ladder.bitrates[chosen] >= left, chosen > recovered { chosen -= 1 }
    return chosen
  }

  /// Remembers the lowest bitrate left for a lower level, and forgets it once a level at
  /// or above it is chosen again.
  func noteLeaving(ladder: ABRLadder, from current: Int?, to chosen: Int, state: inout State) {
    guard let current else { return }
    if chosen < current {
      state.leftBitrate = ladder.bitrates[chosen + 1]
    } else if let left = state.leftBitrate, ladder.bitrates[chosen] >= left {
      state.leftBitrate = nil
    }
  }
}
