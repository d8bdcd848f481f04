import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet

extension PlaybackController {
  /// Asked for a fresh URL when one of a session's URLs expired (HTTP 403 or 410, or a
  /// signature past its expiry): the controller's form of the player's
  /// `urlSourceExpiredHandler`, with the session. Answer once through the callback, from
  /// any thread; `onError` fails the session (`sourceRefreshFailed`, then `fail` or
  /// `failedToPlayToEndTime`). Nil leaves the player configuration's own handler, if any.
  ///
  /// Applies to sessions made after the change. With `catalogSourceRefresh`, the
  /// manifest URL of a catalog video is refreshed from the catalog and only other URLs
  /// come here.
  public var urlSourceExpiredHandler: SessionSourceExpiredHandler? {
    get { readSettings { $0.urlSourceExpiredHandler } }
    set { writeSettings { $0.urlSourceExpiredHandler = newValue } }
  }

  /// Refreshes catalog videos' manifest URLs from the catalog when they expire (their
  /// time to live passed, or the server rejects them); nil (the default) does not.
  /// Applies to sessions made after the change. See `CatalogSourceRefresh`.
  public var catalogSourceRefresh: CatalogSourceRefresh? {
    get { readSettings { $0.catalogSourceRefresh } }
    set { writeSettings { $0.catalogSourceRefresh = newValue } }
  }

  /// The refresh state for a new session, from the settings of the moment.
  func makeSourceRefresh() -> SessionSourceRefresh {
    let (handler, catalog) = readSettings { ($0.urlSourceExpiredHandler, $0.catalogSourceRefresh) }
    return SessionSourceRefresh(
      catalog: catalog, appHandler: handler, configuration: basePlayerConfiguration)
  }

  /// Sends `sourceRefreshed` with the expired and the fresh URL in its properties.
  func sendSourceRefreshed(
    _ record: SourceRefreshRecord, _ runtime: SessionRuntime, time: MediaTime
  ) {
    let event = LifecycleEvent(
      type: .sourceRefreshed, currentTime: time, clockTime: clock.now,
      properties: [
        "expiredURL": .string(record.expired.url.absoluteString),
        "url": .string(record.newURL.absoluteString),
        "purpose": .string(record.expired.purpose.rawValue),
      ])
    notify(.lifecycle(runtime.session, event))
  }
}

extension LifecycleEventType {
  /// An expired URL of the session was replaced by a fresh one (properties `expiredURL`,
  /// `url`, `purpose`); playback goes on from the same position.
  public static let sourceRefreshed = LifecycleEventType(rawValue: "sourceRefreshed")
  /// An expired URL could not be refreshed; the error is `.sourceExpired`.
  public static let sourceRefreshFailed = LifecycleEventType(rawValue: "sourceRefreshFailed")
}
