import PlayheadCore

extension DefaultABRController {
  /// The `BitrateLevel.index` to restart `download` at, or nil to let it finish.
  ///
  /// The download is judged by its own speed once bytes have been flowing (or not) for
  /// `abandonGraceSeconds`. It is abandoned when its rest, followed by one segment of the
  /// lowest level at that speed, would take longer than `abandonBufferShare` of the time
  /// the buffer lasts, and a lower level is smaller than that rest. The target is the
  /// highest such level that the download's speed carries (at `abandonTargetFactor`) and
  /// that would arrive within that share, else the lowest. (`shouldAbandon` then waits for
  /// this to hold for `abandonConfirmSeconds` while playing.)
  ///
  /// Targets are eligible levels (the caps apply) below the download's bitrate; the
  /// download itself may be on a level that a new cap has since ruled out.
  func abandonTarget(
    in ladder: ABRLadder, download: InProgressDownload, downloading: BitrateLevel,
    context: ABRContext, recentSpeed: Double? = nil
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
    let average = loadedBits / transferSeconds
    // The refetch plans with the recent speed (the last `recentSpeedWindowSeconds`) when
    // slower: a link that has just fallen shows in the bytes arriving now, not in the
    // average since the request. The rest is judged by it too when it is a collapse
    // (under `abandonCollapseShare` of the average), not the noise of a second.
    let refetchSpeed = min(average, recentSpeed ?? .infinity)
    let speed =
      refetchSpeed < configuration.abandonCollapseShare * average ? refetchSpeed : average
    let finishSeconds = speed > 0 ? remainingBits / speed : .infinity
    let latency = max(situation.latencySeconds, firstByte)
    /// The size of this segment at the level in `position`.
    func segmentBits(at position: Int) -> Double { totalBits * ladder.bitrates[position] / bitrate }
    let deadline = situation.bufferPlaySeconds * configuration.abandonBufferShare
    // Finishing is fine while the buffer left afterwards still covers fetching one segment
    // of the lowest level at the same speed: riding the buffer through a dip keeps the
    // bytes already loaded (the next decision steps down).
    let reserve = speed > 0 ? latency + segmentBits(at: 0) / speed : .infinity
    guard finishSeconds > deadline - reserve else { return nil }
    var target: Int?
    for lower in candidates.reversed() {
      let bits = segmentBits(at: lower)
      guard bits < remainingBits else { continue }
      // The refetch must arrive in time and be a level this speed carries, or the next
      // segment would be abandoned (or drain the buffer) in its turn.
      let carried = ladder.bitrates[lower] <= configuration.abandonTargetFactor * refetchSpeed
      if refetchSpeed > 0, carried, latency + bits / refetchSpeed <= deadline {
        target = lower
        break
      }
      if lower == 0 { target = 0 }
    }
    return target.map { ladder.levels[$0].index }
  }

  /// How far back the recent speed of a running download looks, in seconds (a second's
  /// dip on a mobile link is noise; two seconds of collapse on a shaped one is not).
  static let recentSpeedWindowSeconds = 2.0

  /// The speed of `download` over about the last `recentSpeedWindowSeconds`, from the
  /// progress samples kept in `state` (nil until the samples span that long).
  func recentSpeed(of download: InProgressDownload, state: inout State) -> Double? {
    let elapsed = download.elapsed.finiteSeconds
    let bytes = max(0, download.loadedBytes)
    if state.progressLevel != download.level
      || (state.progress.last.map {
        $0.elapsed > elapsed || $0.bytes > bytes
      } ?? false)
    {
      state.progress.removeAll()
      state.abandonDueSince = nil
    }
    state.progressLevel = download.level
    state.progress.append((elapsed, bytes))
    // A microsecond of slack, so that samples exactly a window apart count.
    let window = Self.recentSpeedWindowSeconds - 1e-6
    while state.progress.count > 2, elapsed - state.progress[1].elapsed >= window {
      state.progress.removeFirst()
    }
    guard let oldest = state.progress.first, elapsed - oldest.elapsed >= window else {
      return nil
    }
    return Double(bytes - oldest.bytes) * 8 / (elapsed - oldest.elapsed)
  }
}
