import PlayheadCore

extension DefaultABRController {
  /// The `BitrateLevel.index` to restart `download` at, or nil to let it finish.
  ///
  /// The download is judged by its own speed once bytes have been flowing (or not) for
  /// `abandonGraceSeconds`. It is abandoned when its rest would take longer than
  /// `abandonBufferShare` of the time the buffer lasts, and a lower level is smaller than
  /// that rest. The target is the highest such level that would arrive within that share,
  /// else the lowest.
  ///
  /// Targets are eligible levels (the caps apply) below the download's bitrate; the
  /// download itself may be on a level that a new cap has since ruled out.
  func abandonTarget(
    in ladder: ABRLadder, download: InProgressDownload, downloading: BitrateLevel,
    context: ABRContext
  ) -> Int? {
    let bitrate = Double(max(1, downloading.plannedBitrate))
    let candidates = ladder.bitrates.indices.filter { ladder.bitrates[$0] < bitrate }
    guard !candidates.isEmpty else { return nil }
    let elapsed = download.elapsed.finiteSeconds
    let firstByte = download.timeToFirstByte?.finiteSeconds ?? elapsed
    let transferSeconds = max(0, elapsed - firstByte)
    guard transferSeconds >= configuration.abandonGraceSeconds, transferSeconds > 0 else {
      return nil
    }
    let situation = ABRSituation(
      context: context, defaultBandwidth: configuration.defaultBandwidthEstimate)
    let loadedBits = Double(max(0, download.loadedBytes)) * 8
    let totalBits: Double
    if let expected = download.expectedBytes, expected > 0 {
      totalBits = Double(expected) * 8
    } else {
      totalBits = bitrate * max(0.05, download.segmentDuration.finiteSeconds)
    }
    let remainingBits = totalBits - loadedBits
    guard remainingBits > 0 else { return nil }
    let speed = loadedBits / transferSeconds
    let finishSeconds = speed > 0 ? remainingBits / speed : .infinity
    let deadline = situation.bufferPlaySeconds * configuration.abandonBufferShare
    guard finishSeconds > deadline else { return nil }
    let latency = max(situation.latencySeconds, firstByte)
    var target: Int?
    for lower in candidates.reversed() {
      let bits = totalBits * ladder.bitrates[lower] / bitrate
      guard bits < remainingBits else { continue }
      if speed > 0, latency + bits / speed <= deadline {
        target = lower
        break
      }
      if lower == 0 { target = 0 }
    }
    return target.map { ladder.levels[$0].index }
  }
}
