import Foundation
import PlayheadCore
import PlayheadNet

/// Serves bytes from memory over a simulated network whose bandwidth and latency follow a
/// `NetworkTrace`, timed on a `Clock`: a `DataSourceFactory` that a player (its
/// `PlayerConfiguration.network`), a download or a test plugs in as its network.
///
/// Each source it makes waits, at `open`, the latency of the trace period in force when the
/// request starts, then receives its bytes at each period's bandwidth, across period
/// boundaries; a read returns once the bytes it hands out have arrived, waiting for that
/// time on `clock`. With a `ManualClock(advancesOnWait: true)` a transfer takes no wall
/// time while the clock moves by the transfer time; with a `ManualClock` that a test
/// advances, a read returns when the test has moved the clock far enough. The trace starts
/// at `traceStart` on the clock and repeats. Concurrent transfers do not share bandwidth:
/// each sees the whole trace.
///
/// A read returns at the first of: `progressIntervalBytes` more bytes (or the reader's
/// buffer full), the end of a trace period with bytes in it, and every
/// `progressIntervalMs` of clock time with bytes in it; so a whole-resource load's progress
/// callback runs at those points. A transfer that receives no bytes for the
/// configuration's timeout (during a long latency or a zero-bandwidth period) throws
/// `.timedOut` when the timeout has passed on the clock.
///
/// Errors: a URL without a resource throws `.httpStatus` 404, a range that starts at or
/// past the end `.httpStatus` 416, both at `open` after the request's latency.
/// `fail(_:with:times:afterMs:)` scripts failures. A range that runs past the end is cut
/// at the end.
///
/// Example:
/// ```swift
/// let clock = ManualClock(advancesOnWait: true)
/// let network = SimulatedNetwork(
///   resources: [url: segment], trace: .constant(bandwidthKbps: 4_000, latencyMs: 50),
///   clock: clock)
/// let response = try network.load(DataRequest(url: url))   // clock moved by the transfer time
/// ```
public final class SimulatedNetwork: DataSourceFactory, Sendable {
  /// One transfer as the network saw it.
  public struct LogEntry: Sendable {
    public var request: DataRequest
    /// The clock when the request was opened.
    public var startClock: MediaTime
    /// The clock when the transfer ended (its last byte read, a failure, or a close); nil
    /// while it runs.
    public var endClock: MediaTime?
    /// The bytes delivered (all of them on success; up to the close or failure point).
    public var bytes: Int
    /// Why the transfer failed, if it did.
    public var error: PlayheadError?
    /// Identifies the transfer, so that its entry is found again when it ends.
    let transferID: Int
  }

  /// A scripted failure for one URL.
  struct ScriptedFault: Sendable {
    var error: PlayheadError
    var remaining: Int
    var afterMs: Int?
  }

  /// The network the transfers go through.
  public let trace: NetworkTrace
  /// The clock transfers wait on.
  public let clock: any Clock
  /// Where the trace's first period starts on `clock`.
  public let traceStart: MediaTime
  /// Supplies the timeout; other fields are not used.
  public let configuration: RequestConfiguration
  /// The most bytes one read hands out.
  public let progressIntervalBytes: Int
  /// How often, in milliseconds of clock time, a read also returns while a body is being
  /// transferred; nil = only by bytes and periods.
  public let progressIntervalMs: Double?

  private let state: Locked<State>

  struct State: Sendable {
    var storedResources: [URL: Data]
    var faults: [URL: [ScriptedFault]] = [:]
    var log: [LogEntry] = []
    var cancelled = false
    var active: [Int: SimulatedDataSource] = [:]
    var nextID = 0

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

  /// Creates a network serving `resources` over `trace`; the trace starts at `traceStart`
  /// (default: the clock's time now). A `progressIntervalBytes` below 1 counts as 1; a
  /// `progressIntervalMs` that is not positive and finite counts as nil (no timed returns),
  /// and one below 1 ms as 1 ms.
  public init(
    resources: [URL: Data] = [:], trace: NetworkTrace, clock: any Clock,
    traceStart: MediaTime? = nil, configuration: RequestConfiguration = .init(),
    progressIntervalBytes: Int = 64 * 1024, progressIntervalMs: Double? = nil
  ) {
    state = Locked(State(storedResources: resources))
    self.trace = trace
    self.clock = clock
    self.traceStart = traceStart ?? clock.now
    self.configuration = configuration
    self.progressIntervalBytes = max(1, progressIntervalBytes)
    if let interval = progressIntervalMs, interval.isFinite, interval > 0 {
      self.progressIntervalMs = max(1, interval)
    } else {
      self.progressIntervalMs = nil
    }
  }

  public func makeDataSource() -> any DataSource { SimulatedDataSource(network: self) }

  /// The bytes served, by URL; settable at any time (a transfer uses what was there when
  /// it opened).
  public var resources: [URL: Data] {
    get { state.withLock { $0.storedResources } }
    set { state.withLock { $0.storedResources = newValue } }
  }

  /// Serves `data` at `url`, or stops serving it when `data` is nil.
  public func setResource(_ data: Data?, for url: URL) {
    state.withLock { $0.storedResources[url] = data }
  }

  /// Makes the next `times` opens of `url` fail with `error` (its `url` filled in when
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

  /// Every transfer so far, in open order.
  public var requestLog: [LogEntry] { state.withLock { $0.log } }

  /// Forgets the logged transfers.
  public func clearRequestLog() {
    state.withLock { $0.log.removeAll() }
  }

  /// Makes every blocked and future transfer throw `.cancelled` at once; the clock stays
  /// where it is. Safe from any thread.
  public func cancelAll() {
    let sources = state.withLock { state in
      state.cancelled = true
      return Array(state.active.values)
    }
    for source in sources { source.cancel() }
  }

  /// Loads `request` whole over the network (a `DataLoader` on `clock`).
  public func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)? = nil
  ) throws(PlayheadError) -> DataResponse {
    try DataLoader(factory: self, clock: clock).load(request, progress: progress)
  }

  // MARK: For the sources

  /// Registers a transfer of `source`: its log entry, the body and scripted fault it
  /// meets; nil once the network is cancelled.
  func begin(_ request: DataRequest, source: SimulatedDataSource)
    -> (id: Int, start: MediaTime, body: Data?, fault: ScriptedFault?)?
  {
    let clock = clock
    // The clock is read under the lock (its own lock is a leaf), so that the log is in
    // start order.
    return state.withLock { state in
      if state.cancelled { return nil }
      let id = state.nextID
      state.nextID += 1
      state.active[id] = source
      let start = clock.now
      state.log.append(
        LogEntry(request: request, startClock: start, endClock: nil, bytes: 0, transferID: id))
      return (id, start, state.storedResources[request.url], state.takeFault(for: request.url))
    }
  }

  /// Notes how far transfer `id` has come; with `ended`, it is over.
  func update(_ id: Int, bytes: Int, endClock: MediaTime?, error: PlayheadError?) {
    state.withLock { state in
      if endClock != nil { state.active[id] = nil }
      guard let index = state.log.lastIndex(where: { $0.transferID == id }) else { return }
      state.log[index].bytes = bytes
      if let endClock { state.log[index].endClock = endClock }
      if let error { state.log[index].error = error }
    }
  }
}
