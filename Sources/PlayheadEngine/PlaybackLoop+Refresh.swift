import Foundation
import PlayheadCore
import PlayheadNet

extension PlaybackLoop {
  /// The refresher for `item`'s expired URLs, when the application set a handler; its
  /// events reach the loop through `mailbox`'s loader, in order with the loader's own
  /// messages (so a refresh failure is reported before the item fails of it).
  ///
  /// Its timeout runs on the clock network waits use: the player's clock, except a
  /// fast-mode `ManualClock` (whose waits jump to their deadline), where the host clock
  /// is used, as the HLS driver does for retries.
  func makeSourceRefresher(for item: PlayerItem, mailbox: LoaderMailbox) -> SourceRefresher? {
    guard let handler = configuration.urlSourceExpiredHandler else { return nil }
    let isFastMode = configuration.timing == .fast
    return SourceRefresher(
      handler: handler, options: configuration.sourceRefresh,
      clock: isFastMode ? HostClock.shared : configuration.clock, sourceURL: item.asset.url,
      onEvent: { event in mailbox.post(.sourceRefresh(event)) })
  }

  /// Emits `sourceRefreshed` / `sourceRefreshFailed` for a refresher's event (posted by
  /// the refresher, on the loop).
  func reportSourceRefresh(_ event: SourceRefreshEvent, of item: PlayerItem) {
    switch event {
    case .refreshed(let record):
      configuration.logger.info(
        "expired URL refreshed",
        metadata: [
          "url": .url(record.expired.originalURL), "purpose": "\(record.expired.purpose.rawValue)",
          "attempt": "\(record.expired.attempt)",
        ])
      emit(.sourceRefreshed(item, record))
    case .failed(let failure):
      configuration.logger.warning(
        "expired URL not refreshed",
        metadata: [
          "url": .url(failure.expired.originalURL), "error": "\(failure.error.message)",
        ])
      emit(.sourceRefreshFailed(item, failure))
    }
  }
}

/// The loader a refresher's events go to, set once the loader exists (the refresher is
/// made first, for the loader's settings); held weakly, as the loader holds the refresher.
final class LoaderMailbox: Sendable {
  private struct Reference: Sendable {
    weak var loader: ItemLoader?
  }
  private let reference = Locked(Reference())

  /// Sends later messages to `loader`.
  func attach(_ loader: ItemLoader) {
    reference.withLock { $0.loader = loader }
  }

  /// Posts `message` through the loader, if it still exists.
  func post(_ message: LoaderMessage) {
    reference.value.loader?.post(message)
  }
}
