/// A parsed VAST response (2.0, 3.0, 4.0 to 4.3): its ads and its root `<Error>` URLs.
///
/// An empty document (no `<Ad>`) is a valid "no ad" answer: the player then pings
/// `errorURLs` with error 303. Ads with a `sequence` form the pod (`podAds`, in sequence
/// order); ads without one are stand-alone (`standaloneAds`, in document order), played
/// alone or as fallbacks of the pod.
public struct VASTDocument: Sendable, Equatable {
  /// The `version` attribute as written (`"4.3"`); nil when absent.
  public var version: String?
  /// Every `<Ad>` that has an `<InLine>` or a `<Wrapper>`, in document order.
  public var ads: [VASTAd]
  /// The URLs of the root `<Error>` elements (trimmed, macros unexpanded).
  public var errorURLs: [String]
  /// Recoverable oddities met while parsing, each `PATH: message`.
  public var warnings: [String]

  public init(
    version: String? = nil, ads: [VASTAd] = [], errorURLs: [String] = [],
    warnings: [String] = []
  ) {
    self.version = version
    self.ads = ads
    self.errorURLs = errorURLs
    self.warnings = warnings
  }

  /// The ads with a `sequence`, ordered by it (ties keep document order).
  public var podAds: [VASTAd] {
    ads.enumerated().filter { $0.element.sequence != nil }
      .sorted { ($0.element.sequence!, $0.offset) < ($1.element.sequence!, $1.offset) }
      .map(\.element)
  }

  /// The ads without a `sequence`, in document order.
  public var standaloneAds: [VASTAd] { ads.filter { $0.sequence == nil } }

  /// Whether the response holds no ad at all.
  public var isEmpty: Bool { ads.isEmpty }
}

/// One `<Ad>`: an InLine ad (everything needed to play it) or a Wrapper (a pointer to
/// another VAST response, with tracking to merge into the ad found there).
public struct VASTAd: Sendable, Equatable {
  /// InLine or Wrapper.
  public enum Kind: Sendable, Equatable {
    case inLine
    case wrapper(VASTWrapper)
  }

  /// The `id` attribute.
  public var id: String?
  /// The `sequence` attribute: its position in the pod; nil for a stand-alone ad.
  public var sequence: Int?
  /// The `conditionalAd` attribute (VAST 4).
  public var conditionalAd: Bool?
  /// The `adType` attribute (`video`, `audio`, `hybrid`; VAST 4.1).
  public var adType: String?
  public var kind: Kind
  /// `<AdSystem>` text.
  public var adSystem: String?
  /// `<AdTitle>` text (InLine only).
  public var adTitle: String?
  /// `<Description>` text.
  public var adDescription: String?
  /// `<Advertiser>` text.
  public var advertiser: String?
  /// `<Impression>` URLs (empty ones dropped).
  public var impressions: [String]
  /// `<Error>` URLs of the ad.
  public var errorURLs: [String]
  /// The creatives in document order.
  public var creatives: [VASTCreative]
  /// `<AdVerifications>` (VAST 4.1; also read from an `<Extension type="AdVerifications">`).
  public var verifications: [VASTVerification]
  /// Every `<Extension>`, re-serialized as XML (see `AdXMLElement.xmlString`).
  public var extensions: [String]

  public init(
    id: String? = nil, sequence: Int? = nil, kind: Kind = .inLine, adSystem: String? = nil,
    adTitle: String? = nil, impressions: [String] = [], errorURLs: [String] = [],
    creatives: [VASTCreative] = [], verifications: [VASTVerification] = [],
    extensions: [String] = []
  ) {
    self.id = id
    self.sequence = sequence
    self.kind = kind
    self.adSystem = adSystem
    self.adTitle = adTitle
    self.impressions = impressions
    self.errorURLs = errorURLs
    self.creatives = creatives
    self.verifications = verifications
    self.extensions = extensions
  }

  /// Whether this is a Wrapper.
  public var isWrapper: Bool {
    if case .wrapper = kind { return true }
    return false
  }

  /// The wrapper part, for a Wrapper.
  public var wrapper: VASTWrapper? {
    if case .wrapper(let wrapper) = kind { return wrapper }
    return nil
  }

  /// The Linear parts of the creatives, in document order.
  public var linears: [VASTLinear] { creatives.compactMap(\.linear) }

  /// The first Linear part, the one a video player plays.
  public var linear: VASTLinear? { creatives.lazy.compactMap(\.linear).first }

  /// Every NonLinear of every creative.
  public var nonLinears: [VASTNonLinear] { creatives.flatMap { $0.nonLinearAds?.nonLinears ?? [] } }

  /// Every Companion of every creative.
  public var companions: [VASTCompanion] { creatives.flatMap { $0.companionAds?.companions ?? [] } }
}

/// What a `<Wrapper>` adds to an ad: where the next VAST response is and how it may be used.
public struct VASTWrapper: Sendable, Equatable {
  /// `<VASTAdTagURI>` (or VAST 1's `<VASTAdTagURL><URL>`), trimmed, as written (possibly
  /// relative).
  public var adTagURI: String
  /// `followAdditionalWrappers` (default true): whether the next response may itself be a
  /// Wrapper.
  public var followAdditionalWrappers: Bool
  /// `allowMultipleAds` (default false): whether the next response may give a pod; when
  /// false only one ad is taken from it.
  public var allowMultipleAds: Bool
  /// `fallbackOnNoAd`: whether a stand-alone ad of the first response may replace this
  /// one when the next response is empty; nil when not given.
  public var fallbackOnNoAd: Bool?
  /// Whether the URI came from the VAST 1 form `<VASTAdTagURL><URL>`.
  public var isLegacyTag: Bool

  public init(
    adTagURI: String, followAdditionalWrappers: Bool = true, allowMultipleAds: Bool = false,
    fallbackOnNoAd: Bool? = nil, isLegacyTag: Bool = false
  ) {
    self.adTagURI = adTagURI
    self.followAdditionalWrappers = followAdditionalWrappers
    self.allowMultipleAds = allowMultipleAds
    self.fallbackOnNoAd = fallbackOnNoAd
    self.isLegacyTag = isLegacyTag
  }
}
