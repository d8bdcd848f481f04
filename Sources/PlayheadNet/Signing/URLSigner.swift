import Foundation

/// Signs media URLs for a CDN that checks signatures (seed 003's "CDN auth").
public protocol URLSigner: Sendable {
  /// `url` signed so that it is valid until `expiry` (seconds since 1970).
  ///
  /// An earlier signature of the same scheme in `url` is replaced.
  func sign(_ url: URL, expiry: Int64) throws(URLSigningError) -> URL
  /// The expiry (seconds since 1970) `url`'s signature states, or nil when unsigned.
  func expiry(of url: URL) -> Int64?
}

/// A URL that cannot be signed.
public struct URLSigningError: Error, Sendable, Equatable, CustomStringConvertible {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

extension URLSigner {
  /// Whether `url`'s signature has expired at `now` (seconds since 1970); unsigned URLs
  /// never expire.
  public func isExpired(_ url: URL, now: Int64) -> Bool {
    guard let expiry = expiry(of: url) else { return false }
    return now > expiry
  }
}
