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
  /// Request latency.
  let latencySeconds: Double
  /// Media left after the next segment; infinity when unknown.
  let remainingSeconds: Double

  /// With `lowBufferSegments` above zero, a buffer below that many segments plans with
  /// the lower of the estimate and the last transfer's speed (a network that just fell
  /// is believed at once while little is buffered).
  init(context: ABRContext, defaultBandwidth: Int, lowBufferSegments: Double = 0) {
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
    if lowBufferSegments > 0, bufferSeconds < lowBufferSegments * segment,
      let last = context.lastTransferBitsPerSecond, last.isFinite, last > 0, last < throughput
    {
      throughput = last
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
