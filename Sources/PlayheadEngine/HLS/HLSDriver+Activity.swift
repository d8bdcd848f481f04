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
    let inFlight = loader.loadsInFlight
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
