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
    return SourceRefresher(
      handler: handler, options: configuration.sourceRefresh,
      clock: isFastMode ? HostClock.shared : configuration.clock, sourceURL: item.asset.url,
      onEvent: { [weak self] event in
        self?.post { loop in loop.reportSourceRefresh(event, of: item) }
      })
  }

  /// Emits `sourceRefreshed` / `sourceRefreshFailed` for a refresher's event (posted by
  /// the refresher, on the loop).
  func reportSourceRefresh(_ event: SourceRefreshEvent, of item: PlayerItem) {
    switch event {
    case .refreshed(let record):
      emit(.sourceRefreshed(item, record))
    case .failed(let failure):
      emit(.sourceRefreshFailed(item, failure))
    }
  }
}
