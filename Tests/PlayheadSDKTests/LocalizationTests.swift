import Foundation
import PlayheadCore
import PlayheadSDK
import XCTest

/// The SDK's strings: complete tables, language matching, overrides, error descriptions.
final class LocalizationTests: XCTestCase {
  func testEveryKeyExistsInEveryLanguageAndDiffersFromTheKeyName() {
    for language in Localization.supportedLanguages {
      let localization = Localization(preferredLanguages: [language])
      XCTAssertEqual(localization.resolvedLanguage, language)
      for key in LocalizedStringKey.allCases {
        let text = localization.string(key)
        XCTAssertFalse(text.isEmpty, "\(language).\(key)")
        XCTAssertNotEqual(text, key.rawValue, "\(language).\(key) falls back to the key")
        if language != "en", key != .auto, key != .audio, key != .live, key != .pause,
          key != .subtitles, key != .play
        {
          XCTAssertNotEqual(
            text, localization.string(key, language: "en"), "\(language).\(key) is English")
        }
      }
    }
  }

  func testLanguageTagsMatchByLanguageAndScript() {
    XCTAssertEqual(Localization.canonicalTag("fr-CA"), "fr")
    XCTAssertEqual(Localization.canonicalTag("de_DE"), "de")
    XCTAssertEqual(Localization.canonicalTag("zh-CN"), "zh-Hans")
    XCTAssertEqual(Localization.canonicalTag("zh"), "zh-Hans")
    XCTAssertEqual(Localization.canonicalTag("zh-TW"), "zh-Hant")
    XCTAssertEqual(Localization.canonicalTag("zh-Hant-HK"), "zh-Hant")
    XCTAssertEqual(Localization.canonicalTag("zh_HK"), "zh-Hant")
    XCTAssertEqual(Localization(preferredLanguages: ["ja-JP"]).string(.off), "オフ")
    XCTAssertEqual(Localization(preferredLanguages: ["zh-TW"]).string(.audio), "音訊")
    XCTAssertEqual(Localization(preferredLanguages: ["zh-CN"]).string(.audio), "音频")
    // The first supported language of the preference wins; English is the last resort.
    XCTAssertEqual(Localization(preferredLanguages: ["sv", "es-MX"]).string(.off), "Desactivados")
    XCTAssertEqual(Localization(preferredLanguages: ["sv"]).string(.off), "Off")
    XCTAssertEqual(Localization(preferredLanguages: []).resolvedLanguage, "en")
  }

  func testTheEnvironmentGivesThePreference() {
    XCTAssertEqual(
      Localization.environmentLanguages(["LANGUAGE": "ko:fr", "LANG": "de_DE.UTF-8"]),
      ["ko", "fr", "de_DE"])
    XCTAssertEqual(Localization.environmentLanguages(["LANG": "C.UTF-8"]), [])
    XCTAssertEqual(Localization.environmentLanguages(["LC_ALL": "ar_EG.UTF-8@latin"]), ["ar_EG"])
  }

  func testApplicationOverridesWinAndCanAddLanguages() {
    let localization = Localization(preferredLanguages: ["fr", "en"])
    localization.setOverrides([.off: "Aucun"], for: "fr-FR")
    XCTAssertEqual(localization.string(.off), "Aucun")
    XCTAssertEqual(localization.string(.subtitles), "Sous-titres", "other keys keep the SDK's text")
    localization.setOverrides([.off: "Av"], for: "sv")
    localization.preferredLanguages = ["sv"]
    XCTAssertEqual(localization.resolvedLanguage, "sv")
    XCTAssertEqual(localization.string(.off), "Av")
    XCTAssertEqual(localization.string(.quality), "Quality", "missing keys fall back to English")
  }

  func testErrorsGetViewerMessages() {
    let german = Localization(preferredLanguages: ["de"])
    XCTAssertEqual(
      german.userMessage(for: PlayheadError(.httpStatus, "HTTP 403", httpStatusCode: 403)),
      "Sie sind nicht berechtigt, dieses Video anzusehen.")
    XCTAssertEqual(
      Localization.key(for: PlayheadError(.httpStatus, "HTTP 404", httpStatusCode: 404)),
      .errorNotFound)
    XCTAssertEqual(
      Localization.key(for: PlayheadError(.httpStatus, "HTTP 503", httpStatusCode: 503)),
      .errorNetwork)
    XCTAssertEqual(Localization.key(for: PlayheadError(.timedOut, "slow")), .errorTimedOut)
    XCTAssertEqual(Localization.key(for: PlayheadError(.decryptionFailed, "key")), .errorDecryption)
    XCTAssertEqual(
      Localization.key(for: PlayheadSDKError(.noPlayableSource, "none").playheadError),
      .errorNoPlayableSource)
  }
}
