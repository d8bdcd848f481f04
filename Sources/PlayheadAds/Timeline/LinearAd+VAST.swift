import Foundation
import PlayheadCore

extension LinearAd {
  /// The playable form of a resolved VAST ad (wrapper URLs already merged in), from its
  /// first Linear creative; nil for an ad without one (non-linear or companion only).
  ///
  /// `fallbackID` names an ad whose document gives it no id.
  public init?(resolved: ResolvedVASTAd, fallbackID: String) {
    let ad = resolved.ad
    guard let linear = ad.linear else { return nil }
    var tracking: [AdTrackingEvent: [String]] = [:]
    var progress: [AdProgressBeacon] = []
    for event in linear.trackingEvents {
      if event.event == "progress" {
        if let offset = event.offset {
          progress.append(AdProgressBeacon(offset: offset, url: event.url))
        }
      } else if let kind = AdTrackingEvent(rawValue: event.event) {
        tracking[kind, default: []].append(event.url)
      }
    }
    self.init(
      id: ad.id ?? fallbackID, sequence: ad.sequence, adSystem: ad.adSystem, title: ad.adTitle,
      duration: linear.duration, skipOffset: linear.skipOffset, mediaFiles: linear.mediaFiles,
      impressionURLs: ad.impressions, errorURLs: ad.errorURLs, trackingURLs: tracking,
      progressBeacons: progress, clickThroughURL: linear.videoClicks?.clickThrough,
      clickTrackingURLs: linear.videoClicks?.clickTracking ?? [])
  }

  /// The linear ads of a resolution in play order (its fallback ads when the pod gave
  /// none), ids made from `idPrefix` where the document has none.
  public static func ads(of resolution: VASTResolution, idPrefix: String) -> [LinearAd] {
    let chosen = resolution.ads.isEmpty ? resolution.fallbackAds : resolution.ads
    return chosen.enumerated().compactMap { index, resolved in
      LinearAd(resolved: resolved, fallbackID: "\(idPrefix)-\(index + 1)")
    }
  }
}

extension AdBreak {
  /// A VMAP break as a timeline break: inline VAST (already resolved, in `resolution`)
  /// gives its ads; an `AdTagURI` is fetched when the break comes near.
  ///
  /// `index` names a break without `breakId`.
  public init(vmap adBreak: VMAPAdBreak, index: Int, source: AdBreakSource) {
    self.init(
      id: adBreak.breakID ?? "break\(index + 1)", offset: adBreak.timeOffset, source: source,
      breakStartURLs: adBreak.trackingURLs(for: "breakStart"),
      breakEndURLs: adBreak.trackingURLs(for: "breakEnd"),
      errorURLs: adBreak.trackingURLs(for: "error"), repeatAfter: adBreak.repeatAfter)
  }
}
