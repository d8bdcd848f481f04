import Foundation
import PlayheadCore
import PlayheadNet

extension HLSDriver {
  /// Busy while a request is in flight (its timeout and retries end it) or a live reload is
  /// due; starved while a run waits for a segment the downloader holds back (the
  /// playlist's durations say the buffer is full, the media says otherwise).
  var activity: SourceActivity {
    lock.lock()
    let reloading = awaitsLiveReload
    lock.unlock()
    let inFlight = requestActivity.loadsInFlight
    let delivered = bytesRead
    if let ahead = queue.starvedAhead {
      return SourceActivity(
        isBusy: inFlight > 0 || reloading, isStarved: true,
        detail: "the stream \(url.absoluteString) waits for its next segment, which the "
          + "downloader holds back: by the playlist's segment durations "
          + "\(String(format: "%.1f", ahead.seconds)) s are already loaded ahead of the "
          + "play position, but the media decoded from them has run out (the durations "
          + "overstate the media)", bytesDelivered: delivered)
    }
    if inFlight > 0 {
      return SourceActivity(
        isBusy: true, detail: "a request for \(url.absoluteString) is in flight",
        bytesDelivered: delivered)
    }
    if reloading {
      return SourceActivity(
        isBusy: true, detail: "a reload of the live playlist is due", bytesDelivered: delivered)
    }
    return SourceActivity(bytesDelivered: delivered)
  }

  /// Tells the change handler (the loader's wake) that the driver's state changed on its
  /// own thread.
  func notifyChange() {
    lock.lock()
    let handler = changeHandler
    lock.unlock()
    handler?()
  }
}

/// Counts the loads under way through a data source (each with its own timeout and
/// retries), for the no-progress watchdog.
final class RequestActivityDataSource: DataSource, Sendable {
  let upstream: any DataSource
  private let inFlight = Locked(0)

  init(upstream: any DataSource) {
    self.upstream = upstream
  }

  /// How many loads are under way now.
  var loadsInFlight: Int { inFlight.value }

  func load(_ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?)
    throws(PlayheadError) -> DataResponse
  {
    inFlight.withLock { $0 += 1 }
    defer { inFlight.withLock { $0 -= 1 } }
    return try upstream.load(request, progress: progress)
  }

  func cancelAll() {
    upstream.cancelAll()
  }
}
