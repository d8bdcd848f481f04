import Foundation
import PlayheadCore
import PlayheadNet

/// Resolves VAST responses and VMAP ad sources through their wrapper chains, loading every
/// hop through the player's `DataLoader` (its data-source stack, request configuration and
/// clock).
///
/// Rules:
/// - **Depth**: at most `maxWrapperDepth` wrappers per chain; the next one fails with 302.
/// - **Loops**: a tag URL met a second time in one chain fails with 302 at once (the chain
///   could only end at the depth limit).
/// - **Timeout**: a hop that has not finished `hopTimeoutMs` after its request (on the
///   loader's clock) is abandoned: 301. A hop that fails to load (HTTP error, refused
///   connection) is 301 too ("URI unavailable"), whichever hop it is.
/// - **Empty responses** (no `<Ad>`, or an empty body) fail with 303, pinging the wrappers'
///   and the empty response's `<Error>` URLs; a wrapper with `fallbackOnNoAd="true"` is
///   then replaced by the next stand-alone ad of the first response.
/// - **Relative tag URIs** resolve against the URL of the response that holds them (a
///   scheme-relative `//host/…` from a document not on the web means https); a response
///   from http(s) may lead only to http(s) URLs (never `file:`).
/// - **`followAdditionalWrappers="false"`**: a Wrapper in the next response fails with 300.
/// - **`allowMultipleAds="false"`** (the default on wrappers): one ad is taken from the next
///   response, chosen by `singleAdSelection`.
/// - **Pods**: the first response's pod plays in sequence order and its stand-alone ads
///   are resolved as fallbacks; a response without a pod plays its first stand-alone ad
///   that resolves. Failures of fallbacks are reported with `isFallback`.
/// Unreadable responses fail with their parse error's code (100, 101, 102).
///
/// Example:
/// ```swift
/// let resolver = VASTResolver(loader: DataLoader(factory: stack, clock: clock))
/// let resolution = resolver.resolve(url: tagURL)
/// for ad in resolution.ads { print(ad.ad.id ?? "-", ad.ad.impressions.count) }
/// ```
public final class VASTResolver: Sendable {
  /// Loads every hop.
  public let loader: DataLoader
  public let configuration: VASTResolverConfiguration

  public init(loader: DataLoader, configuration: VASTResolverConfiguration = .init()) {
    self.loader = loader
    self.configuration = configuration
  }

  /// Loads the VAST response at `url` and resolves it; a response that cannot be loaded
  /// or read is one failure (301, or its parse error's code) with no URL to ping.
  public func resolve(url: URL, allowMultipleAds: Bool = true) -> VASTResolution {
    let chain = Chain(urls: [url], wrappers: [])
    switch fetch(url) {
    case .failure(let failure):
      return VASTResolution(failures: [failure.failure(ad: nil, chain: chain)])
    case .success(let (document, answeredURL)):
      return resolve(
        document: document, base: answeredURL, chain: chain, allowMultipleAds: allowMultipleAds)
    }
  }

  /// Resolves an already parsed response; `url` is where it came from (relative tag URIs
  /// resolve against it; nil allows only absolute http(s) tag URIs).
  public func resolve(
    document: VASTDocument, url: URL?, allowMultipleAds: Bool = true
  ) -> VASTResolution {
    resolve(
      document: document, base: url, chain: Chain(urls: url.map { [$0] } ?? [], wrappers: []),
      allowMultipleAds: allowMultipleAds)
  }

  func resolve(
    document: VASTDocument, base url: URL?, chain start: Chain, allowMultipleAds: Bool
  ) -> VASTResolution {
    var resolution = VASTResolution(document: document)
    guard !document.isEmpty else {
      resolution.failures.append(
        VASTAdFailure(
          code: .noAd, message: "the VAST response has no ad", errorURLs: document.errorURLs,
          wrapperChain: start.urls))
      return resolution
    }
    let (play, fallbacks) = selection(of: document, allowMultipleAds: allowMultipleAds)
    var unusedFallbacks = fallbacks
    if play.isEmpty {
      // No pod: the first stand-alone ad that resolves plays.
      while !unusedFallbacks.isEmpty {
        let ad = unusedFallbacks.removeFirst()
        let result = resolve(ad: ad, from: url, chain: start)
        resolution.failures += result.failures
        if !result.ads.isEmpty {
          resolution.ads = result.ads
          resolution.fallbackAds += result.fallbackAds
          break
        }
      }
    } else {
      for ad in play {
        var result = resolve(ad: ad, from: url, chain: start)
        resolution.failures += result.failures
        while result.ads.isEmpty && result.wantsFallback && !unusedFallbacks.isEmpty {
          result = resolve(ad: unusedFallbacks.removeFirst(), from: url, chain: start)
          resolution.failures += result.failures
        }
        resolution.ads += result.ads
        resolution.fallbackAds += result.fallbackAds
      }
    }
    for ad in unusedFallbacks {
      let result = resolve(ad: ad, from: url, chain: start)
      resolution.fallbackAds += result.ads + result.fallbackAds
      resolution.failures += result.failures.map { failure in
        var failure = failure
        failure.isFallback = true
        return failure
      }
    }
    return resolution
  }

  /// The ads to play and the fallbacks of `document`; with no pod (and several ads
  /// allowed) nothing is to play and every stand-alone ad is a candidate, in order.
  func selection(
    of document: VASTDocument, allowMultipleAds: Bool
  ) -> (play: [VASTAd], fallbacks: [VASTAd]) {
    let pod = document.podAds
    let standalone = document.standaloneAds
    if allowMultipleAds { return (pod, standalone) }
    switch configuration.singleAdSelection {
    case .firstStandalone:
      if let first = standalone.first { return ([first], []) }
      return (Array(pod.prefix(1)), [])
    case .firstInPlayOrder:
      return (Array((pod + standalone).prefix(1)), [])
    }
  }
}
