import Foundation

/// How progressive HTTP media is requested: timeout, retries, extra headers, user agent,
/// referer, and how far ahead the source may buffer.
///
/// `headers` are sent with every request; `userAgent` and `referer`, when set, replace any
/// `User-Agent` or `Referer` in `headers`. The `Range` header is always the source's own.
///
/// Timeout: `timeoutSeconds` is an idle timeout, as in Media3, AVFoundation
/// (`timeoutIntervalForRequest`), FFmpeg (`rw_timeout`) and mpv: a request fails with
/// `.timedOut` when no response headers, or no body byte, arrived for that long. A slow
/// server that keeps sending (a trickle) therefore never times out; it is bounded by the
/// size of what is left to read divided by its rate. See docs/streaming.md.
///
/// Retries: an `HTTPByteSource` never retries by itself; `ByteSources.open` wraps it in a
/// `RetryingByteSource` that retries the open and every read `retryCount` times, after
/// the same delays as HLS loads (`RequestConfiguration.retryDelay(beforeRetry:)`), and
/// resumes with a range request from the byte where the transfer stopped.
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
  /// How many times a failed open or read is tried again (0 = never; a negative value
  /// counts as 0). Only transient failures are retried (see
  /// `DefaultLoadErrorHandlingPolicy`): timeouts, broken connections and 5xx statuses.
  public var retryCount: Int
  /// The delay before the first retry, in milliseconds; it doubles for each later retry.
  public var retryBaseDelayMs: Int
  /// The longest delay between two attempts, in milliseconds (the timeout caps it too).
  public var retryMaxDelayMs: Int

  /// Creates a configuration; the defaults are a 10 s timeout, no extra headers, a 4 MiB
  /// read-ahead and, as for HLS loads, 3 retries after 0.5 s, 1 s and 2 s.
  public init(
    timeoutSeconds: Double = 10, headers: [String: String] = [:], userAgent: String? = nil,
    referer: String? = nil, maxBufferAheadBytes: Int = 4 * 1024 * 1024, retryCount: Int = 3,
    retryBaseDelayMs: Int = 500, retryMaxDelayMs: Int = 5_000
  ) {
    self.timeoutSeconds = timeoutSeconds
    self.headers = headers
    self.userAgent = userAgent
    self.referer = referer
    self.maxBufferAheadBytes = maxBufferAheadBytes
    self.retryCount = retryCount
    self.retryBaseDelayMs = retryBaseDelayMs
    self.retryMaxDelayMs = retryMaxDelayMs
  }
}
