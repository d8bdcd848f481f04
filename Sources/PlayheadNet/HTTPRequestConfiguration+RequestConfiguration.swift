import Foundation

extension HTTPRequestConfiguration {
  /// The byte-source settings that match a player's request configuration: its timeout
  /// (at least 1 ms), headers, user agent and referer.
  ///
  /// Retries are not a byte source's concern; the caller applies them.
  public init(
    _ configuration: RequestConfiguration, maxBufferAheadBytes: Int = 4 * 1024 * 1024
  ) {
    self.init(
      timeoutSeconds: Double(configuration.effectiveTimeoutMs) / 1000,
      headers: configuration.headers, userAgent: configuration.userAgent,
      referer: configuration.referer, maxBufferAheadBytes: maxBufferAheadBytes)
  }
}
