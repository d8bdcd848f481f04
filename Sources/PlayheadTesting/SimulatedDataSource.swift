import Foundation
import PlayheadCore
import PlayheadNet

/// Serves bytes from memory over a simulated network whose bandwidth and latency follow a
/// `NetworkTrace`, timed on a `Clock`.
///
/// A load waits the latency of the trace period in force when it starts, then receives
/// its bytes at each period's bandwidth, across period boundaries; the transfer time is
/// computed exactly from the trace and the load waits for it on `clock`. With a
/// `ManualClock(advancesOnWait: true)` a load returns at once in wall time while the clock
/// moves by the transfer time; with a `ManualClock` that a test advances, a load returns
/// when the test has moved the clock far enough. The trace starts at `traceStart` on the
/// clock and repeats. Concurrent loads do not share bandwidth: each sees the whole trace.
///
/// The progress callback runs every `progressIntervalBytes`, every `progressIntervalMs` of
/// clock time when that is set, and at each period boundary, with `elapsed` in simulated
/// time and `timeToFirstByte` the request's latency; returning `false` abandons the load
/// with `.cancelled` and the clock stops there. A load that receives no bytes for the configuration's
/// timeout (during a long latency or a zero-bandwidth period) throws `.timedOut` when the
/// timeout has passed on the clock.
///
/// Errors: a URL without a resource throws `.httpStatus` 404, a range that starts at or
/// past the end `.httpStatus` 416, both after the request's latency. `fail(_:with:times:afterMs:)`
/// scripts failures. A range that runs past the end is cut at the end.
///
/// Example:
/// ```swift
/// let clock = ManualClock(advancesOnWait: true)
/// let source = SimulatedDataSource(
///   resources: [url: segment], trace: .constant(bandwidthKbps: 4_000, latencyMs: 50),
///   clock: clock)
/// let response = try source.load(DataRequest(url: url))   // clock moved by the transfer time
/// ```
public final class SimulatedDataSource: DataSource, Sendable {
  /// One load as the source saw it.
  public struct LogEntry: Sendable {
    public var request: DataRequest
    /// The clock when the load started.
    public var startClock: MediaTime
    /// The clock when the load ended; nil while it runs.
    public var endClock: MediaTime?
    /// The bytes delivered (all of them on success; up to the abandon or failure point).
    public var bytes: Int
    /// Why the load failed, if it did.
    public var error: PlayheadError?
    /// Identifies the load, so that its entry is found again when it ends.
    let loadID: Int
  }

  /// A scripted failure for one URL.
  struct ScriptedFault: Sendable {
    var error: PlayheadError
    var remaining: Int
    var afterMs: Int?
  }

  /// The network the loads go through.
  public let trace: NetworkTrace
  /// The clock loads wait on and that timestamps them.
  public let clock: any Clock
  /// Where the trace's first period starts on `clock`.
  public let traceStart: MediaTime
  /// Supplies the timeout; other fields are not used.
  public let configuration: RequestConfiguration
  /// Told about every successful transfer.
  public let transferListener: (any TransferListener)?
  /// How often, in bytes, the progress callback runs during a transfer.
  public let progressIntervalBytes: Int
  /// How often, in milliseconds of clock time, the progress callback also runs while a
  /// body is being transferred (or waits in an outage); nil = only by bytes and periods.
  public let progressIntervalMs: Double?

  private let state: Locked<State>

  private struct State: Sendable {
    var storedResources: [URL: Data]
    var faults: [URL: [ScriptedFault]] = [:]
    var log: [LogEntry] = []
    var cancelled = false
    var activeSignals: [Int: WakeSignal] = [:]
    var nextLoadKey = 0

    /// Takes one use of the first scripted failure for `url`.
    mutating func takeFault(for url: URL) -> ScriptedFault? {
      guard var queue = faults[url], !queue.isEmpty else { return nil }
      let fault = queue[0]
      queue[0].remaining -= 1
      if queue[0].remaining <= 0 { queue.removeFirst() }
      faults[url] = queue.isEmpty ? nil : queue
      return fault
    }
  }

  /// Creates a source serving `resources` over `trace`; the trace starts at `traceStart`
  /// (default: the clock's time now). A `progressIntervalBytes` below 1 counts as 1; a
  /// `progressIntervalMs` that is not positive and finite counts as nil (no timed reports),
  /// and one below 1 ms as 1 ms.
  public init(
    resources: [URL: Data] = [:], trace: NetworkTrace, clock: any Clock,
    traceStart: MediaTime? = nil, configuration: RequestConfiguration = .init(),
    transferListener: (any TransferListener)? = nil, progressIntervalBytes: Int = 64 * 1024,
    progressIntervalMs: Double? = nil
  ) {
    state = Locked(State(storedResources: resources))
    self.trace = trace
    self.clock = clock
    self.traceStart = traceStart ?? clock.now
    self.configuration = configuration
    self.transferListener = transferListener
    self.progressIntervalBytes = max(1, progressIntervalBytes)
    if let interval = progressIntervalMs, interval.isFinite, interval > 0 {
      self.progressIntervalMs = max(1, interval)
    } else {
      self.progressIntervalMs = nil
    }
  }

  /// The bytes served, by URL; settable at any time (a load uses what was there when it
  /// started).
  public var resources: [URL: Data] {
    get { state.withLock { $0.storedResources } }
    set { state.withLock { $0.storedResources = newValue } }
  }

  /// Serves `data` at `url`, or stops serving it when `data` is nil.
  public func setResource(_ data: Data?, for url: URL) {
    state.withLock { $0.storedResources[url] = data }
  }

  /// Makes the next `times` loads of `url` fail with `error` (its `url` filled in when
  /// nil), after `afterMs` of clock time.
  ///
  /// Without `afterMs`, a `.timedOut` error takes the configuration's timeout and any other
  /// error the latency of the trace at the request time, as an error answer would. Several
  /// calls for one URL queue up in order. A `times` below 1 does nothing.
  public func fail(_ url: URL, with error: PlayheadError, times: Int = 1, afterMs: Int? = nil) {
    guard times > 0 else { return }
    var scripted = error
    if scripted.url == nil { scripted.url = url }
    let fault = ScriptedFault(
      error: scripted, remaining: times, afterMs: afterMs.map { max(0, $0) })
    state.withLock { $0.faults[url, default: []].append(fault) }
  }

  /// Forgets every scripted failure.
  public func clearFaults() {
    state.withLock { $0.faults.removeAll() }
  }

  /// Every load so far, in start order.
  public var requestLog: [LogEntry] { state.withLock { $0.log } }

  /// Forgets the logged loads.
  public func clearRequestLog() {
    state.withLock { $0.log.removeAll() }
  }

  /// Makes every blocked and future load throw `.cancelled` at once; the clock stays where
  /// it is. Safe from any thread.
  public func cancelAll() {
    let signals = state.withLock { state in
      state.cancelled = true
      return Array(state.activeSignals.values)
    }
    for signal in signals { signal.raise() }
  }

  /// Loads `request` over the simulated network; see the type.
  public func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse {
    let signal = WakeSignal()
    let clock = clock
    // The clock is read under the lock (its own lock is a leaf), so that the log is in
    // start order.
    let started = state.withLock { state -> (Int, MediaTime, Data?, ScriptedFault?)? in
      if state.cancelled { return nil }
      let key = state.nextLoadKey
      state.nextLoadKey += 1
      state.activeSignals[key] = signal
      let startClock = clock.now
      state.log.append(
        LogEntry(request: request, startClock: startClock, endClock: nil, bytes: 0, loadID: key))
      return (
        key, startClock, state.storedResources[request.url], state.takeFault(for: request.url)
      )
    }
    guard let (key, startClock, body, fault) = started else {
      throw Self.cancelledError(request.url)
    }

    var transfer = SimulatedTransfer(
      source: self, request: request, signal: signal, startClock: startClock,
      progress: progress)
    let result = Result { () throws(PlayheadError) -> Data in
      try transfer.run(body: body, fault: fault)
    }
    let endClock = transfer.now
    let bytesLoaded = transfer.bytesLoaded
    state.withLock { state in
      state.activeSignals[key] = nil
      if let logIndex = state.log.lastIndex(where: { $0.loadID == key }) {
        state.log[logIndex].endClock = endClock
        state.log[logIndex].bytes = bytesLoaded
        if case .failure(let error) = result { state.log[logIndex].error = error }
      }
    }
    let data = try result.get()
    transferListener?.transferEnded(
      request: request, bytes: data.count, duration: endClock - startClock)
    return DataResponse(
      data: data, url: request.url, statusCode: request.range == nil ? 200 : 206,
      startClock: startClock, endClock: endClock, totalLength: body.map { Int64($0.count) })
  }

  static func cancelledError(_ url: URL) -> PlayheadError {
    PlayheadError(.cancelled, "load cancelled: \(url.absoluteString)", url: url)
  }
}
