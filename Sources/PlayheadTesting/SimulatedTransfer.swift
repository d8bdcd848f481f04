import Foundation
import PlayheadCore
import PlayheadNet

/// One load of a `SimulatedDataSource`: works out, from the trace, when each group of bytes
/// arrives and waits for those times on the source's clock.
///
/// All times are whole nanoseconds on the clock; bytes flow continuously at the period's
/// bandwidth (kbps / 8,000,000 bytes per nanosecond).
struct SimulatedTransfer {
  let source: SimulatedDataSource
  let request: DataRequest
  let signal: WakeSignal
  let startClock: MediaTime
  let progress: (@Sendable (TransferProgress) -> Bool)?
  private let startNs: Int64
  private let traceStartNs: Int64
  /// The clock time the transfer has reached.
  private(set) var nowNs: Int64
  /// Bytes delivered so far.
  private(set) var bytesLoaded = 0
  /// The request's latency (time to first byte), once known.
  private var latencyNs: Int64?

  init(
    source: SimulatedDataSource, request: DataRequest, signal: WakeSignal, startClock: MediaTime,
    progress: (@Sendable (TransferProgress) -> Bool)?
  ) {
    self.source = source
    self.request = request
    self.signal = signal
    self.startClock = startClock
    self.progress = progress
    startNs = startClock.nanoseconds ?? 0
    traceStartNs = source.traceStart.nanoseconds ?? 0
    nowNs = startNs
  }

  /// The clock time the transfer has reached, as a `MediaTime`.
  var now: MediaTime { MediaTime(nanoseconds: nowNs) }

  private var url: URL { request.url }

  /// Runs the transfer: the scripted fault if any, else latency, then the body.
  mutating func run(body: Data?, fault: SimulatedDataSource.ScriptedFault?)
    throws(PlayheadError) -> Data
  {
    let trace = source.trace
    let timeoutNs = Int64(source.configuration.effectiveTimeoutMs) * 1_000_000
    let first = trace.period(atNs: startNs - traceStartNs)
    let latencyNs = Int64((trace.periods[first.index].latencyMs * 1e6).rounded())
    if let fault {
      let afterNs =
        fault.afterMs.map { Int64($0) * 1_000_000 }
        ?? (fault.error.code == .timedOut ? timeoutNs : latencyNs)
      try wait(until: startNs + afterNs)
      throw fault.error
    }
    if request.range?.length == 0 { return Data() }
    if latencyNs >= timeoutNs {
      try wait(until: startNs + timeoutNs)
      throw PlayheadError(
        .timedOut,
        "no answer from \(url.absoluteString) within \(source.configuration.effectiveTimeoutMs) ms",
        url: url)
    }
    try wait(until: startNs + latencyNs)
    self.latencyNs = latencyNs
    guard let body else {
      throw PlayheadError(
        .httpStatus, "HTTP 404 Not Found for \(url.absoluteString)", url: url,
        httpStatusCode: 404)
    }
    let offset = Int(request.range?.offset ?? 0)
    if offset > 0 && offset >= body.count {
      throw PlayheadError(
        .httpStatus,
        "HTTP 416 Range Not Satisfiable for \(url.absoluteString) "
          + "(\(request.range?.description ?? ""))",
        url: url, httpStatusCode: 416)
    }
    let end = min(body.count, request.range?.end.map { Int($0) } ?? body.count)
    // A whole body is handed out as it is (Data shares its storage); a range is copied.
    let slice =
      offset == 0 && end == body.count
      ? body : body.subdata(in: (body.startIndex + offset)..<(body.startIndex + end))
    if !slice.isEmpty { try deliver(slice.count, timeoutNs: timeoutNs) }
    return slice
  }

  /// Delivers `total` bytes from `nowNs` at the trace's bandwidth, reporting progress every
  /// interval of bytes, every interval of time (when set) and at each period boundary.
  private mutating func deliver(_ total: Int, timeoutNs: Int64) throws(PlayheadError) {
    let trace = source.trace
    let interval = source.progressIntervalBytes
    let timeStepNs = source.progressIntervalMs.map { max(1, Int64(($0 * 1e6).rounded())) }
    var nextTimeReportNs = timeStepNs.map { nowNs + $0 } ?? Int64.max
    var delivered = 0.0
    var nextReport = min(total, interval)
    var lastActivityNs = nowNs
    /// Moves the next timed report past the time reached.
    func passTimedReports(_ reachedNs: Int64) {
      guard let step = timeStepNs else { return }
      while nextTimeReportNs <= reachedNs { nextTimeReportNs += step }
    }
    while true {
      let (index, remainingNs) = trace.period(atNs: nowNs - traceStartNs)
      // The next event: the period's end, or a timed report before it.
      let boundaryNs = min(nowNs + remainingNs, nextTimeReportNs)
      let bytesPerNs = trace.periods[index].bandwidthKbps / 8_000_000
      if bytesPerNs <= 0 {
        let timeoutAtNs = lastActivityNs + timeoutNs
        if timeoutAtNs <= boundaryNs {
          try wait(until: timeoutAtNs)
          throw PlayheadError(
            .timedOut,
            "no data from \(url.absoluteString) for \(source.configuration.effectiveTimeoutMs) ms "
              + "after \(bytesLoaded) bytes", url: url)
        }
        try wait(until: boundaryNs)
        passTimedReports(boundaryNs)
        try report(total)
        continue
      }
      let atBoundary = delivered + bytesPerNs * Double(boundaryNs - nowNs)
      if atBoundary >= Double(nextReport) {
        let needNs = ((Double(nextReport) - delivered) / bytesPerNs).rounded(.up)
        let eventNs = min(boundaryNs, nowNs + Int64(max(0, needNs)))
        delivered = Double(nextReport)
        try wait(until: eventNs)
        lastActivityNs = eventNs
        bytesLoaded = nextReport
        passTimedReports(eventNs)
        try report(total)
        if nextReport == total { return }
        nextReport = min(total, nextReport + interval)
      } else {
        delivered = atBoundary
        try wait(until: boundaryNs)
        lastActivityNs = boundaryNs
        bytesLoaded = min(total, Int(delivered.rounded(.down)))
        passTimedReports(boundaryNs)
        try report(total)
      }
    }
  }

  /// Waits on the clock until `deadlineNs`; throws `.cancelled` when `cancelAll` wakes it.
  private mutating func wait(until deadlineNs: Int64) throws(PlayheadError) {
    if !source.clock.wait(until: MediaTime(nanoseconds: deadlineNs), orUntil: signal) {
      nowNs = max(nowNs, min(deadlineNs, source.clock.now.nanoseconds ?? nowNs))
      throw SimulatedDataSource.cancelledError(url)
    }
    nowNs = deadlineNs
  }

  /// Hands the progress so far to the callback; throws `.cancelled` when it returns false.
  private func report(_ total: Int) throws(PlayheadError) {
    guard let progress else { return }
    let keepGoing = progress(
      TransferProgress(
        request: request, bytesLoaded: bytesLoaded, bytesExpected: total,
        elapsed: now - startClock, timeToFirstByte: latencyNs.map { MediaTime(nanoseconds: $0) }))
    if !keepGoing {
      throw PlayheadError(
        .cancelled, "load abandoned after \(bytesLoaded) bytes: \(url.absoluteString)", url: url)
    }
  }
}
