import PlayheadCore

/// The deep-buffer rules (decision 0043): with a deep buffer, a slower link is a matter of
/// buffer, not of level. Buffer-based rules (BBA) keep a level until the buffer, not one
/// transfer, says otherwise; these rules bring that to the throughput-led controller
/// without its flapping.
extension DefaultABRController {
  /// Whether a step down from `current` waits: one more segment of `current`, fetched at
  /// the slower of the estimate and the last transfer, leaves at least the hold threshold
  /// (`deepHoldBandShare` of the way from `low` to `high`), and that speed is at least
  /// `deepHoldSpeedShare` of the level's bitrate.
  ///
  /// Never when a run of slow downloads is evidence (`slowTransferRun`), and never below
  /// the low threshold: a buffer the next segment would take under it steps down as
  /// before. The insufficient-buffer guard and abandonment still apply.
  ///
  /// `speedShare` replaces `deepHoldSpeedShare` (the step-down floor asks for more).
  func holdsDeepBuffer(
    in ladder: ABRLadder, situation: ABRSituation, current: Int, low: Double, high: Double,
    speedShare: Double? = nil
  ) -> Bool {
    guard !situation.isPersistentlySlow else { return false }
    let slower = situation.planning(with: situation.slowerShownThroughput)
    let bitrate = ladder.bitrates[current]
    let share = speedShare ?? configuration.deepHoldSpeedShare
    guard slower.throughput >= share * bitrate else { return false }
    let left =
      situation.bufferSeconds + situation.segmentSeconds
      - slower.downloadSeconds(bitrate: bitrate, factor: 1)
    return left >= low + configuration.deepHoldBandShare * (high - low)
  }

  /// Where a step down from `current` to `wanted` stops on a deep buffer: at `current`
  /// when it passes `holdsDeepBuffer` (the hold), else at the highest level in between
  /// that passes it at `slowTransferFactor` (a transfer at that speed would not be
  /// evidence against it), never at less than `deepHoldSpeedShare` (the step floor);
  /// `wanted` when none does.
  ///
  /// A fall that the hold cannot ride still rarely needs the level the throughput rule
  /// picks with the safety margin: the buffer absorbs the difference for a few segments,
  /// and each level skipped on the way down is paid for again on the way back up.
  func deepStepFloor(
    in ladder: ABRLadder, situation: ABRSituation, current: Int, wanted: Int, low: Double,
    high: Double
  ) -> Int {
    let floorShare = max(configuration.slowTransferFactor, configuration.deepHoldSpeedShare)
    for position in stride(from: current, to: wanted, by: -1)
    where holdsDeepBuffer(
      in: ladder, situation: situation, current: position, low: low, high: high,
      speedShare: position == current ? nil : floorShare)
    {
      return position
    }
    return wanted
  }

  /// Whether the buffer is deep enough to retry a level left before the last transfer
  /// clears the recovery margin: at or above the buffer rule's `high` threshold and at
  /// least `deepRetrySegments` segments.
  func isDeepForRetry(situation: ABRSituation, high: Double) -> Bool {
    situation.bufferSeconds >= max(high, configuration.deepRetrySegments * situation.segmentSeconds)
  }
}
