/// Merges a wrapper chain into the InLine ad it ends at.
///
/// Lists are joined outermost wrapper first, the InLine ad's own entries last:
/// impressions, error URLs, verifications and extensions of the ad; and, for every Linear
/// of the InLine ad, the tracking events and click tracking (and custom clicks) of every
/// wrapper Linear; for its NonLinearAds, the wrappers' NonLinearAds tracking and each
/// wrapper NonLinear's click tracking. Wrapper companions are not merged (a wrapper's
/// companion is its own banner, not tracking of the InLine one).
public enum VASTWrapperMerge {
  /// `inLine` with `wrappers` (outermost first) merged in.
  public static func merge(_ inLine: VASTAd, wrappers: [VASTAd]) -> VASTAd {
    guard !wrappers.isEmpty else { return inLine }
    var ad = inLine
    ad.impressions = wrappers.flatMap(\.impressions) + inLine.impressions
    ad.errorURLs = wrappers.flatMap(\.errorURLs) + inLine.errorURLs
    ad.verifications = wrappers.flatMap(\.verifications) + inLine.verifications
    ad.extensions = wrappers.flatMap(\.extensions) + inLine.extensions
    let wrapperLinears = wrappers.flatMap(\.linears)
    let linearTracking = wrapperLinears.flatMap(\.trackingEvents)
    let clickTracking = wrapperLinears.flatMap { $0.videoClicks?.clickTracking ?? [] }
    let customClicks = wrapperLinears.flatMap { $0.videoClicks?.customClicks ?? [] }
    let nonLinearParts = wrappers.flatMap { $0.creatives.compactMap(\.nonLinearAds) }
    let nonLinearTracking = nonLinearParts.flatMap(\.trackingEvents)
    let nonLinearClicks = nonLinearParts.flatMap { $0.nonLinears.flatMap(\.clickTracking) }
    for index in ad.creatives.indices {
      if var linear = ad.creatives[index].linear {
        linear.trackingEvents = linearTracking + linear.trackingEvents
        if !clickTracking.isEmpty || !customClicks.isEmpty {
          var clicks = linear.videoClicks ?? VASTVideoClicks()
          clicks.clickTracking = clickTracking + clicks.clickTracking
          clicks.customClicks = customClicks + clicks.customClicks
          linear.videoClicks = clicks
        }
        ad.creatives[index].linear = linear
      }
      if var nonLinearAds = ad.creatives[index].nonLinearAds {
        nonLinearAds.trackingEvents = nonLinearTracking + nonLinearAds.trackingEvents
        for nonLinear in nonLinearAds.nonLinears.indices {
          nonLinearAds.nonLinears[nonLinear].clickTracking =
            nonLinearClicks + nonLinearAds.nonLinears[nonLinear].clickTracking
        }
        ad.creatives[index].nonLinearAds = nonLinearAds
      }
    }
    return ad
  }
}
