import Foundation
import PlayheadCore

/// How expired URLs are recognised and how long and how often a refresh may take.
///
/// A URL counts as expired when a request for it fails with one of `expiryStatusCodes`
/// (403 and 410 by default), or, before it is sent, when the expiry that
/// `expiryProvider` or the `signer` gives for it is `refreshMarginSeconds` or less ahead
/// of `wallClockSeconds()`.
public struct SourceRefreshOptions: Sendable {
  /// Reads the expiry of signed URLs (`URLSigner.expiry(of:)`); nil checks no expiry by
  /// the clock and relies on the server's status codes.
  public var signer: (any URLSigner)?
  /// The wall time in whole seconds since 1970 that signature expiries are compared with;
  /// the system time by default. Tests drive it from a `ManualClock` with
  /// `wallClock(following:epochSeconds:)`.
  public var wallClockSeconds: @Sendable () -> Int64
  /// A URL whose signature expires within this many seconds is refreshed before it is sent
  /// (0: only once it has expired).
  public var refreshMarginSeconds: Int64
  /// The statuses that mean "expired" (403 and 410 by default).
  public var expiryStatusCodes: Set<Int>
  /// How long the handler may take to answer, in milliseconds of the loading clock, before
  /// the load fails with `.sourceExpired` (default 10 000; below 1 counts as 1).
  public var timeoutMs: Int
  /// How many refreshes in a row one resource may need (each one still expired) before
  /// the load fails with `.sourceExpired` (default 3; at least 1). A load of the resource
  /// that succeeds starts the count again.
  public var maximumAttempts: Int
  /// Another source of expiries (seconds since 1970), asked before `signer`: a manifest
  /// URL's time to live, for one. Nil for URLs it knows nothing about.
  public var expiryProvider: (@Sendable (URL) -> Int64?)?

  public init(
    signer: (any URLSigner)? = nil,
    wallClockSeconds: @escaping @Sendable () -> Int64 = SourceRefreshOptions.systemWallClock,
    refreshMarginSeconds: Int64 = 0,
    expiryStatusCodes: Set<Int> = [403, 410],
    timeoutMs: Int = 10_000,
    maximumAttempts: Int = 3
  ) {
    self.signer = signer
    self.wallClockSeconds = wallClockSeconds
    self.refreshMarginSeconds = max(0, refreshMarginSeconds)
    self.expiryStatusCodes = expiryStatusCodes
    self.timeoutMs = timeoutMs
    self.maximumAttempts = max(1, maximumAttempts)
    self.expiryProvider = nil
  }

  /// The system's wall time in whole seconds since 1970.
  public static let systemWallClock: @Sendable () -> Int64 = {
    Int64(Date().timeIntervalSince1970.rounded(.down))
  }

  /// A wall time that starts at `epochSeconds` when `clock` reads zero and moves with it
  /// (whole seconds, rounded down): how a test on a `ManualClock` drives expiry.
  public static func wallClock(following clock: any Clock, epochSeconds: Int64)
    -> @Sendable () -> Int64
  {
    { epochSeconds + Int64(clock.now.seconds.rounded(.down)) }
  }

  /// Why `url` counts as expired by the clock, or nil (no expiry known, or still valid).
  public func clockExpiry(of url: URL) -> ExpiredURLSource.Reason? {
    guard let expiry = expiryProvider?(url) ?? signer?.expiry(of: url) else { return nil }
    let now = wallClockSeconds()
    // A margin reaching past the end of time counts every known expiry as near.
    let (ahead, overflow) = now.addingReportingOverflow(refreshMarginSeconds)
    guard overflow || ahead > expiry else { return nil }
    return .signatureExpired(expirySeconds: expiry, nowSeconds: now)
  }

  /// Why a load that failed with `error` counts as expired, or nil.
  public func expiryReason(for error: PlayheadError) -> ExpiredURLSource.Reason? {
    guard error.code == .httpStatus, let status = error.httpStatusCode,
      expiryStatusCodes.contains(status)
    else { return nil }
    return .httpStatus(status)
  }

  /// The timeout as a clock duration: `timeoutMs`, at least 1 ms.
  public var timeout: MediaTime { .fromMilliseconds(max(1, timeoutMs)) }
}
