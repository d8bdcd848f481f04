import Foundation
import Playhead

/// Parsers for the track and key options; each names the option in its error.
extension ArgumentValue {
  /// A language tag (BCP 47, as `TrackLanguage` reads it): `en`, `pt-BR`, `fra`.
  static func language(_ text: String, option: String) throws(UsageError) -> String {
    guard TrackLanguage.normalized(text) != nil else {
      throw UsageError(
        "option '\(option)' needs a language tag such as 'en' or 'pt-BR', not '\(text)'")
    }
    return text
  }

  /// A 16-byte key written as 32 hex digits.
  static func key(_ text: String, option: String) throws(UsageError) -> [UInt8] {
    do {
      return try OfflineKeyRegistry.key(fromHex: text)
    } catch {
      throw UsageError("option '\(option)' needs 32 hex digits (a 16-byte key)")
    }
  }
}
