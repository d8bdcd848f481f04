import Foundation
import PlayheadCore
import PlayheadNet

extension PlaybackLoop {
  /// The refresher for `item`'s expired URLs, when the application set a handler.
  ///
  /// Its timeout runs on the clock network waits use: the player's clock, except a
  /// fast-mode `ManualClock` (whose waits jump to their deadline), where the host clock
  /// is used, as the HLS driver does for retries.
  func makeSourceRefresher(for item: PlayerItem) -> SourceRefresher? {
    guard let handler = configuration.urlSourceExpiredHandler else { return nil }
    let isFastMode = configuration.timing == .fast
    let wake = self.wake
    return SourceRefresher(
      handler: handler, options: configuration.sourceRefresh,
      clock: isFastMode ? HostClock.shared : configuration.clock, sourceURL: item.asset.url,
      onEvent: { _ in wake.raise() })
  }

  /// Emits `sourceRefreshed` / `sourceRefreshFailed` for the refresher's new events.
  func reportSourceRefreshes(_ active: ActiveItem) {
    guard let refresher = active.loader.settings.refresher else { return }
    let events = refresher.events
    while active.reportedRefreshEvents < events.count {
      let event = events[active.reportedRefreshEvents]
      active.reportedRefreshEvents += 1
      switch event {
      case .refreshed(let record):
        emit(.sourceRefreshed(active.item, record))
      case .failed(let failure):
        emit(.sourceRefreshFailed(active.item, failure))
      }
    }
  }
}
