import Foundation

/// The outcome of resolving a VAST response: the ads to play, in order, with their whole
/// wrapper chains merged in, and every failure with the error URLs to ping.
///
/// Nothing is pinged while resolving: the player pings `failures[i].errorURLs` with
/// `[ERRORCODE]` = `failures[i].code` (see `VASTMacros`) when it gives the ad up.
public struct VASTResolution: Sendable, Equatable {
  /// The ads to play, in play order: the pod by sequence, or the one stand-alone ad.
  public var ads: [ResolvedVASTAd]
  /// Stand-alone ads kept as fallbacks of the pod (resolved already), in document order.
  public var fallbackAds: [ResolvedVASTAd]
  /// Every ad or response that failed, in the order met.
  public var failures: [VASTAdFailure]
  /// The first response, when it could be read.
  public var document: VASTDocument?

  public init(
    ads: [ResolvedVASTAd] = [], fallbackAds: [ResolvedVASTAd] = [],
    failures: [VASTAdFailure] = [], document: VASTDocument? = nil
  ) {
    self.ads = ads
    self.fallbackAds = fallbackAds
    self.failures = failures
    self.document = document
  }
}

/// An InLine ad found at the end of a wrapper chain, with every wrapper's impressions,
/// error URLs, tracking, click tracking and verifications merged into `ad`.
public struct ResolvedVASTAd: Sendable, Equatable {
  /// The InLine ad, merged (see `VASTWrapperMerge`).
  public var ad: VASTAd
  /// The URL of the response the InLine ad came from (nil for an inline document given
  /// without one).
  public var sourceURL: URL?
  /// The tag URLs followed to reach it, first to last (empty for an ad of the first
  /// response).
  public var wrapperChain: [URL]
  /// The `id`s of the wrappers, outermost first.
  public var wrapperAdIDs: [String?]
  /// The `sequence` of the ad of the first response this one came through (the outermost
  /// wrapper's, or the ad's own for an ad of the first response); nil for a stand-alone ad.
  public var podSequence: Int?

  public init(
    ad: VASTAd, sourceURL: URL? = nil, wrapperChain: [URL] = [], wrapperAdIDs: [String?] = [],
    podSequence: Int? = nil
  ) {
    self.ad = ad
    self.sourceURL = sourceURL
    self.wrapperChain = wrapperChain
    self.wrapperAdIDs = wrapperAdIDs
    self.podSequence = podSequence
  }
}

/// One ad (or response) that could not be resolved.
public struct VASTAdFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The IAB code to report and to put in `[ERRORCODE]`.
  public var code: VASTErrorCode
  /// A one-line reason.
  public var message: String
  /// The `id` of the ad in the first response this failure belongs to (nil for the
  /// response itself, or an ad without id).
  public var adID: String?
  /// That ad's `sequence`.
  public var sequence: Int?
  /// The `<Error>` URLs to ping: every wrapper's on the way, and the failing response's
  /// root `<Error>` URLs for an empty one (303).
  public var errorURLs: [String]
  /// The tag URLs requested on the way, first to last (the failing one included).
  public var wrapperChain: [URL]
  /// Whether the ad was a stand-alone fallback, not one the player was to play.
  public var isFallback: Bool

  public init(
    code: VASTErrorCode, message: String, adID: String? = nil, sequence: Int? = nil,
    errorURLs: [String] = [], wrapperChain: [URL] = [], isFallback: Bool = false
  ) {
    self.code = code
    self.message = message
    self.adID = adID
    self.sequence = sequence
    self.errorURLs = errorURLs
    self.wrapperChain = wrapperChain
    self.isFallback = isFallback
  }

  /// `error NNN: message`.
  public var description: String { "error \(code.rawValue): \(message)" }
}
