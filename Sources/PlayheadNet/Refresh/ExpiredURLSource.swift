import Foundation
import PlayheadCore

/// A request whose URL expired, handed to the application's refresh handler (seed 003's
/// "URL source expired" callback).
///
/// `url` is the URL that was rejected or found expired; `originalURL` is the resource as
/// the item or its playlist names it (the two differ once the resource has been refreshed
/// before). The handler answers with a fresh URL for this very resource (see
/// docs/expiry.md): a playlist, a segment, an initialisation section, a key or a
/// progressive file, as `purpose` says.
public struct ExpiredURLSource: Sendable, Equatable {
  /// Why a URL counts as expired.
  public enum Reason: Sendable, Equatable {
    /// The server answered with this status (403 or 410 by default).
    case httpStatus(Int)
    /// The URL's signature states an expiry (seconds since 1970) that the wall clock has
    /// passed (`nowSeconds`), so it was not even sent.
    case signatureExpired(expirySeconds: Int64, nowSeconds: Int64)
  }

  /// The URL that expired.
  public var url: URL
  /// The resource as first named (by the item, or by the playlist that lists it).
  public var originalURL: URL
  /// The item's own URL (the master playlist or the progressive file), when known.
  public var sourceURL: URL?
  /// What the request was for.
  public var purpose: DataPurpose
  /// Why the URL counts as expired.
  public var reason: Reason
  /// 1 for the first refresh of this resource since it last loaded, then 2, 3, …
  public var attempt: Int

  public init(
    url: URL, originalURL: URL, sourceURL: URL? = nil, purpose: DataPurpose, reason: Reason,
    attempt: Int = 1
  ) {
    self.url = url
    self.originalURL = originalURL
    self.sourceURL = sourceURL
    self.purpose = purpose
    self.reason = reason
    self.attempt = attempt
  }
}

/// The application's refresh handler: called with the expired request and a callback
/// that it answers once, from any thread, now or later.
///
/// Called on a loading thread (never the playback thread); it should return quickly and
/// do slow work (a request to the application's server) elsewhere.
public typealias URLSourceExpiredHandler =
  @Sendable (ExpiredURLSource, SourceRefreshCallback) -> Void

/// A refresh that succeeded: the expired request and the fresh URL now used for it.
public struct SourceRefreshRecord: Sendable, Equatable {
  public var expired: ExpiredURLSource
  public var newURL: URL
  /// The loading clock when the fresh URL arrived.
  public var clockTime: MediaTime

  public init(expired: ExpiredURLSource, newURL: URL, clockTime: MediaTime) {
    self.expired = expired
    self.newURL = newURL
    self.clockTime = clockTime
  }
}

/// A refresh that failed, and why.
public struct SourceRefreshFailure: Sendable, Equatable {
  /// Why no fresh URL was had.
  public enum Reason: Sendable, Equatable {
    /// The handler called `onError` with this message.
    case handlerError(String)
    /// The handler did not answer within the timeout (on the loading clock).
    case timedOut(MediaTime)
    /// The resource was refreshed this many times in a row and still expired.
    case tooManyAttempts(Int)
    /// No handler is configured.
    case noHandler
  }

  public var expired: ExpiredURLSource
  public var reason: Reason
  /// The loading clock when the refresh failed.
  public var clockTime: MediaTime

  public init(expired: ExpiredURLSource, reason: Reason, clockTime: MediaTime) {
    self.expired = expired
    self.reason = reason
    self.clockTime = clockTime
  }

  /// The error a load fails with: code `.sourceExpired`, the expired URL, and a message
  /// that ends with the handler's own message for `handlerError`.
  public var error: PlayheadError {
    let url = expired.url.absoluteString
    let message: String
    switch reason {
    case .handlerError(let text):
      message = "the URL \(url) expired and could not be refreshed: \(text)"
    case .timedOut(let limit):
      message =
        "the URL \(url) expired and the refresh handler did not answer within \(String(format: "%.1f", limit.seconds)) s"
    case .tooManyAttempts(let count):
      message = "the URL \(url) was still expired after \(count) refreshes"
    case .noHandler:
      message = "the URL \(url) expired and no refresh handler is set"
    }
    var status: Int?
    if case .httpStatus(let code) = expired.reason { status = code }
    return PlayheadError(.sourceExpired, message, url: expired.url, httpStatusCode: status)
  }
}

/// What a `SourceRefresher` reports, in order.
public enum SourceRefreshEvent: Sendable, Equatable {
  case refreshed(SourceRefreshRecord)
  case failed(SourceRefreshFailure)
}
