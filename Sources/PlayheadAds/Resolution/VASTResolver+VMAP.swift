import Foundation
import PlayheadCore
import PlayheadNet

extension VASTResolver {
  /// Resolves every break of `vmap`: inline VAST and `AdTagURI` sources (relative URIs
  /// against `url`) through their wrapper chains, honouring each source's
  /// `allowMultipleAds` and `followRedirects` (false: no wrapper is followed, one fails
  /// with 302).
  ///
  /// A source that is not VAST (`templateType` other than `vast…`, `CustomAdData`) gets
  /// VMAP error 1005 in `sourceError`; a break without a source resolves to nothing.
  public func resolve(vmap: VMAPDocument, url: URL?) -> VMAPResolution {
    VMAPResolution(
      document: vmap, breaks: vmap.adBreaks.map { resolve(adBreak: $0, url: url) })
  }

  func resolve(adBreak: VMAPAdBreak, url: URL?) -> ResolvedAdBreak {
    guard let source = adBreak.adSource else { return ResolvedAdBreak(adBreak: adBreak) }
    let resolver =
      source.followRedirects
      ? self
      : VASTResolver(
        loader: loader,
        configuration: {
          var configuration = self.configuration
          configuration.maxWrapperDepth = 0
          return configuration
        }())
    switch source.content {
    case .vastAdData(let document):
      return ResolvedAdBreak(
        adBreak: adBreak,
        resolution: resolver.resolve(
          document: document, url: url, allowMultipleAds: source.allowMultipleAds))
    case .invalidVASTAdData(let error):
      return ResolvedAdBreak(
        adBreak: adBreak,
        resolution: VASTResolution(failures: [
          VASTAdFailure(code: error.code, message: "inline VAST: \(error)")
        ]))
    case .adTagURI(let uri, let templateType):
      if let templateType, !templateType.lowercased().hasPrefix("vast") {
        return ResolvedAdBreak(
          adBreak: adBreak,
          sourceError: VMAPError(
            VMAPError.templateNotSupported, "ad tag template type \(templateType) is not VAST"))
      }
      switch Self.tagURL(uri, relativeTo: url) {
      case .failure(let refusal):
        return ResolvedAdBreak(
          adBreak: adBreak,
          resolution: VASTResolution(failures: [
            VASTAdFailure(code: refusal.code, message: refusal.message)
          ]))
      case .success(let target):
        return ResolvedAdBreak(
          adBreak: adBreak,
          resolution: resolver.resolve(url: target, allowMultipleAds: source.allowMultipleAds))
      }
    case .customAdData(let templateType, _):
      return ResolvedAdBreak(
        adBreak: adBreak,
        sourceError: VMAPError(
          VMAPError.templateNotSupported,
          "custom ad data (\(templateType ?? "no template type")) is not supported"))
    case .none:
      return ResolvedAdBreak(
        adBreak: adBreak,
        sourceError: VMAPError(VMAPError.general, "the ad source holds no ad data"))
    }
  }

  /// Loads the document at `url`, sniffs it (VMAP or VAST by its root element) and
  /// resolves it; throws when it cannot be loaded or read at all.
  public func resolveAdTag(_ url: URL) throws(AdTagError) -> AdTagResolution {
    let (loaded, answered) = try loadAdDocument(url)
    guard let document = loaded else {
      // An empty body is an empty answer: no ad (303), as behind a wrapper.
      return .vast(
        VASTResolution(failures: [
          VASTAdFailure(
            code: .noAd, message: "empty response: \(url.absoluteString)", wrapperChain: [url])
        ]))
    }
    switch document {
    case .vmap(let vmap): return .vmap(resolve(vmap: vmap, url: answered))
    case .vast(let vast):
      return .vast(
        resolve(
          document: vast, base: answered, chain: Chain(urls: [url], wrappers: []),
          allowMultipleAds: true))
    }
  }

  /// The document at `url`, sniffed, with the URL that answered (after redirects); nil for
  /// an empty body.
  func loadAdDocument(_ url: URL) throws(AdTagError) -> (AdDocument?, URL) {
    let data: Data
    let answered: URL
    switch load(url) {
    case .failure(let failure):
      throw AdTagError(vastCode: failure.code, message: failure.message)
    case .success(let (body, answeredURL)):
      data = body
      answered = answeredURL
    }
    do {
      return (try AdDocument.parse(data, limits: configuration.limits), answered)
    } catch {
      switch error {
      case .vast(let vastError) where vastError.xmlError?.kind == .empty:
        return (nil, answered)
      case .vast(let vastError):
        throw AdTagError(vastCode: vastError.code, message: vastError.description)
      case .vmap(let vmapError):
        throw AdTagError(vmapCode: vmapError.code, message: vmapError.description)
      }
    }
  }
}
