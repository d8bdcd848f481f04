import Foundation
import PlayheadCore

/// Ready-made refresh handlers.
public enum SourceRefresh {
  /// A handler that re-signs the expired URL with `signer`, valid for `validitySeconds`
  /// from `wallClockSeconds()` (seed 003's sample with CDN auth type A).
  ///
  /// The earlier signature is replaced (`URLSigner.sign` removes it). A URL the signer
  /// refuses (an empty key, a scheme other than http or https) answers `onError` with the
  /// signer's message, as the seed's "REFRESH_ERROR" does. Answers at once, on the
  /// calling thread.
  ///
  /// ```swift
  /// var configuration = PlayerConfiguration()
  /// let signer = CDNTypeASigner(key: secret)
  /// configuration.sourceRefresh.signer = signer
  /// configuration.urlSourceExpiredHandler = SourceRefresh.resigning(with: signer, validitySeconds: 3600)
  /// ```
  public static func resigning(
    with signer: any URLSigner, validitySeconds: Int64,
    wallClockSeconds: @escaping @Sendable () -> Int64 = SourceRefreshOptions.systemWallClock
  ) -> URLSourceExpiredHandler {
    let validity = max(1, validitySeconds)
    return { expired, callback in
      do throws(URLSigningError) {
        let (expiry, overflow) = wallClockSeconds().addingReportingOverflow(validity)
        let signed = try signer.sign(expired.url, expiry: overflow ? .max : expiry)
        callback.onSuccess(signed)
      } catch {
        callback.onError("REFRESH_ERROR: \(error.message)")
      }
    }
  }
}
