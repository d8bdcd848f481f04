import Foundation

/// Language tags of tracks compared for selection: BCP 47 tags (`en`, `en-GB`, `zh-Hant`)
/// and the ISO 639-2 codes containers use (`eng`, `fre`, `ger`).
///
/// Tags are compared without regard to case or `_` / `-`; a three-letter code with a
/// two-letter equivalent is read as that (`eng` = `en`). `und`, `mul`, `zxx` and `mis`
/// name no language and read as nil.
public enum TrackLanguage {
  /// How well a track's language matches a wanted one.
  public enum Match: Int, Comparable, Sendable {
    /// Another language, or none.
    case none = 0
    /// The same language with different or missing subtags (`en` and `en-US`).
    case language = 1
    /// The same tag.
    case exact = 2

    public static func < (lhs: Match, rhs: Match) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// `tag` in a comparable form (`en-gb`, `zh-hant`), or nil when it names no language.
  public static func normalized(_ tag: String?) -> String? {
    guard let tag else { return nil }
    let parts = tag.trimmingCharacters(in: .whitespaces).lowercased()
      .replacingOccurrences(of: "_", with: "-")
      .split(separator: "-", omittingEmptySubsequences: true).map(String.init)
    guard var primary = parts.first, primary.allSatisfy({ $0.isLetter && $0.isASCII }) else {
      return nil
    }
    if ["und", "mul", "zxx", "mis"].contains(primary) { return nil }
    if primary.count == 3, let short = twoLetter[primary] { primary = short }
    return ([primary] + parts.dropFirst()).joined(separator: "-")
  }

  /// The primary language subtag of `tag` (`en` for `en-GB` and `eng`), or nil.
  public static func primary(_ tag: String?) -> String? {
    normalized(tag)?.split(separator: "-").first.map(String.init)
  }

  /// How well `tag` matches `wanted`.
  public static func match(_ tag: String?, _ wanted: String?) -> Match {
    guard let tag = normalized(tag), let wanted = normalized(wanted) else { return .none }
    if tag == wanted { return .exact }
    return primary(tag) == primary(wanted) ? .language : .none
  }

  /// ISO 639-2 (bibliographic and terminology) codes of common languages, to ISO 639-1.
  private static let twoLetter: [String: String] = [
    "ara": "ar", "bul": "bg", "cat": "ca", "ces": "cs", "cze": "cs", "chi": "zh", "zho": "zh",
    "dan": "da", "deu": "de", "ger": "de", "ell": "el", "gre": "el", "eng": "en", "spa": "es",
    "est": "et", "fas": "fa", "per": "fa", "fin": "fi", "fra": "fr", "fre": "fr", "heb": "he",
    "hin": "hi", "hrv": "hr", "hun": "hu", "ind": "id", "isl": "is", "ice": "is", "ita": "it",
    "jpn": "ja", "kor": "ko", "lit": "lt", "lav": "lv", "msa": "ms", "may": "ms", "nld": "nl",
    "dut": "nl", "nor": "no", "nob": "nb", "nno": "nn", "pol": "pl", "por": "pt", "ron": "ro",
    "rum": "ro", "rus": "ru", "slk": "sk", "slo": "sk", "slv": "sl", "srp": "sr", "swe": "sv",
    "tha": "th", "tur": "tr", "ukr": "uk", "vie": "vi", "cym": "cy", "wel": "cy", "tgl": "tl",
  ]
}
