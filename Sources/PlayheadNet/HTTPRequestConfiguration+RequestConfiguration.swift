import Foundation

extension HTTPRequestConfiguration {
  /// The byte-source settings that match a player's request configuration: its timeout
  /// (at least 1 ms), retries and retry delays, headers, user agent and referer.
  public init(
    _ configuration: RequestConfiguration, maxBufferAheadBytes: Int = 4 * 1024 * 1024
  ) {
    self.init(
      timeoutSeconds: Double(configuration.effectiveTimeoutMs) / 1000,
      headers: configuration.headers, userAgent: configuration.userAgent,
      referer: configuration.referer, maxBufferAheadBytes: maxBufferAheadBytes,
      retryCount: configuration.retryCount, retryBaseDelayMs: configuration.retryBaseDelayMs,
      retryMaxDelayMs: configuration.retryMaxDelayMs)
  }

  /// The retry count and delays as a `RequestConfiguration` (for the retry policy), with
  /// this configuration's timeout, headers, user agent and referer.
  public var retrySettings: RequestConfiguration {
    var settings = RequestConfiguration(self)
    settings.retryCount = retryCount
    settings.retryBaseDelayMs = retryBaseDelayMs
    settings.retryMaxDelayMs = retryMaxDelayMs
    return settings
  }
}
