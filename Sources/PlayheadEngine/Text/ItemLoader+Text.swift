import Foundation
import PlayheadCore
import PlayheadNet

extension ItemLoader {
  /// The media time at which `run`'s item timeline starts, when the demuxer knows it.
  static func timelineOrigin(of run: MediaRun) -> MediaTime? {
    let start = run.demuxer.startTime
    return start.isNumeric ? start - run.itemStart : nil
  }

  /// Tells the loop that `rendition`'s playlist could not be loaded.
  func noteSubtitleFailure(_ error: PlayheadError, of rendition: RenditionInfo) {
    post(.subtitleFailed(rendition, error))
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
