import Foundation

/// How an `HTTPByteSource` makes its requests: timeout, extra headers, user agent,
/// referer, and how far ahead it may buffer.
///
/// `headers` are sent with every request; `userAgent` and `referer`, when set, replace any
/// `User-Agent` or `Referer` in `headers`. The `Range` header is always the source's own.
public struct HTTPRequestConfiguration: Sendable, Equatable {
  /// How long a request may go without an answer (response headers or body bytes) before
  /// it fails with `.timedOut`. Must be positive and finite.
  public var timeoutSeconds: Double
  /// Extra HTTP header fields sent with every request.
  public var headers: [String: String]
  /// The `User-Agent` header, when set.
  public var userAgent: String?
  /// The `Referer` header, when set.
  public var referer: String?
  /// How many bytes the source keeps downloaded ahead of the reader before it stops the
  /// response; it continues with a new range request once the reader has consumed half.
  /// Must be positive.
  public var maxBufferAheadBytes: Int

  /// Creates a configuration; the defaults are a 10 s timeout, no extra headers and a
  /// 4 MiB read-ahead.
  public init(
    timeoutSeconds: Double = 10, headers: [String: String] = [:], userAgent: String? = nil,
    referer: String? = nil, maxBufferAheadBytes: Int = 4 * 1024 * 1024
  ) {
    self.timeoutSeconds = timeoutSeconds
    self.headers = headers
    self.userAgent = userAgent
    self.referer = referer
    self.maxBufferAheadBytes = maxBufferAheadBytes
  }
}
