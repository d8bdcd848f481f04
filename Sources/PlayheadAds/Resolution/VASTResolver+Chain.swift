import Foundation
import PlayheadCore
import PlayheadNet

extension VASTResolver {
  /// Where a chain has got to: the tag URLs requested and the wrappers met, in order.
  struct Chain: Sendable {
    var urls: [URL]
    var wrappers: [VASTAd]

    var errorURLs: [String] { wrappers.flatMap(\.errorURLs) }
  }

  /// What resolving one ad gave.
  struct AdResult {
    var ads: [ResolvedVASTAd] = []
    var fallbackAds: [ResolvedVASTAd] = []
    var failures: [VASTAdFailure] = []
    /// The ad failed on an empty response behind a wrapper with `fallbackOnNoAd="true"`.
    var wantsFallback = false
  }

  /// Resolves one ad of a response that came from `url`, `chain` leading to it.
  func resolve(ad: VASTAd, from url: URL?, chain: Chain) -> AdResult {
    guard let wrapper = ad.wrapper else {
      return AdResult(ads: [
        ResolvedVASTAd(
          ad: VASTWrapperMerge.merge(ad, wrappers: chain.wrappers), sourceURL: url,
          wrapperChain: chain.urls, wrapperAdIDs: chain.wrappers.map(\.id),
          podSequence: chain.wrappers.first.map(\.sequence) ?? ad.sequence)
      ])
    }
    var next = chain
    next.wrappers.append(ad)
    func failed(_ code: VASTErrorCode, _ message: String, extraURLs: [String] = []) -> AdResult {
      AdResult(failures: [
        VASTAdFailure(
          code: code, message: message, adID: chain.wrappers.first?.id ?? ad.id,
          sequence: chain.wrappers.first?.sequence ?? ad.sequence,
          errorURLs: next.errorURLs + extraURLs, wrapperChain: next.urls)
      ])
    }
    if let outer = chain.wrappers.last, !outer.wrapper!.followAdditionalWrappers {
      return failed(
        .wrapperGeneral, "a wrapper follows a wrapper with followAdditionalWrappers=\"false\"")
    }
    if chain.wrappers.count + 1 > configuration.effectiveMaxWrapperDepth {
      return failed(
        .wrapperLimit, "more than \(configuration.effectiveMaxWrapperDepth) wrappers in the chain")
    }
    let target: URL
    switch Self.tagURL(wrapper.adTagURI, relativeTo: url) {
    case .failure(let refusal): return failed(refusal.code, refusal.message)
    case .success(let resolved): target = resolved
    }
    if chain.urls.contains(where: { $0.absoluteString == target.absoluteString }) {
      return failed(.wrapperLimit, "wrapper loop: \(target.absoluteString) requested twice")
    }
    next.urls.append(target)
    let document: VASTDocument
    let answered: URL
    switch fetch(target) {
    case .failure(let failure):
      var result = failed(failure.code, failure.message)
      result.wantsFallback = failure.code == .noAd && wrapper.fallbackOnNoAd == true
      return result
    case .success(let (loaded, answeredURL)):
      document = loaded
      answered = answeredURL
    }
    if document.isEmpty {
      var result = failed(
        .noAd, "no ad after \(next.wrappers.count) wrapper(s): \(target.absoluteString)",
        extraURLs: document.errorURLs)
      result.wantsFallback = wrapper.fallbackOnNoAd == true
      return result
    }
    let (play, fallbacks) = selection(of: document, allowMultipleAds: wrapper.allowMultipleAds)
    var result = AdResult()
    var candidates = play.isEmpty ? fallbacks : play
    let keepsFallbacks = !play.isEmpty
    while !candidates.isEmpty {
      let candidate = candidates.removeFirst()
      let inner = resolve(ad: candidate, from: answered, chain: next)
      result.failures += inner.failures
      result.ads += inner.ads
      result.fallbackAds += inner.fallbackAds
      // Without a pod the first stand-alone ad that resolves is the one.
      if !keepsFallbacks && !inner.ads.isEmpty { break }
    }
    if keepsFallbacks {
      for candidate in fallbacks {
        let inner = resolve(ad: candidate, from: answered, chain: next)
        result.fallbackAds += inner.ads + inner.fallbackAds
        result.failures += inner.failures.map { failure in
          var failure = failure
          failure.isFallback = true
          return failure
        }
      }
    }
    return result
  }

  /// `text` as an absolute URL: resolved against `base`, and allowed by the origin rule
  /// (a response from http(s) leads only to http(s)).
  static func tagURL(_ text: String, relativeTo base: URL?) -> Result<URL, HopFailure> {
    var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    // A scheme-relative `//host/path` from a document that is not on the web (a local
    // file, an inline VMAP) means the web: https.
    let baseIsWeb = ["http", "https"].contains(base?.scheme?.lowercased() ?? "")
    if trimmed.hasPrefix("//") && !baseIsWeb { trimmed = "https:" + trimmed }
    guard let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
      let scheme = url.scheme?.lowercased()
    else {
      return .failure(
        HopFailure(
          code: .wrapperGeneral, message: "tag URI \"\(trimmed.prefix(200))\" is not a URL"))
    }
    let web: Set<String> = ["http", "https"]
    let baseScheme = base?.scheme?.lowercased()
    let allowed = baseScheme.map { web.contains($0) ? web : web.union([$0]) } ?? web
    guard allowed.contains(scheme) else {
      return .failure(
        HopFailure(
          code: .wrapperGeneral,
          message:
            "tag URI scheme \(scheme): not allowed from \(baseScheme ?? "a document without URL")"))
    }
    return .success(url)
  }
}
