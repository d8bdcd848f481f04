import Foundation

extension DefaultABRController {
  /// Adds a finished or abandoned download to the network memory: the run of slow
  /// downloads, the long-term throughput, and the outage share (time spent on downloads
  /// whose throughput was below the lowest level's bitrate).
  func noteDownload(_ download: CompletedDownload, state: inout State) {
    let total = download.duration.finiteSeconds
    guard total > 0 else { return }
    let slow = download.wasAbandoned || total > download.segmentDuration.finiteSeconds
    state.slowStreak = slow ? state.slowStreak + 1 : 0
    let firstByte = min(total, download.timeToFirstByte?.finiteSeconds ?? 0)
    let transfer = total - firstByte
    let bits = Double(max(0, download.bytes)) * 8
    let decay = pow(0.5, total / configuration.networkMemorySeconds)
    state.transferredBits = state.transferredBits * decay + bits
    state.transferSeconds = state.transferSeconds * decay + total
    guard transfer > 0, let lowest = state.lowestBitrate else { return }
    state.outageSeconds = state.outageSeconds * decay + (bits / transfer < lowest ? total : 0)
    state.judgedSeconds = state.judgedSeconds * decay + total
  }

  /// How cautious the rules are, from 0 (calm) to 1 (risky): the larger of the outage
  /// caution (outage share over `outageShareForCaution`) and the headroom caution.
  ///
  /// Headroom is the long-term throughput of the engine's own downloads (before any, the
  /// estimate) over the lowest level's bitrate: risky at `riskyHeadroom` or less, calm at
  /// `calmHeadroom` or more, interpolated in between.
  func caution(situation: ABRSituation, ladder: ABRLadder, state: State) -> Double {
    let outage =
      state.judgedSeconds > 0
      ? min(1, state.outageSeconds / state.judgedSeconds / configuration.outageShareForCaution)
      : 0
    let longTerm =
      state.transferSeconds > 0
      ? state.transferredBits / state.transferSeconds : situation.throughput
    let headroom = longTerm / max(1, ladder.bitrates.first ?? 1)
    let risky = configuration.riskyHeadroom
    let calm = configuration.calmHeadroom
    let byHeadroom: Double
    if headroom <= risky {
      byHeadroom = 1
    } else if headroom >= calm {
      byHeadroom = 0
    } else {
      byHeadroom = (calm - headroom) / (calm - risky)
    }
    return max(outage, byHeadroom)
  }
}
