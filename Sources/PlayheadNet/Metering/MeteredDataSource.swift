import Foundation
import PlayheadCore

/// What the sources of one stack (a player item, a download) have transferred and are
/// doing: bytes delivered, opens and reads under way. Shared by every `MeteredDataSource`
/// made with it; thread-safe.
public final class TransferMeter: Sendable {
  private let counts = Locked(Counts())

  struct Counts: Sendable {
    var bytes: Int64 = 0
    var opening = 0
    var open = 0
    var reading = 0
    var completed = 0
  }

  public init() {}

  /// Bytes delivered to readers so far.
  public var bytesTransferred: Int64 { counts.value.bytes }
  /// Opens waiting for an answer now.
  public var opensUnderWay: Int { counts.value.opening }
  /// Transfers opened and not yet closed.
  public var openTransfers: Int { counts.value.open }
  /// Reads blocked in a source now.
  public var readsUnderWay: Int { counts.value.reading }
  /// Transfers read to their end so far.
  public var completedTransfers: Int { counts.value.completed }
  /// Whether a request waits for its answer or a read waits for bytes now (network work
  /// with its own timeout).
  public var isBusy: Bool {
    let now = counts.value
    return now.opening > 0 || now.reading > 0
  }

  func update(_ body: (inout Counts) -> Void) {
    counts.withLock { body(&$0) }
  }
}

/// Counts what passes through another source into a `TransferMeter`, and tells a
/// `TransferListener` (a bandwidth meter) about each transfer read to its end, timed on
/// `clock` from the open to the last byte (a transfer served from a cache is not told).
public final class MeteredDataSource: DataSource, Sendable {
  public let upstream: any DataSource
  public let meter: TransferMeter
  public let clock: any Clock
  public let listener: (any TransferListener)?

  private let state = Locked(State())

  private struct State: Sendable {
    var request: DataRequest?
    var head: DataResponseHead?
    var openClock = MediaTime.zero
    var delivered = 0
    var isOpen = false
  }

  public init(
    upstream: any DataSource, meter: TransferMeter, clock: any Clock = HostClock.shared,
    listener: (any TransferListener)? = nil
  ) {
    self.upstream = upstream
    self.meter = meter
    self.clock = clock
    self.listener = listener
  }

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    close()
    let start = clock.now
    meter.update { $0.opening += 1 }
    defer { meter.update { $0.opening -= 1 } }
    let head = try upstream.open(request)
    meter.update { $0.open += 1 }
    state.withLock { $0 = State(request: request, head: head, openClock: start, isOpen: true) }
    return head
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    meter.update { $0.reading += 1 }
    defer { meter.update { $0.reading -= 1 } }
    let count = try upstream.read(into: buffer)
    if count > 0 {
      meter.update { $0.bytes += Int64(count) }
      state.withLock { $0.delivered += count }
    } else if buffer.count > 0 {
      finished()
    }
    return count
  }

  public func close() {
    let wasOpen = state.withLock { state in
      defer { state = State() }
      return state.isOpen
    }
    if wasOpen { meter.update { $0.open -= 1 } }
    upstream.close()
  }

  public func cancel() { upstream.cancel() }

  public var bufferState: DataBufferState? { upstream.bufferState }

  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    upstream.setBufferChangeHandler(handler)
  }

  /// The open was read to its end: told once.
  private func finished() {
    let ended = state.withLock { state -> (DataRequest, DataResponseHead, MediaTime, Int)? in
      guard let request = state.request, let head = state.head else { return nil }
      state.request = nil
      return (request, head, state.openClock, state.delivered)
    }
    guard let (request, head, start, delivered) = ended else { return }
    meter.update { $0.completed += 1 }
    if !head.isFromCache {
      listener?.transferEnded(request: request, bytes: delivered, duration: clock.now - start)
    }
  }
}
