import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadHLS
import PlayheadNet

extension AdsSessionPlugin {
  /// Fetches an interstitial's asset list from `url` (its request URL, with
  /// `_HLS_start_offset` when joining late) through the player's data-source stack, off
  /// the caller's queue, and hands `completion` its assets as ads, or why there are none.
  ///
  /// The request is bounded by `adTimeoutMs` on the player's clock and the list's size by
  /// `AssetList.Limits.default`. Failures carry the VAST code nearest their meaning: 301
  /// (not loaded in time, or unavailable), 100 (not JSON), 101 (not an asset list).
  func fetchAssetList(
    _ url: URL, for interstitial: Interstitial,
    completion: @escaping @Sendable (Result<[LinearAd], AdFetchError>) -> Void
  ) {
    let loader = loader
    let timeoutMs = configuration.adTimeoutMs
    playerConfiguration.clock.startThread(named: "playhead.ads.assetlist", stackSize: nil) {
      completion(
        Self.loadAssetList(url, loader: loader, timeoutMs: timeoutMs).map {
          InterstitialBreak.ads(of: $0, for: interstitial)
        })
    }
  }

  private static func loadAssetList(_ url: URL, loader: DataLoader, timeoutMs: Int)
    -> Result<AssetList, AdFetchError>
  {
    let timeout = MediaTime.fromMilliseconds(timeoutMs)
    let limit = AssetList.Limits.default.maxBytes
    let verdict = Locked<AdFetchError?>(nil)
    let request = DataRequest(url: url, purpose: .api, flags: [.bypassesCache])
    let response: DataResponse
    do {
      response = try loader.load(request, stalledReportIntervalMs: timeoutMs) { progress in
        if progress.elapsed >= timeout {
          verdict.withLock {
            $0 = AdFetchError(
              code: 301,
              message: "the asset list \(url.absoluteString) did not load within \(timeoutMs) ms")
          }
          return false
        }
        if progress.bytesLoaded > limit {
          verdict.withLock {
            $0 = AdFetchError(
              code: 100,
              message: "the asset list \(url.absoluteString) is over \(limit) bytes")
          }
          return false
        }
        return true
      }
    } catch {
      return .failure(
        verdict.value
          ?? AdFetchError(
            code: 301,
            message: "the asset list \(url.absoluteString) is unavailable: \(error.message)"))
    }
    do throws(AssetListError) {
      return .success(try AssetList(data: response.data, url: response.url))
    } catch {
      let code: Int
      switch error {
      case .tooLarge, .malformedJSON: code = 100
      case .missingAssets, .tooManyAssets, .invalidAsset: code = 101
      }
      return .failure(
        AdFetchError(code: code, message: "\(url.absoluteString): \(error.description)"))
    }
  }
}
