import Foundation
import PlayheadCore

/// One running load's progress: reports to the caller's callback from the loading thread
/// as bytes arrive, and from the loader's `StallWatch` while none do.
///
/// The callback is never run by two threads at once (a lock orders the reports), and not
/// after the load has ended.
final class LoadTransfer: @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `lock`.
  let request: DataRequest
  let startClock: MediaTime
  let clock: any Clock
  let source: any DataSource
  let progress: (@Sendable (TransferProgress) -> Bool)?
  private let lock = NSLock()
  private var hasEnded = false
  private var bytesLoaded = 0
  private var bytesExpected: Int?
  private var timeToFirstByte: MediaTime?
  /// The watch that reports this transfer's stalls, and how long a stall lasts before it
  /// does; nil while stalls are not watched.
  private var stallWatch: (watch: StallWatch, interval: MediaTime)?
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
  }

  /// Has `watch` report a stall whenever nothing arrives for `interval`.
  func watchStalls(with watch: StallWatch, every interval: MediaTime) {
    lock.lock()
    stallWatch = (watch, interval)
    lock.unlock()
    watch.add(self, due: startClock + interval)
  }

  /// The head arrived.
  func opened(length: Int64?) {
    let now = clock.now
    lock.lock()
    timeToFirstByte = now - startClock
    bytesExpected = length.flatMap { $0 <= Int64(Int.max) ? Int($0) : nil }
    postponeStallReport(from: now)
    lock.unlock()
  }

  /// Tells the callback `bytesLoaded`; throws `.cancelled` when it says stop.
  func report(bytesLoaded loaded: Int) throws(PlayheadError) {
    lock.lock()
    defer { lock.unlock() }
    bytesLoaded = loaded
    postponeStallReport(from: clock.now)
    if let abandoned { throw abandoned }
    guard let progress else { return }
    if !progress(currentReport()) {
      let error = abandonError()
      abandoned = error
      throw error
    }
  }

  /// Nothing arrived for a stall interval: tells the callback, and cancels the source when
  /// it says stop (the loading thread then wakes with `.cancelled` and throws the
  /// abandonment). Called by the stall watch.
  func reportStall() {
    lock.lock()
    guard !hasEnded, abandoned == nil, let progress else {
      lock.unlock()
      return
    }
    postponeStallReport(from: clock.now)
    if progress(currentReport()) {
      lock.unlock()
      return
    }
    abandoned = abandonError()
    lock.unlock()
    source.cancel()
  }

  /// The next stall report falls one interval after `time`; called with `lock` held.
  private func postponeStallReport(from time: MediaTime) {
    guard let (watch, interval) = stallWatch else { return }
    watch.postpone(self, to: time + interval)
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
    let watch = stallWatch?.watch
    lock.unlock()
    watch?.remove(self)
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
