import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTesting

/// A ladder as an HLS stream: a master playlist, one VOD media playlist per level, and
/// segment bodies of exactly the ladder's sizes. The bodies are zeros sharing one buffer:
/// the engine's pass-through consumer never reads them.
struct SyntheticStream {
  let master: URL
  let resources: [URL: Data]

  init(ladder: Ladder) {
    let base = URL(string: "http://abr.bench/")!
    master = base.appendingPathComponent("master.m3u8")
    let bytes = ladder.sizes.map { $0.map { max(1, Int(($0 / 8).rounded())) } }
    let zeros = Data(count: bytes.joined().max() ?? 1)
    var files: [URL: Data] = [:]
    var masterText = "#EXTM3U\n#EXT-X-VERSION:3\n"
    let duration = String(format: "%.3f", ladder.segmentSeconds)
    let target = Int(ladder.segmentSeconds.rounded(.up))
    for level in 0..<ladder.levelCount {
      masterText += "#EXT-X-STREAM-INF:BANDWIDTH=\(Int(ladder.bitrates[level]))\n"
      masterText += "level\(level)/index.m3u8\n"
      var media =
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n"
        + "#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
      for segment in 0..<ladder.segmentCount {
        media += "#EXTINF:\(duration),\nsegment\(segment).ts\n"
        files[base.appendingPathComponent("level\(level)/segment\(segment).ts")] =
          zeros.prefix(bytes[segment][level])
      }
      media += "#EXT-X-ENDLIST\n"
      files[base.appendingPathComponent("level\(level)/index.m3u8")] = Data(media.utf8)
    }
    files[master] = Data(masterText.utf8)
    resources = files
  }
}

/// Playhead as the engine plays HLS: `HLSPlaybackSimulator` runs the engine's HLS driver,
/// load control, ABR controller and bandwidth meter over the trace on a fast manual
/// clock, with segments played by their declared duration.
struct EngineSession {
  let ladder: Ladder
  let stream: SyntheticStream
  let maximumBuffer: Double
  /// How often a running download reports progress (and is offered for abandonment).
  let progressIntervalMs: Double
  /// The request timeout; the traces' outages (up to 29 min in 3G) would end sessions on
  /// the default 10 s timeout, and the baselines never time out.
  let timeoutMs: Int

  /// The HLS configuration every engine run uses: the ABR controller's configuration
  /// `abr`, and a load control with the same 25 s maximum buffer as the baselines,
  /// loading whenever one more segment fits (no hysteresis, optimiser off).
  func configuration(abr: DefaultABRController.Configuration) -> HLSConfiguration {
    let maximum = MediaTime(seconds: maximumBuffer, preferredTimescale: 1000)
    var configuration = HLSConfiguration(
      makeABRController: { DefaultABRController(configuration: abr) })
    // A download that receives nothing is offered for abandonment as often as a running
    // one reports progress.
    configuration.stalledDownloadCheckIntervalMs = Int(progressIntervalMs.rounded())
    configuration.bufferSettings = BufferSettings(
      startupBuffer: MediaTime(value: 1, timescale: 1),
      bufferAfterRebuffer: MediaTime(value: 1, timescale: 1),
      lowWaterMark: maximum, highWaterMark: maximum, maximumBuffer: maximum,
      optimizer: BufferOptimizer.none)
    return configuration
  }

  func run(
    trace: Trace, abr: DefaultABRController.Configuration, log: ((String) -> Void)? = nil
  ) throws -> SessionResult {
    let clock = ManualClock(advancesOnWait: true)
    let periods = trace.periods.filter { $0.seconds > 0 }.map {
      NetworkTrace.Period(
        durationMs: $0.seconds * 1000, bandwidthKbps: $0.bandwidth / 1000,
        latencyMs: $0.latency * 1000)
    }
    let network = try NetworkTrace(periods: periods)
    let simulated = SimulatedNetwork(
      resources: stream.resources, trace: network, clock: clock,
      configuration: RequestConfiguration(timeoutMs: timeoutMs),
      progressIntervalBytes: Int.max, progressIntervalMs: progressIntervalMs)
    let report = try HLSPlaybackSimulator.run(
      url: stream.master, configuration: configuration(abr: abr),
      request: RequestConfiguration(timeoutMs: timeoutMs), network: simulated, clock: clock)
    guard report.segments.count == ladder.segmentCount else {
      throw HarnessError(
        "\(trace.name): the engine played \(report.segments.count) of \(ladder.segmentCount) segments"
      )
    }
    if let log { Self.log(report, to: log) }
    var result = SessionResult(segmentSeconds: ladder.segmentSeconds)
    result.totalSeconds = report.sessionDuration.seconds
    result.rebufferSeconds = report.totalStallDuration.seconds
    result.startupSeconds = report.startupDuration.seconds
    var previous: Int?
    for segment in report.segments {
      result.play(level: segment.level, after: previous, ladder: ladder)
      previous = segment.level
    }
    result.abandonments = report.abandonments.count
    return result
  }

  private static func log(_ report: HLSSimulationReport, to log: (String) -> Void) {
    let origin = report.startClock
    func at(_ clock: MediaTime) -> String { Report.fixed((clock - origin).seconds, 2) }
    log("startup \(Report.fixed(report.startupDuration.seconds, 2)) s")
    var abandonments = report.abandonments[...]
    var stalls = report.stalls[...]
    for segment in report.segments {
      while let abandoned = abandonments.first, abandoned.abandonClock <= segment.arrivalClock {
        abandonments.removeFirst()
        log(
          "t=\(at(abandoned.abandonClock)) seg=\(abandoned.mediaSequence) level=\(abandoned.level)"
            + " ABANDON->\(abandoned.targetLevel) after \(abandoned.bytes) bytes")
      }
      while let stall = stalls.first, stall.startClock <= segment.arrivalClock {
        stalls.removeFirst()
        log("t=\(at(stall.startClock)) STALL \(Report.fixed(stall.duration.seconds, 2)) s")
      }
      let seconds = (segment.arrivalClock - segment.requestClock).seconds
      log(
        "t=\(at(segment.arrivalClock)) seg=\(segment.mediaSequence) level=\(segment.level)"
          + " dl=\(Report.fixed(seconds, 2))"
          + " tput=\(Report.fixed(Double(segment.bytes) * 8 / max(1e-9, seconds) / 1000, 0))k"
          + " buf=\(Report.fixed(segment.bufferAfterArrival.seconds, 2))")
    }
  }
}
