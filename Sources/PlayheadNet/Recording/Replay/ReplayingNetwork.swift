import Foundation
import PlayheadCore

/// Plays a session recording back as the network: every transfer gets the recorded answer,
/// bytes and failures, each after the delay it took in the recorded session, on `clock`.
///
/// It sits where the recording was made (right on the network, below retries, refresh and
/// the cache), so the same stack above it sees the same answers. A request is matched to
/// the recorded transfers of the same URL (redacted as the recording is), range and, for a
/// POST, body, in the order they were recorded: the second request for a segment gets the second recorded
/// answer. Times are kept relative to each open: the answer comes `head.at − open.at` after
/// the replay's open, each chunk `chunk.at − open.at` after it. On a fast-mode clock a whole
/// session replays in the time its decoding takes, and the same recording gives the same
/// events every time.
///
/// Errors: a request the recording lacks (or has no more answers for) throws
/// `.notInRecording` naming it, at once; reading past the bytes a recorded transfer that was
/// closed early holds throws `.notInRecording` too. Recorded failures are thrown as recorded.
public final class ReplayingNetwork: DataSourceFactory, Sendable {
  public let recording: SessionRecording
  public let clock: any Clock
  private let queues: Locked<[String: [Int]]>

  public init(recording: SessionRecording, clock: any Clock) {
    self.recording = recording
    self.clock = clock
    var queues: [String: [Int]] = [:]
    for (index, exchange) in recording.exchanges.enumerated() {
      queues[exchange.key, default: []].append(index)
    }
    self.queues = Locked(queues)
  }

  public func makeDataSource() -> any DataSource { ReplayingDataSource(network: self) }

  /// How many recorded transfers no replayed request has taken yet.
  public var unusedExchangeCount: Int { queues.withLock { $0.values.reduce(0) { $0 + $1.count } } }

  /// Takes the next recorded transfer for `request`.
  func take(_ request: DataRequest) throws(PlayheadError) -> SessionRecording.Exchange {
    let key = recording.key(for: request)
    let index = queues.withLock { queues -> Int? in
      guard var list = queues[key], !list.isEmpty else { return nil }
      let first = list.removeFirst()
      queues[key] = list
      return first
    }
    guard let index else {
      var range = request.range.map { " (bytes \($0.description))" } ?? ""
      if let body = request.body { range += " (a POST of \(body.count) bytes)" }
      throw PlayheadError(
        .notInRecording,
        "the recording has no (more) answers for \(key.split(separator: " ").first ?? "")"
          + "\(range), a \(request.purpose.rawValue) request the recorded session did not make",
        url: request.url)
    }
    return recording.exchanges[index]
  }
}

/// One replayed transfer at a time (see `ReplayingNetwork`).
final class ReplayingDataSource: DataSource, @unchecked Sendable {
  // Unchecked Sendable: the transfer state is the reading thread's (`open`, `read` and
  // `close` come one at a time); `cancel()` only sets a locked flag and raises the signal.
  let network: ReplayingNetwork
  private let signal = WakeSignal()
  private let cancelled = Locked(false)
  private var current: Transfer?

  private struct Transfer {
    var exchange: SessionRecording.Exchange
    var request: DataRequest
    /// The replay's clock at its open.
    var openClock: MediaTime
    var chunk = 0
    var offset = 0
    var ended = false
  }

  init(network: ReplayingNetwork) {
    self.network = network
  }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    current = nil
    if cancelled.value { throw PlayheadError.sourceCancelled(request.url) }
    let exchange = try network.take(request)
    let openClock = network.clock.now
    switch exchange.answer {
    case .failure(let at, var error):
      try wait(exchange, at: at, from: openClock, url: request.url)
      error.url = request.url
      throw error
    case .head(let at, var head):
      try wait(exchange, at: at, from: openClock, url: request.url)
      head.url = request.url
      current = Transfer(exchange: exchange, request: request, openClock: openClock)
      return head
    }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    guard var transfer = current else {
      if cancelled.value { throw PlayheadError.sourceCancelled(nil) }
      throw PlayheadError.notOpen(nil)
    }
    let url = transfer.request.url
    if cancelled.value { throw PlayheadError.sourceCancelled(url) }
    guard buffer.count > 0, !transfer.ended else { return 0 }
    let exchange = transfer.exchange
    if transfer.chunk < exchange.chunks.count {
      let chunk = exchange.chunks[transfer.chunk]
      if transfer.offset == 0 {
        try wait(exchange, at: chunk.at, from: transfer.openClock, url: url)
      }
      let count = min(buffer.count, chunk.bytes.count - transfer.offset)
      chunk.bytes.withUnsafeBytes { raw in
        buffer.baseAddress!.copyMemory(from: raw.baseAddress! + transfer.offset, byteCount: count)
      }
      transfer.offset += count
      if transfer.offset == chunk.bytes.count {
        transfer.chunk += 1
        transfer.offset = 0
      }
      current = transfer
      return count
    }
    switch exchange.ending {
    case .end(let at)?:
      try wait(exchange, at: at, from: transfer.openClock, url: url)
      transfer.ended = true
      current = transfer
      return 0
    case .failure(let at, var error)?:
      try wait(exchange, at: at, from: transfer.openClock, url: url)
      error.url = url
      throw error
    case .closed?, nil:
      let bytes = exchange.chunks.reduce(0) { $0 + $1.bytes.count }
      throw PlayheadError(
        .notInRecording,
        "the recording holds only \(bytes) bytes of \(exchange.url) (line \(exchange.line)): "
          + "the recorded session read no further", url: url)
    }
  }

  func close() {
    current = nil
  }

  func cancel() {
    cancelled.withLock { $0 = true }
    signal.raise()
  }

  /// Waits until the recorded time `at` (relative to the recorded open) after `openClock`.
  private func wait(
    _ exchange: SessionRecording.Exchange, at: Int64, from openClock: MediaTime, url: URL
  ) throws(PlayheadError) {
    let delay = MediaTime(nanoseconds: max(0, at - exchange.openAt))
    if !network.clock.wait(until: openClock + delay, orUntil: signal) || cancelled.value {
      throw PlayheadError.sourceCancelled(url)
    }
  }
}
