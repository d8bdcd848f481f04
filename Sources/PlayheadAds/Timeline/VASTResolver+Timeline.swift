import Foundation
import PlayheadCore

/// The breaks an ad tag gives the timeline, with the failures met on the way (whose error
/// URLs the player pings).
public struct AdTagSchedule: Sendable {
  /// The breaks in document order.
  public var breaks: [AdBreak]
  /// Failures while resolving (a break's inline VAST, an unsupported source).
  public var failures: [VASTAdFailure]
}

/// The ads one break's VAST tag gave, with the failures met on the way.
public struct AdPodResolution: Sendable {
  /// The ads in play order; empty when none could be had.
  public var ads: [LinearAd]
  /// Failures while resolving: the first one's code is the break's when `ads` is empty.
  public var failures: [VASTAdFailure]
}

extension VASTResolver {
  /// The breaks of the ad tag at `url`, sniffed by content: a VMAP's breaks (inline VAST
  /// resolved now; an `AdTagURI` left as `.tag` to fetch when its break comes, as IMA does),
  /// or a VAST response's ads as one pre-roll. Throws when the tag cannot be loaded or read.
  public func schedule(forTag url: URL) throws(AdTagError) -> AdTagSchedule {
    let (loaded, answered) = try loadAdDocument(url)
    guard let document = loaded else {
      // An empty answer: a pre-roll with no ad, which fails (303) when its turn comes.
      return AdTagSchedule(
        breaks: [AdBreak(id: "preroll", offset: .start, source: .ads([]))], failures: [])
    }
    switch document {
    case .vast(let vast):
      let resolution = resolve(
        document: vast, base: answered, chain: Chain(urls: [url], wrappers: []),
        allowMultipleAds: true)
      let ads = LinearAd.ads(of: resolution, idPrefix: "preroll")
      return AdTagSchedule(
        breaks: [AdBreak(id: "preroll", offset: .start, source: .ads(ads))],
        failures: resolution.failures)
    case .vmap(let vmap):
      var schedule = AdTagSchedule(breaks: [], failures: [])
      for (index, adBreak) in vmap.adBreaks.enumerated() {
        guard adBreak.breakType.contains(.linear) else { continue }
        if case .adTagURI(let uri, let templateType) = adBreak.adSource?.content,
          templateType.map({ $0.lowercased().hasPrefix("vast") }) ?? true,
          case .success(let tag) = Self.tagURL(uri, relativeTo: answered)
        {
          schedule.breaks.append(AdBreak(vmap: adBreak, index: index, source: .tag(tag)))
          continue
        }
        let resolved = resolve(adBreak: adBreak, url: answered)
        let id = adBreak.breakID ?? "break\(index + 1)"
        let ads = resolved.resolution.map { LinearAd.ads(of: $0, idPrefix: id) } ?? []
        schedule.failures += resolved.resolution?.failures ?? []
        if let sourceError = resolved.sourceError {
          schedule.failures.append(
            VASTAdFailure(code: VASTErrorCode(sourceError.code), message: sourceError.description))
        }
        schedule.breaks.append(AdBreak(vmap: adBreak, index: index, source: .ads(ads)))
      }
      return schedule
    }
  }

  /// The ads of one break's VAST tag, resolved through its wrappers.
  public func pod(forTag url: URL, idPrefix: String) -> AdPodResolution {
    let resolution = resolve(url: url)
    return AdPodResolution(
      ads: LinearAd.ads(of: resolution, idPrefix: idPrefix), failures: resolution.failures)
  }
}
