import Foundation
import PlayheadCore
import PlayheadNet

/// One transfer at a time over a `SimulatedNetwork`: waits the latency at `open`, then hands
/// out bytes as the trace delivers them, waiting for their arrival on the network's clock.
///
/// All times are whole nanoseconds on the clock; bytes flow continuously at the period's
/// bandwidth (kbps / 8,000,000 bytes per nanosecond). See `SimulatedNetwork` for when a read
/// returns and for the errors.
public final class SimulatedDataSource: DataSource, @unchecked Sendable {
  // Unchecked Sendable: the transfer state is the reading thread's (`open`, `read` and
  // `close` come one at a time); `cancel()` only sets a locked flag and raises the signal.
  public let network: SimulatedNetwork
  private let signal = WakeSignal()
  private let cancelled = Locked(false)
  private var transfer: Transfer?

  /// The state of one open transfer.
  private struct Transfer {
    var id: Int
    var request: DataRequest
    var body: Data
    var startNs: Int64
    /// The clock time the transfer has reached.
    var nowNs: Int64
    var lastActivityNs: Int64
    var nextTimeReportNs: Int64
    /// Bytes delivered by the network so far (fractional between events) and handed out.
    var delivered: Double = 0
    var handedOut = 0
    var ended = false
  }

  init(network: SimulatedNetwork) {
    self.network = network
  }

  private var traceStartNs: Int64 { network.traceStart.nanoseconds ?? 0 }
  private var timeoutNs: Int64 { Int64(network.configuration.effectiveTimeoutMs) * 1_000_000 }

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    close()
    let url = request.url
    if cancelled.value { throw PlayheadError.sourceCancelled(url) }
    guard let begun = network.begin(request, source: self) else {
      throw PlayheadError.sourceCancelled(url)
    }
    let startNs = begun.start.nanoseconds ?? 0
    var nowNs = startNs
    let trace = network.trace
    let first = trace.period(atNs: startNs - traceStartNs)
    let latencyNs = Int64((trace.periods[first.index].latencyMs * 1e6).rounded())
    do throws(PlayheadError) {
      if let fault = begun.fault {
        let afterNs =
          fault.afterMs.map { Int64($0) * 1_000_000 }
          ?? (fault.error.code == .timedOut ? timeoutNs : latencyNs)
        try wait(until: startNs + afterNs, from: &nowNs, url: url)
        throw fault.error
      }
      if latencyNs >= timeoutNs {
        try wait(until: startNs + timeoutNs, from: &nowNs, url: url)
        throw PlayheadError(
          .timedOut,
          "no answer from \(url.absoluteString) within \(network.configuration.effectiveTimeoutMs) ms",
          url: url)
      }
      try wait(until: startNs + latencyNs, from: &nowNs, url: url)
      guard let body = begun.body else {
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
        ? body : body.subdata(in: (body.startIndex + offset)..<(body.startIndex + max(offset, end)))
      let step = network.progressIntervalMs.map { max(1, Int64(($0 * 1e6).rounded())) }
      transfer = Transfer(
        id: begun.id, request: request, body: slice, startNs: startNs, nowNs: nowNs,
        lastActivityNs: nowNs, nextTimeReportNs: step.map { nowNs + $0 } ?? Int64.max)
      return DataResponseHead(
        url: url, statusCode: request.range == nil ? 200 : 206,
        length: Int64(slice.count), totalLength: Int64(body.count))
    } catch {
      network.update(begun.id, bytes: 0, endClock: MediaTime(nanoseconds: nowNs), error: error)
      throw error
    }
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    guard var current = transfer else {
      if cancelled.value { throw PlayheadError.sourceCancelled(nil) }
      throw PlayheadError.notOpen(nil)
    }
    let url = current.request.url
    if cancelled.value { throw PlayheadError.sourceCancelled(url) }
    guard buffer.count > 0, !current.ended else { return 0 }
    let total = current.body.count
    if current.handedOut >= total {
      current.ended = true
      transfer = current
      network.update(
        current.id, bytes: current.handedOut, endClock: MediaTime(nanoseconds: current.nowNs),
        error: nil)
      return 0
    }
    let target = min(total, current.handedOut + min(buffer.count, network.progressIntervalBytes))
    do throws(PlayheadError) {
      try deliver(upTo: target, in: &current)
    } catch {
      transfer = current
      network.update(
        current.id, bytes: current.handedOut, endClock: MediaTime(nanoseconds: current.nowNs),
        error: error)
      throw error
    }
    let available = min(total, Int(current.delivered.rounded(.down)))
    let count = available - current.handedOut
    current.body.withUnsafeBytes { raw in
      buffer.baseAddress!.copyMemory(from: raw.baseAddress! + current.handedOut, byteCount: count)
    }
    current.handedOut += count
    transfer = current
    network.update(current.id, bytes: current.handedOut, endClock: nil, error: nil)
    return count
  }

  public func close() {
    guard let current = transfer else { return }
    transfer = nil
    if !current.ended {
      network.update(
        current.id, bytes: current.handedOut, endClock: MediaTime(nanoseconds: current.nowNs),
        error: nil)
    }
  }

  public func cancel() {
    cancelled.withLock { $0 = true }
    signal.raise()
  }

  // MARK: Timing

  /// Moves the transfer on until `target` bytes have arrived, or an earlier event (a period
  /// boundary, a timed report) with at least one new whole byte.
  private func deliver(upTo target: Int, in current: inout Transfer) throws(PlayheadError) {
    let trace = network.trace
    let url = current.request.url
    let timeStepNs = network.progressIntervalMs.map { max(1, Int64(($0 * 1e6).rounded())) }
    let startBytes = current.handedOut
    while true {
      let (index, remainingNs) = trace.period(atNs: current.nowNs - traceStartNs)
      // The next event: the period's end, or a timed report before it.
      let boundaryNs = min(current.nowNs + remainingNs, current.nextTimeReportNs)
      let bytesPerNs = trace.periods[index].bandwidthKbps / 8_000_000
      if bytesPerNs <= 0 {
        let timeoutAtNs = current.lastActivityNs + timeoutNs
        if timeoutAtNs <= boundaryNs {
          try wait(until: timeoutAtNs, from: &current.nowNs, url: url)
          throw PlayheadError(
            .timedOut,
            "no data from \(url.absoluteString) for \(network.configuration.effectiveTimeoutMs) ms "
              + "after \(current.handedOut) bytes", url: url)
        }
        try wait(until: boundaryNs, from: &current.nowNs, url: url)
        passTimedReports(boundaryNs, step: timeStepNs, in: &current)
        continue
      }
      let atBoundary = current.delivered + bytesPerNs * Double(boundaryNs - current.nowNs)
      if atBoundary >= Double(target) {
        let needNs = ((Double(target) - current.delivered) / bytesPerNs).rounded(.up)
        let eventNs = min(boundaryNs, current.nowNs + Int64(max(0, needNs)))
        current.delivered = Double(target)
        try wait(until: eventNs, from: &current.nowNs, url: url)
        current.lastActivityNs = eventNs
        passTimedReports(eventNs, step: timeStepNs, in: &current)
        return
      }
      current.delivered = atBoundary
      try wait(until: boundaryNs, from: &current.nowNs, url: url)
      current.lastActivityNs = boundaryNs
      passTimedReports(boundaryNs, step: timeStepNs, in: &current)
      if Int(current.delivered.rounded(.down)) > startBytes { return }
    }
  }

  /// Moves the next timed report past the time reached.
  private func passTimedReports(_ reachedNs: Int64, step: Int64?, in current: inout Transfer) {
    guard let step else { return }
    while current.nextTimeReportNs <= reachedNs { current.nextTimeReportNs += step }
  }

  /// Waits on the clock until `deadlineNs`; throws `.cancelled` when `cancel()` wakes it.
  private func wait(until deadlineNs: Int64, from nowNs: inout Int64, url: URL)
    throws(PlayheadError)
  {
    let clock = network.clock
    if !clock.wait(until: MediaTime(nanoseconds: deadlineNs), orUntil: signal)
      || cancelled.value
    {
      nowNs = max(nowNs, min(deadlineNs, clock.now.nanoseconds ?? nowNs))
      throw PlayheadError.sourceCancelled(url)
    }
    nowNs = deadlineNs
  }
}
