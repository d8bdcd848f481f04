import Foundation
import PlayheadCore

/// Loads whole resources (or byte ranges of them) through a `DataSourceFactory`: the
/// helper for playlists, keys, text, thumbnails, JSON, and HLS segments.
///
/// Each load opens a fresh source, reads it to its end and closes it; loads may run on
/// several threads at once. `load` blocks until the bytes are there, the request fails, or
/// `cancelAll()` is called. The progress callback runs on the loading thread as bytes
/// arrive (and, with `stalledReportIntervalMs`, on a worker of the clock while none do);
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
  /// Reports stalls of the loads that ask for it, from one worker of `clock`.
  private let stallWatch: StallWatch

  private struct State: Sendable {
    var cancelled = false
    var active: [Int: any DataSource] = [:]
    var nextKey = 0
  }

  /// The bytes one read asks for when the length is not known.
  static let readBytes = 64 * 1024

  public init(
    factory: any DataSourceFactory, clock: any Clock = HostClock.shared,
    transferListener: (any TransferListener)? = nil
  ) {
    self.factory = factory
    self.clock = clock
    self.transferListener = transferListener
    stallWatch = StallWatch(clock: clock)
  }

  deinit {
    stallWatch.stop()
  }

  /// How many loads are under way now.
  public var loadsInFlight: Int { state.withLock { $0.active.count } }

  /// Loads `request` whole; throws the source's errors, or `.cancelled`.
  ///
  /// `through` puts a decorator on this load's source (AES-128 decryption of one segment).
  /// `stalledReportIntervalMs`: while a transfer receives nothing, the progress callback is
  /// also told every so many milliseconds of clock time (an abandon rule then sees a stall); nil
  /// reports only as bytes arrive.
  public func load(
    _ request: DataRequest, through decorator: DataSourceDecorator? = nil,
    stalledReportIntervalMs: Int? = nil,
    progress: (@Sendable (TransferProgress) -> Bool)? = nil
  ) throws(PlayheadError) -> DataResponse {
    let made = factory.makeDataSource()
    let source = decorator?.decorate(made) ?? made
    let key = try register(source, url: request.url)
    defer { unregister(key) }
    let startClock = clock.now
    let transfer = LoadTransfer(
      request: request, startClock: startClock, clock: clock, source: source, progress: progress)
    if let interval = stalledReportIntervalMs, interval > 0, progress != nil {
      transfer.watchStalls(with: stallWatch, every: .fromMilliseconds(interval))
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
    let data: Data
    do {
      data = try Self.readBody(of: source, length: head.length, transfer: transfer)
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

  /// Reads `source` to its end: straight into the body's storage while the head's length
  /// lasts (each read asks for all that is left, so a source hands over what it has in
  /// one copy), then through a scratch buffer.
  private static func readBody(
    of source: any DataSource, length: Int64?, transfer: LoadTransfer
  ) throws(PlayheadError) -> Data {
    var data = Data()
    if let length, length > 0, length <= Int64(Int32.max) {
      // Uninitialized storage that the body owns: nothing is zeroed only to be overwritten.
      let expected = Int(length)
      let storage = UnsafeMutableRawPointer.allocate(byteCount: expected, alignment: 16)
      var filled = 0
      do {
        while filled < expected {
          let count = try source.read(
            into: UnsafeMutableRawBufferPointer(start: storage + filled, count: expected - filled))
          if count == 0 { break }
          filled += count
          try transfer.report(bytesLoaded: filled)
        }
      } catch {
        storage.deallocate()
        throw error
      }
      data = Data(
        bytesNoCopy: storage, count: filled,
        deallocator: .custom { pointer, _ in pointer.deallocate() })
      // Shorter than its head said: the body is what arrived.
      if filled < expected { return data }
    }
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: readBytes, alignment: 16)
    defer { scratch.deallocate() }
    while true {
      let count = try source.read(into: scratch)
      if count == 0 { return data }
      data.append(scratch.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
      try transfer.report(bytesLoaded: data.count)
    }
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

/// A decorator for one transfer (AES-128 decryption of one segment): what
/// `DataLoader.load(_:through:…)` puts on that load's source.
public struct DataSourceDecorator: Sendable {
  /// Makes the decorated source from the stack's.
  public let decorate: @Sendable (any DataSource) -> any DataSource

  public init(_ decorate: @escaping @Sendable (any DataSource) -> any DataSource) {
    self.decorate = decorate
  }
}
