import Foundation
import PlayheadCore
import PlayheadNet

/// What the item loader tells the text renderer's loading.
struct LoaderTextStatus: Sendable {
  /// The media time of item time 0 (the first run's container start minus its item start,
  /// docs/decisions/0003); nil before the media is open or when unknown.
  var origin: MediaTime?
  /// The last subtitle rendition whose playlist failed to load, and the error.
  var failure: (rendition: RenditionInfo, error: PlayheadError)?
  var failureCount = 0
}

extension ItemLoader {
  /// The media time at which `run`'s item timeline starts, when the demuxer knows it.
  static func timelineOrigin(of run: MediaRun) -> MediaTime? {
    let start = run.demuxer.startTime
    return start.isNumeric ? start - run.itemStart : nil
  }

  /// Records that `rendition`'s playlist could not be loaded, for the text renderer.
  func noteSubtitleFailure(_ error: PlayheadError, of rendition: RenditionInfo) {
    condition.lock()
    status.text.failure = (rendition, error)
    status.text.failureCount += 1
    condition.unlock()
    notifyLoop()
  }

  /// How the item's text tracks are loaded: through `override` when given, else the HLS
  /// driver's data source (its cache, headers, retries and clock), else files and HTTP
  /// with the player's request settings. `file:` URLs only for local media.
  func textFetcher(override: (any DataSource)?) -> TextFetcher {
    let allowsFiles = asset.url.isFileURL
    if let override { return TextFetcher(dataSource: override, allowsFiles: allowsFiles) }
    condition.lock()
    let driver = self.driver
    condition.unlock()
    if let hls = driver as? HLSDriver {
      return TextFetcher(dataSource: hls.dataSource, allowsFiles: allowsFiles)
    }
    return .standalone(
      contentURL: asset.url, request: settings.hls.request, clock: settings.clock)
  }
}
