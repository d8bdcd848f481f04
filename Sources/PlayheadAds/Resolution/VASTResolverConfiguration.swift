import PlayheadCore

/// How a `VASTResolver` follows wrapper chains.
///
/// Values out of range never trap: a negative `maxWrapperDepth` counts as 0 (no wrapper
/// followed), a `hopTimeoutMs` below 1 as 1.
public struct VASTResolverConfiguration: Sendable, Equatable {
  /// Which one ad a response gives when only one is allowed (`allowMultipleAds="false"`
  /// on the wrapper or the VMAP ad source).
  public enum SingleAdSelection: Sendable, Equatable {
    /// VAST 4.1's rule: the first stand-alone ad (no `sequence`); when the response has
    /// none, the first ad of its pod.
    case firstStandalone
    /// The first ad in play order (the pod's first ad, else the first stand-alone ad), as
    /// vast-client-js and IMA-style resolvers do.
    case firstInPlayOrder
  }

  /// How many wrappers one chain may follow (default 5, as VAST 4 recommends); the next
  /// one fails with error 302.
  public var maxWrapperDepth: Int
  /// How long one hop (one request of the chain) may take from request to last byte, in
  /// milliseconds of the loader's clock (default 5,000); a slower hop fails with error 301.
  public var hopTimeoutMs: Int
  /// The XML limits each response is read with.
  public var limits: AdXMLLimits
  public var singleAdSelection: SingleAdSelection
  /// Header fields sent with each ad request (on top of the loader's configuration).
  public var headers: [String: String]

  /// Creates a configuration; the defaults are 5 wrappers, 5 s per hop, the default XML
  /// limits and VAST 4.1's single-ad rule.
  public init(
    maxWrapperDepth: Int = 5, hopTimeoutMs: Int = 5_000, limits: AdXMLLimits = .default,
    singleAdSelection: SingleAdSelection = .firstStandalone, headers: [String: String] = [:]
  ) {
    self.maxWrapperDepth = maxWrapperDepth
    self.hopTimeoutMs = hopTimeoutMs
    self.limits = limits
    self.singleAdSelection = singleAdSelection
    self.headers = headers
  }

  /// `maxWrapperDepth`, at least 0.
  public var effectiveMaxWrapperDepth: Int { max(0, maxWrapperDepth) }

  /// `hopTimeoutMs`, at least 1.
  public var effectiveHopTimeoutMs: Int { max(1, hopTimeoutMs) }
}
