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
  /// driver's loader (its cache, headers, retries and clock), else over the item's stack
  /// (the player's, with the item's refresher). `file:` URLs only for local media.
  func textFetcher(override: (any DataSourceFactory)?) -> TextFetcher {
    let allowsFiles = asset.url.isFileURL
    if let override {
      return TextFetcher(
        loader: DataLoader(factory: override, clock: settings.clock), allowsFiles: allowsFiles)
    }
    condition.lock()
    let driver = self.driver
    condition.unlock()
    if let hls = driver as? HLSDriver {
      return TextFetcher(loader: hls.loader, allowsFiles: allowsFiles)
    }
    let stack = settings.sources.stack.with(refresher: settings.refresher)
    return TextFetcher(loader: stack.loader(), allowsFiles: allowsFiles)
  }
}
