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
  /// The throughput estimate, or the default estimate before any measurement.
  private(set) var throughput: Double
  /// The speed of the last finished transfer, when measured.
  let lastTransfer: Double?
  /// Request latency.
  let latencySeconds: Double
  /// Media left after the next segment; infinity when unknown.
  let remainingSeconds: Double

  /// Whether the last transfer came in so much slower than the level being loaded that
  /// one more segment at that speed would take the buffer below `slowTransferBufferShare`
  /// of what it is, or below `slowTransferFactor` of the level, or slower than the level
  /// after others that did (`isPersistentlySlow`): evidence that the level is not
  /// carried.
  private(set) var lastTransferDrains = false
  /// Whether downloads in a row came in slower than their segments play
  /// (`slowTransferRun`): evidence that no hold overrides.
  let isPersistentlySlow: Bool

  /// Plans with the lower of the estimate and the last transfer's speed (a network that
  /// just fell is believed at once) when the buffer is below `lowBufferSegments` segments
  /// (0: never for that reason), or when that transfer is evidence against
  /// `currentBitrate`, the level being loaded (`lastTransferDrains`): the level is not
  /// carried, whatever the smoothed estimate says.
  init(
    context: ABRContext, defaultBandwidth: Int, lowBufferSegments: Double = 0,
    currentBitrate: Double? = nil, slowTransferBufferShare: Double = 0,
    isPersistentlySlow: Bool = false, slowTransferFactor: Double = 0
  ) {
    self.isPersistentlySlow = isPersistentlySlow
    let rate = context.playbackRate.isFinite && context.playbackRate > 0 ? context.playbackRate : 1
    let segment = max(0.05, context.segmentDuration.finiteSeconds)
    segmentSeconds = segment
    segmentPlaySeconds = segment / rate
    bufferSeconds = context.bufferLevel.finiteSeconds
    bufferPlaySeconds = bufferSeconds / rate
    maximumBufferSeconds = max(segment, context.maximumBuffer.finiteSeconds)
    if let measured = context.throughputBitsPerSecond, measured.isFinite, measured > 0 {
      throughput = measured
    } else {
      throughput = Double(max(1, defaultBandwidth))
    }
    let last = context.lastTransferBitsPerSecond.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    lastTransfer = last
    if let last, let currentBitrate, last < currentBitrate {
      let after = bufferSeconds - segment * currentBitrate / last + segment
      lastTransferDrains =
        isPersistentlySlow || last < slowTransferFactor * currentBitrate
        || after < slowTransferBufferShare * bufferSeconds
    }
    let isLow = lowBufferSegments > 0 && bufferSeconds < lowBufferSegments * segment
    if let last, last < throughput, isLow || lastTransferDrains {
      throughput = last
    }
    latencySeconds = context.requestLatency?.finiteSeconds ?? 0
    if let remaining = context.remainingContent, remaining.isNumeric {
      remainingSeconds = remaining.finiteSeconds
    } else {
      remainingSeconds = .infinity
    }
  }

  /// The same situation planned with `throughput` instead.
  func planning(with throughput: Double) -> ABRSituation {
    var copy = self
    copy.throughput = max(1, throughput)
    return copy
  }

  /// What the last transfer showed the link carries (the estimate before one).
  var lastShownThroughput: Double { lastTransfer ?? throughput }

  /// The slower of the estimate and the last transfer's speed: what a plan that must not
  /// be caught out by a link still falling assumes.
  var slowerShownThroughput: Double { min(throughput, lastShownThroughput) }

  /// What the link has shown it can carry: the estimate, or the last transfer's speed
  /// when that was faster (a link that has just risen, before the smoothed estimate
  /// follows it up).
  var shownThroughput: Double { max(throughput, lastTransfer ?? 0) }

  /// Wall time to fetch one segment of `bitrate` at `throughput × factor`.
  func downloadSeconds(bitrate: Double, factor: Double) -> Double {
    latencySeconds + segmentSeconds * bitrate / (throughput * factor)
  }
}
