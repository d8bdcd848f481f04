import Foundation
import PlayheadCore

/// A finished whole-resource load: the bytes, the answer's head, and when, on the loader's
/// clock, the transfer ran.
public struct DataResponse: Sendable {
  public var data: Data
  /// The URL that answered (after redirects).
  public var url: URL
  /// The HTTP status, for HTTP sources.
  public var statusCode: Int?
  /// The response header fields as sent.
  public var headers: [String: String]
  /// The clock when the request was sent.
  public var startClock: MediaTime
  /// The clock when the last byte arrived.
  public var endClock: MediaTime
  /// The whole resource's length in bytes, when the source learned it; nil when unknown.
  public var totalLength: Int64?

  public init(
    data: Data, url: URL, statusCode: Int? = nil, headers: [String: String] = [:],
    startClock: MediaTime, endClock: MediaTime, totalLength: Int64? = nil
  ) {
    self.data = data
    self.url = url
    self.statusCode = statusCode
    self.headers = headers
    self.startClock = startClock
    self.endClock = endClock
    self.totalLength = totalLength
  }

  /// How long the transfer took.
  public var duration: MediaTime { endClock - startClock }
}

/// How far a transfer has come; handed to a progress callback during a load.
public struct TransferProgress: Sendable {
  public var request: DataRequest
  public var bytesLoaded: Int
  /// The expected total, when known.
  public var bytesExpected: Int?
  /// Clock time since the request was sent.
  public var elapsed: MediaTime
  /// Clock time from the request to the answer's head, once it came.
  public var timeToFirstByte: MediaTime?

  public init(
    request: DataRequest, bytesLoaded: Int, bytesExpected: Int?, elapsed: MediaTime,
    timeToFirstByte: MediaTime? = nil
  ) {
    self.request = request
    self.bytesLoaded = bytesLoaded
    self.bytesExpected = bytesExpected
    self.elapsed = elapsed
    self.timeToFirstByte = timeToFirstByte
  }
}

/// Told about every finished transfer; the bandwidth meter is one.
public protocol TransferListener: AnyObject, Sendable {
  /// `bytes` arrived over `duration` of clock time for `request`.
  func transferEnded(request: DataRequest, bytes: Int, duration: MediaTime)
}

/// Loads whole resources (or byte ranges of them) through a `DataSourceFactory`: the
/// helper for playlists, keys, text, thumbnails, JSON, and HLS segments.
///
/// Each load opens a fresh source, reads it to its end and closes it; loads may run on
/// several threads at once. `load` blocks until the bytes are there, the request fails, or
/// `cancelAll()` is called. The progress callback runs on the loading thread as bytes
/// arrive (and, with `stalledReportInterval`, on a worker of the clock while none do);
/// returning `false` abandons the transfer, which then throws `.cancelled`.
///
/// Example:
/// ```swift
/// let loader = DataLoader(factory: stack, clock: clock)
/// let playlist = try loader.load(DataRequest(url: url, purpose: .playlist)).data
/// ```
public final class DataLoader: Sendable {
  /// Where the sources come from.
  public let factory: any DataSourceFactory
  /// The clock that timestamps loads (and paces stalled reports).
  public let clock: any Clock
  /// Told about every load that completes.
  public let transferListener: (any TransferListener)?

  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var active: [Int: any DataSource] = [:]
    var nextKey = 0
  }

  /// The bytes one read asks for.
  static let readBytes = 64 * 1024

  public init(
    factory: any DataSourceFactory, clock: any Clock = HostClock.shared,
    transferListener: (any TransferListener)? = nil
  ) {
    self.factory = factory
    self.clock = clock
    self.transferListener = transferListener
  }

  /// How many loads are under way now.
  public var loadsInFlight: Int { state.withLock { $0.active.count } }

  /// Loads `request` whole; throws the source's errors, or `.cancelled`.
  ///
  /// `through` puts a decorator on this load's source (AES-128 decryption of one segment).
  /// `stalledReportInterval`: while a transfer receives nothing, the progress callback is
  /// also told every such interval of clock time (an abandon rule then sees a stall); nil
  /// reports only as bytes arrive.
  public func load(
    _ request: DataRequest, through decorator: DataSourceDecorator? = nil,
    stalledReportInterval: MediaTime? = nil,
    progress: (@Sendable (TransferProgress) -> Bool)? = nil
  ) throws(PlayheadError) -> DataResponse {
    let made = factory.makeDataSource()
    let source = decorator?.decorate(made) ?? made
    let key = try register(source, url: request.url)
    defer { unregister(key) }
    let startClock = clock.now
    let transfer = LoadTransfer(
      request: request, startClock: startClock, clock: clock, source: source, progress: progress)
    if let interval = stalledReportInterval, interval > .zero, progress != nil {
      transfer.watchStalls(every: interval)
    }
    defer { transfer.end() }
    let head: DataResponseHead
    do {
      head = try source.open(request)
    } catch {
      // A stall watch that abandoned the load cancelled the source: say so.
      throw transfer.abandonment ?? error
    }
    transfer.opened(length: head.length)
    var data = Data()
    if let length = head.length, length > 0, length <= Int64(Int32.max) {
      data.reserveCapacity(Int(length))
    }
    do {
      let scratch = UnsafeMutableRawBufferPointer.allocate(
        byteCount: Self.readBytes, alignment: 16)
      defer { scratch.deallocate() }
      while true {
        let count = try source.read(into: scratch)
        if count == 0 { break }
        data.append(scratch.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        try transfer.report(bytesLoaded: data.count)
      }
    } catch {
      source.close()
      throw transfer.abandonment ?? error
    }
    source.close()
    // A transfer served by a cache took no network time (a meter ignores it).
    let endClock = head.isFromCache ? startClock : clock.now
    transferListener?.transferEnded(
      request: request, bytes: data.count, duration: endClock - startClock)
    return DataResponse(
      data: data, url: head.url, statusCode: head.statusCode, headers: head.headers,
      startClock: startClock, endClock: endClock, totalLength: head.totalLength)
  }

  /// Makes every blocked and future load throw `.cancelled` at once. Safe from any
  /// thread; calling it again has no effect.
  public func cancelAll() {
    let sources = state.withLock { state in
      state.cancelled = true
      return Array(state.active.values)
    }
    for source in sources { source.cancel() }
  }

  private func register(_ source: any DataSource, url: URL) throws(PlayheadError) -> Int {
    let key = state.withLock { state -> Int? in
      if state.cancelled { return nil }
      let key = state.nextKey
      state.nextKey += 1
      state.active[key] = source
      return key
    }
    guard let key else {
      throw PlayheadError(.cancelled, "load cancelled: \(url.absoluteString)", url: url)
    }
    return key
  }

  private func unregister(_ key: Int) {
    _ = state.withLock { $0.active.removeValue(forKey: key) }
  }
}

/// One running load's progress: reports to the caller's callback from the loading thread,
/// and, when stalls are watched, from a worker of the clock while nothing arrives.
///
/// The callback is never run by two threads at once (a lock orders the reports), and not
/// after the load has ended.
private final class LoadTransfer: @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `lock`.
  let request: DataRequest
  let startClock: MediaTime
  let clock: any Clock
  let source: any DataSource
  let progress: (@Sendable (TransferProgress) -> Bool)?
  private let lock = NSLock()
  private let ended = WakeSignal()
  private var hasEnded = false
  private var bytesLoaded = 0
  private var bytesExpected: Int?
  private var timeToFirstByte: MediaTime?
  private var lastReportClock: MediaTime
  /// Set when the callback said stop; the loading thread then throws it.
  private var abandoned: PlayheadError?

  init(
    request: DataRequest, startClock: MediaTime, clock: any Clock, source: any DataSource,
    progress: (@Sendable (TransferProgress) -> Bool)?
  ) {
    self.request = request
    self.startClock = startClock
    self.clock = clock
    self.source = source
    self.progress = progress
    lastReportClock = startClock
  }

  /// The head arrived.
  func opened(length: Int64?) {
    let now = clock.now
    lock.lock()
    timeToFirstByte = now - startClock
    bytesExpected = length.flatMap { $0 <= Int64(Int.max) ? Int($0) : nil }
    lastReportClock = now
    lock.unlock()
  }

  /// Tells the callback `bytesLoaded`; throws `.cancelled` when it says stop.
  func report(bytesLoaded loaded: Int) throws(PlayheadError) {
    lock.lock()
    defer { lock.unlock() }
    bytesLoaded = loaded
    lastReportClock = clock.now
    if let abandoned { throw abandoned }
    guard let progress else { return }
    if !progress(currentReport()) {
      let error = abandonError()
      abandoned = error
      throw error
    }
  }

  /// Starts a clock worker that reports while nothing arrives for `interval`.
  func watchStalls(every interval: MediaTime) {
    clock.startThread(named: "playhead.load-watch") { [self] in
      while true {
        lock.lock()
        if hasEnded || abandoned != nil {
          lock.unlock()
          return
        }
        let due = lastReportClock + interval
        lock.unlock()
        if !clock.wait(until: due, orUntil: ended) { return }
        lock.lock()
        guard !hasEnded, abandoned == nil else {
          lock.unlock()
          return
        }
        guard clock.now >= lastReportClock + interval, let progress else {
          lock.unlock()
          continue
        }
        lastReportClock = clock.now
        if !progress(currentReport()) {
          abandoned = abandonError()
          lock.unlock()
          // The loading thread wakes with `.cancelled` and throws the abandonment.
          source.cancel()
          return
        }
        lock.unlock()
      }
    }
  }

  /// The error of an abandoned load, once the callback said stop.
  var abandonment: PlayheadError? {
    lock.lock()
    defer { lock.unlock() }
    return abandoned
  }

  /// The load returned or threw: no report comes after this.
  func end() {
    lock.lock()
    hasEnded = true
    lock.unlock()
    ended.raise()
  }

  private func currentReport() -> TransferProgress {
    TransferProgress(
      request: request, bytesLoaded: bytesLoaded, bytesExpected: bytesExpected,
      elapsed: clock.now - startClock, timeToFirstByte: timeToFirstByte)
  }

  private func abandonError() -> PlayheadError {
    PlayheadError(
      .cancelled, "load abandoned after \(bytesLoaded) bytes: \(request.url.absoluteString)",
      url: request.url)
  }
}

/// A decorator for one transfer (AES-128 decryption of one segment): what
/// `DataLoader.load(_:through:…)` puts on that load's source.
public struct DataSourceDecorator: Sendable {
  /// Makes the decorated source from the stack's.
  public let decorate: @Sendable (any DataSource) -> any DataSource

  public init(_ decorate: @escaping @Sendable (any DataSource) -> any DataSource) {
    self.decorate = decorate
  }
}
