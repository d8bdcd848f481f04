import Foundation
import PlayheadCore

extension Interstitial {
  /// The URL to fetch the asset list from: `X-ASSET-LIST` with `_HLS_primary_id` and, when
  /// joining the interstitial part-way, `_HLS_start_offset`; nil for an `X-ASSET-URI`.
  ///
  /// `primaryID` identifies the primary playback session (nil leaves it out).
  /// `startOffset` is how far into the interstitial playback joins (a live viewer arriving
  /// during it); it is added only when greater than zero, as the spec asks, in seconds
  /// with up to 9 fraction digits. Parameters of the same names already in the URL are
  /// replaced; the others are kept in order.
  public func assetListRequestURL(primaryID: String?, startOffset: MediaTime? = nil) -> URL? {
    guard case .list(let url) = asset else { return nil }
    return AssetListRequest.url(url, primaryID: primaryID, startOffset: startOffset)
  }
}

/// Builds asset-list request URLs (see `Interstitial.assetListRequestURL`).
enum AssetListRequest {
  static let primaryIDName = "_HLS_primary_id"
  static let startOffsetName = "_HLS_start_offset"

  static func url(_ base: URL, primaryID: String?, startOffset: MediaTime?) -> URL {
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
      return base
    }
    // Percent-encoded items, so that `&`, `=` and `+` in a value stay part of it.
    var items = (components.percentEncodedQueryItems ?? []).filter {
      $0.name != primaryIDName && $0.name != startOffsetName
    }
    if let primaryID {
      items.append(URLQueryItem(name: primaryIDName, value: encoded(primaryID)))
    }
    if let startOffset, startOffset.isNumeric, startOffset > .zero {
      items.append(URLQueryItem(name: startOffsetName, value: WriterFormat.decimal(startOffset)))
    }
    components.percentEncodedQueryItems = items.isEmpty ? nil : items
    return components.url ?? base
  }

  /// `value` with everything but unreserved characters percent-encoded.
  private static func encoded(_ value: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
  }
}
