import Foundation

extension Localization {
  /// The SDK's own tables, by canonical tag.
  static let builtIn: [String: [LocalizedStringKey: String]] = [
    "ar": arabic,
    "en": english,
    "fr": french,
    "de": german,
    "ja": japanese,
    "ko": korean,
    "es": spanish,
    "zh-Hans": simplifiedChinese,
    "zh-Hant": traditionalChinese,
  ]
}
