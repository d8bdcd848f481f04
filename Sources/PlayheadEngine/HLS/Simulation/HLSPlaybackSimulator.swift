import Foundation
import PlayheadCore
import PlayheadNet

/// Plays a VOD HLS stream through the engine's own loading code on a simulated clock,
/// with a pass-through consumer in place of demuxing and decoding.
///
/// The run uses the driver the player uses for an HLS item, with its segment queue,
/// load control, ABR controller (abandonment included) and bandwidth meter, all as
/// `configuration` sets them up; only the consumer differs: each segment plays for its
/// declared (EXTINF) duration on `clock` and its bytes are never read, so synthetic
/// segment bodies do. Playback starts and resumes after a stall when the load control's
/// `shouldStartPlayback` says so, as in the player. Decision 0011 describes the seam.
///
/// `clock` must be a `ManualClock(advancesOnWait: true)` and `network` must time its
/// transfers on it (a `SimulatedNetwork` made with it): the run happens on the calling
/// thread, as a worker of the clock (with the downloader's stall checks, the only other
/// worker), every wait moving the clock, so a run is exactly repeatable and takes only the
/// time its decisions take. The player wakes a downloader that waits for
/// buffer room at every position report; the simulator's downloader re-checks every 40 ms
/// (a frame at 25 fps) instead.
///
/// Errors: `.invalidArgument` for a clock that does not advance on wait or a live
/// stream (no end list: the run would not end); the stream's own opening and loading
/// errors (after the configured retries and failover) as the player would get them.
///
/// ```swift
/// let clock = ManualClock(advancesOnWait: true)
/// let network = SimulatedNetwork(resources: files, trace: trace, clock: clock)
/// let report = try HLSPlaybackSimulator.run(
///   url: masterURL, configuration: HLSConfiguration(), network: network, clock: clock)
/// print(report.segments.map(\.level), report.totalStallDuration)
/// ```
public enum HLSPlaybackSimulator {
  /// How often the player reports the play position to the loader (a frame at 25 fps);
  /// each report wakes a downloader that waits for buffer room, so the simulator's
  /// downloader re-checks a full buffer this often.
  static let positionReportInterval = MediaTime(value: 40, timescale: 1000)

  /// Runs the stream at `url` from its start to its end; see the type.
  ///
  /// Requests go through a data-source stack over `network` with `request`. The buffer is
  /// sampled every `bufferSampleInterval` of clock time (at least 1 ms) from the start of
  /// the run.
  public static func run(
    url: URL, configuration: HLSConfiguration = HLSConfiguration(),
    request: RequestConfiguration = RequestConfiguration(), network: any DataSourceFactory,
    clock: ManualClock, bufferSampleInterval: MediaTime = MediaTime(value: 1, timescale: 1)
  ) throws(PlayheadError) -> HLSSimulationReport {
    let outcome = clock.runAsWorker {
      Result { () throws(PlayheadError) -> HLSSimulationReport in
        try simulate(
          url: url, configuration: configuration, request: request, network: network,
          clock: clock, bufferSampleInterval: bufferSampleInterval)
      }
    }
    return try outcome.get()
  }

  private static func simulate(
    url: URL, configuration: HLSConfiguration, request: RequestConfiguration,
    network: any DataSourceFactory, clock: ManualClock, bufferSampleInterval: MediaTime
  ) throws(PlayheadError) -> HLSSimulationReport {
    guard clock.timing == .fast else {
      throw PlayheadError(
        .invalidArgument, "the playback simulator needs a ManualClock(advancesOnWait: true)")
    }
    let minimumInterval = MediaTime(value: 1, timescale: 1000)
    let interval =
      bufferSampleInterval.isNumeric && bufferSampleInterval > minimumInterval
      ? bufferSampleInterval : minimumInterval
    let startClock = clock.now
    let driver = try HLSDriver(
      url: url, configuration: configuration, clock: clock,
      stack: DataSourceStack(request: request, clock: clock, network: network))
    defer { driver.stop() }
    let contentEnd = driver.duration
    guard contentEnd.isNumeric else {
      throw PlayheadError(
        .invalidArgument, "the playback simulator plays VOD streams only (no end list)",
        url: url)
    }
    let startRule: (@Sendable (MediaTime, Bool) -> Bool)? = driver.loadControl.map { control in
      let box = UncheckedLoadControl(control)
      return { ahead, afterStall in
        box.control.shouldStartPlayback(bufferedAhead: ahead, isAfterRebuffer: afterStall)
      }
    }
    let playback = PassThroughPlayback(
      queue: driver.queue, generation: driver.queue.generation,
      start: driver.currentPlaybackPosition, contentEnd: contentEnd, clock: startClock,
      sampleInterval: interval, startRule: startRule)
    let abandonments = AbandonmentLog()
    driver.lock.lock()
    driver.positionProvider = { playback.position(at: clock.now) }
    driver.segmentLoadObserver = { abandonments.add($0) }
    driver.lock.unlock()
    driver.bufferRecheckInterval = positionReportInterval
    if let error = driver.runDownloads(returnsWhenLoaded: true) { throw error }
    guard let endClock = playback.finish(at: clock.now), let started = playback.playbackStart
    else {
      throw PlayheadError(.noPlayableStreams, "the stream has no segments to play", url: url)
    }
    return HLSSimulationReport(
      levels: driver.variants, startClock: startClock, playbackStartClock: started,
      endClock: endClock, segments: playback.segments, abandonments: abandonments.entries,
      stalls: playback.stalls, bufferSamples: playback.samples)
  }
}

/// The driver's load control, handed to the pass-through consumer: the whole run happens
/// on one thread at a time (the simulator's), and `DefaultLoadControl` is thread-safe.
private final class UncheckedLoadControl: @unchecked Sendable {
  // Unchecked Sendable: `any LoadControl` is not Sendable; shared as the comment above says.
  let control: any LoadControl
  init(_ control: any LoadControl) { self.control = control }
}

/// Collects the abandoned downloads the driver reports.
private final class AbandonmentLog: Sendable {
  private let list = Locked<[HLSSimulationReport.Abandonment]>([])

  func add(_ record: HLSSegmentLoadRecord) {
    guard let target = record.abandonedFor else { return }
    list.withLock {
      $0.append(
        HLSSimulationReport.Abandonment(
          mediaSequence: record.mediaSequence, level: record.level, targetLevel: target,
          requestClock: record.requestClock, abandonClock: record.endClock,
          bytes: record.bytes))
    }
  }

  var entries: [HLSSimulationReport.Abandonment] { list.value }
}
