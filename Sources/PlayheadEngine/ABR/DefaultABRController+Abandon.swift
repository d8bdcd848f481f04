import PlayheadCore

extension DefaultABRController {
  /// The `BitrateLevel.index` to restart `download` at, or nil to let it finish.
  ///
  /// A download is abandoned when, at the speed measured since its first byte, the rest
  /// of it would take longer than the buffer lasts, and a lower level would arrive sooner
  /// than the rest of this one. The target is the highest lower level that would arrive
  /// before the buffer runs out, or the lowest level when none would.
  func abandonTarget(
    in ladder: ABRLadder, download: InProgressDownload, context: ABRContext
  ) -> Int? {
    guard let position = ladder.position(ofIndex: download.level), position > 0 else {
      return nil
    }
    let elapsed = download.elapsed.finiteSeconds
    let firstByte = download.timeToFirstByte?.finiteSeconds ?? elapsed
    let transferSeconds = elapsed - firstByte
    guard elapsed >= configuration.abandonGraceSeconds, transferSeconds > 0 else {
      return nil
    }
    let situation = ABRSituation(
      context: context, defaultBandwidth: configuration.defaultBandwidthEstimate)
    let loadedBits = Double(max(0, download.loadedBytes)) * 8
    let totalBits: Double
    if let expected = download.expectedBytes, expected > 0 {
      totalBits = Double(expected) * 8
    } else {
      totalBits = ladder.bitrates[position] * max(0.05, download.segmentDuration.finiteSeconds)
    }
    let remainingBits = totalBits - loadedBits
    guard remainingBits > 0 else { return nil }
    let speed = max(loadedBits / transferSeconds, 1)
    let finishSeconds = remainingBits / speed
    guard finishSeconds > situation.bufferPlaySeconds else { return nil }
    let latency = max(situation.latencySeconds, firstByte)
    var target: Int?
    for lower in stride(from: position - 1, through: 0, by: -1) {
      let bits = totalBits * ladder.bitrates[lower] / ladder.bitrates[position]
      let seconds = latency + bits / speed
      guard seconds < finishSeconds else { continue }
      if seconds <= situation.bufferPlaySeconds {
        target = lower
        break
      }
      if lower == 0 { target = 0 }
    }
    return target.map { ladder.levels[$0].index }
  }
}
