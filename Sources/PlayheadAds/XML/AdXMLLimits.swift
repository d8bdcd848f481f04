/// Limits that protect the ad XML reader from hostile or broken input.
///
/// Exceeding one is an `AdXMLError` of kind `.limitExceeded` (IAB VAST error 100).
public struct AdXMLLimits: Sendable, Equatable {
  /// The largest document accepted, in bytes (default 2 MiB; real VAST responses are a few
  /// KiB, a VMAP with inline ads rarely over 200 KiB).
  public var maxBytes: Int
  /// The deepest element nesting accepted, the root being depth 1 (default 64).
  public var maxDepth: Int
  /// The most elements accepted in one document (default 50,000).
  public var maxElements: Int

  public init(maxBytes: Int = 2 << 20, maxDepth: Int = 64, maxElements: Int = 50_000) {
    self.maxBytes = maxBytes
    self.maxDepth = maxDepth
    self.maxElements = maxElements
  }

  /// The defaults: 2 MiB, depth 64, 50,000 elements.
  public static let `default` = AdXMLLimits()
}
