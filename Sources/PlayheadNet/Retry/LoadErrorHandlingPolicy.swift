import Foundation
import PlayheadCore

/// Decides what happens after a load fails: retry it after a delay, fail over to another
/// copy of the resource (a redundant variant), or give up.
///
/// `RetryingDataSource` asks `retryDelay`; when it gives up, the engine asks
/// `shouldFailOver` and, when that is true, tries a redundant variant and excludes the
/// failed one for `exclusionDuration`.
public protocol LoadErrorHandlingPolicy: Sendable {
  /// How long to wait before trying `request` again after attempt number `attempt` (1 for
  /// the first try) failed with `error`; nil means do not retry.
  func retryDelay(
    for error: PlayheadError, request: DataRequest, attempt: Int,
    configuration: RequestConfiguration
  ) -> MediaTime?

  /// Whether a load that finally failed with `error` should be tried on another copy of
  /// the resource (a redundant variant or rendition) before the engine gives up.
  func shouldFailOver(for error: PlayheadError, request: DataRequest) -> Bool

  /// How long a URI that failed over stays excluded from selection.
  func exclusionDuration(for error: PlayheadError, request: DataRequest) -> MediaTime
}

extension LoadErrorHandlingPolicy {
  /// One minute, as ExoPlayer's default track exclusion.
  public func exclusionDuration(for error: PlayheadError, request: DataRequest) -> MediaTime {
    MediaTime(nanoseconds: 60_000_000_000)
  }
}

/// The default policy: retry what may be transient, fail over on what a copy elsewhere
/// may not have.
///
/// Retried, up to `configuration.retryCount` times with `configuration.retryDelay`:
/// `.timedOut`, `.connectionFailed`, and `.httpStatus` 5xx. Never retried: any 4xx status
/// (a client error or a missing resource does not heal by waiting), `.cancelled`, and every
/// other code (parse, media, usage and local-file errors).
///
/// Failover, for playlists, segments, initialization sections, keys and media: `.httpStatus`
/// 403, 404, 410 and 5xx, `.timedOut` and `.connectionFailed` (by the time failover is
/// asked, the retries of the transient ones are spent). Never for `.cancelled`, other 4xx
/// statuses, or requests with purpose `.other`.
public struct DefaultLoadErrorHandlingPolicy: LoadErrorHandlingPolicy {
  /// How long a failed-over URI stays excluded.
  public var exclusionDurationMs: Int

  /// Creates the default policy; a URI that failed over is excluded for `exclusionDurationMs`
  /// (default one minute).
  public init(exclusionDurationMs: Int = 60_000) {
    self.exclusionDurationMs = exclusionDurationMs
  }

  public func retryDelay(
    for error: PlayheadError, request: DataRequest, attempt: Int,
    configuration: RequestConfiguration
  ) -> MediaTime? {
    guard attempt <= configuration.effectiveRetryCount, Self.isTransient(error) else {
      return nil
    }
    return configuration.retryDelay(beforeRetry: attempt)
  }

  public func shouldFailOver(for error: PlayheadError, request: DataRequest) -> Bool {
    guard request.purpose != .other else { return false }
    switch error.code {
    case .timedOut, .connectionFailed:
      return true
    case .httpStatus:
      guard let status = error.httpStatusCode else { return false }
      return status == 403 || status == 404 || status == 410 || (500..<600).contains(status)
    default:
      return false
    }
  }

  public func exclusionDuration(for error: PlayheadError, request: DataRequest) -> MediaTime {
    .fromMilliseconds(max(0, exclusionDurationMs))
  }

  /// Timeouts, connection failures and 5xx statuses.
  static func isTransient(_ error: PlayheadError) -> Bool {
    switch error.code {
    case .timedOut, .connectionFailed:
      return true
    case .httpStatus:
      return error.httpStatusCode.map { (500..<600).contains($0) } ?? false
    default:
      return false
    }
  }
}
