import Foundation
import PlayheadCore

/// How the engine writes values in log metadata.
extension Logger.MetadataValue {
  /// A time in seconds with three decimals (`12.345`); a non-numeric time by its
  /// description.
  static func seconds(_ time: MediaTime) -> Logger.MetadataValue {
    guard time.isNumeric else { return .string(time.description) }
    return .string(String(format: "%.3f", time.seconds))
  }

  /// A bit rate in bits per second, rounded to a whole number; `none` when unknown.
  static func bitsPerSecond(_ rate: Double?) -> Logger.MetadataValue {
    guard let rate, rate.isFinite else { return "none" }
    return .string(String(Int64(rate.rounded())))
  }
}

extension Logger.MetadataValue {
  /// A URL without its user, password, query and fragment, which may hold secrets (signed
  /// URLs carry their signature in the query): `https://cdn.example/live/index.m3u8`.
  static func url(_ url: URL) -> Logger.MetadataValue {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return "?"
    }
    let hadQuery = components.query != nil
    components.user = nil
    components.password = nil
    components.query = nil
    components.fragment = nil
    let text = components.string ?? "?"
    return .string(hadQuery ? text + "?…" : text)
  }
}
