import Foundation
import PlayheadCore

/// How a player makes its requests: timeout, retries, extra headers, referer, user agent and
/// read-ahead.
///
/// One value serves every request of a player (progressive media, playlists, segments,
/// keys, sidecar text, thumbnails, the catalog): `DataSourceStack` builds the player's
/// sources from it. Every duration is in whole milliseconds. Values out of range never
/// trap: a `timeoutMs` below 1 counts as 1, a negative `retryCount` as 0, negative delays
/// as 0, and a `readAheadBytes` below 4 KiB as 4 KiB.
///
/// Timeout: `timeoutMs` is an idle timeout, as in Media3, AVFoundation
/// (`timeoutIntervalForRequest`), FFmpeg (`rw_timeout`) and mpv: a request fails with
/// `.timedOut` when no response headers, or no body byte, arrived for that long. A slow
/// server that keeps sending (a trickle) therefore never times out; it is bounded by the
/// size of what is left to read divided by its rate. See docs/streaming.md.
///
/// Retry spacing: SPEC S5 asks for retries "spaced by the timeout". Playhead spaces them by
/// an exponential backoff that the timeout caps: the delay before retry `n` (from 1) is
/// `min(timeoutMs, retryMaxDelayMs, retryBaseDelayMs × 2^(n−1))`, so with the defaults
/// 0.5 s, 1 s, 2 s. A first quick retry recovers from a dropped connection sooner than a
/// full timeout would. To space retries by exactly the timeout, set `retryBaseDelayMs` and
/// `retryMaxDelayMs` to `timeoutMs` (or use `spacedByTimeout`).
///
/// Example:
/// ```swift
/// var configuration = RequestConfiguration(timeoutMs: 4_000, retryCount: 2)
/// configuration.headers["X-Token"] = "abc"
/// ```
public struct RequestConfiguration: Sendable, Equatable {
  /// How long a request may go without an answer (response headers or body bytes) before it
  /// fails with `.timedOut`, in milliseconds.
  public var timeoutMs: Int
  /// How many times a failed load is tried again (0 = never).
  public var retryCount: Int
  /// The delay before the first retry, in milliseconds; it doubles for each later retry.
  public var retryBaseDelayMs: Int
  /// The longest delay between two attempts, in milliseconds.
  public var retryMaxDelayMs: Int
  /// Extra HTTP header fields sent with every request.
  public var headers: [String: String]
  /// The `Referer` header, when set; it replaces any `Referer` in `headers`.
  public var referer: String?
  /// The `User-Agent` header, when set; it replaces any `User-Agent` in `headers`.
  public var userAgent: String?
  /// How many bytes an HTTP source keeps downloaded ahead of its reader before it stops
  /// the response; it continues with a new range request once the reader has consumed
  /// half. Progressive media reads ahead this far.
  public var readAheadBytes: Int

  /// Creates a configuration; the defaults are a 10 s timeout, 3 retries after 0.5 s, 1 s
  /// and 2 s, no extra headers, and a 4 MiB read-ahead.
  public init(
    timeoutMs: Int = 10_000, retryCount: Int = 3, retryBaseDelayMs: Int = 500,
    retryMaxDelayMs: Int = 5_000, headers: [String: String] = [:], referer: String? = nil,
    userAgent: String? = nil, readAheadBytes: Int = 4 * 1024 * 1024
  ) {
    self.timeoutMs = timeoutMs
    self.retryCount = retryCount
    self.retryBaseDelayMs = retryBaseDelayMs
    self.retryMaxDelayMs = retryMaxDelayMs
    self.headers = headers
    self.referer = referer
    self.userAgent = userAgent
    self.readAheadBytes = readAheadBytes
  }

  /// The read-ahead in effect: `readAheadBytes`, at least 4 KiB.
  public var effectiveReadAheadBytes: Int { max(4 * 1024, readAheadBytes) }

  /// A configuration whose retries are spaced by exactly the timeout, as SPEC S5 words it.
  public static func spacedByTimeout(
    timeoutMs: Int = 10_000, retryCount: Int = 3, headers: [String: String] = [:],
    referer: String? = nil, userAgent: String? = nil
  ) -> RequestConfiguration {
    RequestConfiguration(
      timeoutMs: timeoutMs, retryCount: retryCount, retryBaseDelayMs: timeoutMs,
      retryMaxDelayMs: timeoutMs, headers: headers, referer: referer, userAgent: userAgent)
  }

  /// The timeout in effect: `timeoutMs`, at least 1 ms.
  public var effectiveTimeoutMs: Int { max(1, timeoutMs) }

  /// The timeout in effect as a clock duration.
  public var timeout: MediaTime { .fromMilliseconds(effectiveTimeoutMs) }

  /// The number of retries in effect: `retryCount`, at least 0.
  public var effectiveRetryCount: Int { max(0, retryCount) }

  /// The delay before retry number `retry` (1 for the first retry), as described on the type.
  ///
  /// A `retry` below 1 counts as 1.
  public func retryDelay(beforeRetry retry: Int) -> MediaTime {
    let base = max(0, retryBaseDelayMs)
    let cap = min(max(0, retryMaxDelayMs), effectiveTimeoutMs)
    // Doubling stops once it passes the cap, so a large retry number never overflows.
    var delay = base
    var step = 1
    while step < retry && delay < cap {
      delay = delay > Int.max / 2 ? Int.max : delay * 2
      step += 1
    }
    return .fromMilliseconds(min(delay, cap))
  }

  /// The header fields for one request: `headers`, then `userAgent` and `referer`, which
  /// replace fields of the same name whatever their case.
  public var headerFields: [String: String] {
    var fields = headers
    func replace(_ name: String, with value: String?) {
      guard let value else { return }
      for key in fields.keys where key.lowercased() == name.lowercased() {
        fields[key] = nil
      }
      fields[name] = value
    }
    replace("User-Agent", with: userAgent)
    replace("Referer", with: referer)
    return fields
  }
}
