import Foundation
import PlayheadCore

/// The SDK's user-visible strings in ar, en, fr, de, ja, ko, es, zh-Hans and zh-Hant,
/// chosen by a language preference, with application overrides.
///
/// `string(_:)` looks the key up in the first preferred language that has it: the
/// application's override table for that language first, then the SDK's table. English is
/// the last resort, so every key always yields text. Language tags match by their language
/// and script: `fr-CA` uses `fr`; `zh-CN`, `zh-SG` and `zh-Hans-*` use `zh-Hans`; `zh-TW`,
/// `zh-HK`, `zh-MO` and `zh-Hant-*` use `zh-Hant`; a bare `zh` uses `zh-Hans`.
public final class Localization: Sendable {
  /// The process-wide localisation the SDK uses; its preference starts from the
  /// environment (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
  public static let shared = Localization(
    preferredLanguages: Localization.environmentLanguages(ProcessInfo.processInfo.environment))

  /// The languages the SDK ships, as tags.
  public static let supportedLanguages = [
    "ar", "en", "fr", "de", "ja", "ko", "es", "zh-Hans", "zh-Hant",
  ]

  private let state: Locked<State>

  private struct State: Sendable {
    var preference: [String]
    var overrides: [String: [LocalizedStringKey: String]] = [:]
  }

  /// A localisation preferring `preferredLanguages` (BCP 47 tags, most preferred first).
  public init(preferredLanguages: [String] = []) {
    state = Locked(State(preference: preferredLanguages))
  }

  /// The language preference, most preferred first.
  public var preferredLanguages: [String] {
    get { state.withLock { $0.preference } }
    set { state.withLock { $0.preference = newValue } }
  }

  /// Replaces the application's strings for `language` (a tag; matched like preferences).
  /// Keys missing from `table` keep the SDK's text. An unsupported language is allowed:
  /// the application may add languages of its own.
  public func setOverrides(_ table: [LocalizedStringKey: String], for language: String) {
    let tag = Self.canonicalTag(language)
    state.withLock { $0.overrides[tag] = table }
  }

  /// The text for `key` in the preferred language (or in `language` when given).
  public func string(_ key: LocalizedStringKey, language: String? = nil) -> String {
    let (stored, overrides) = state.withLock { ($0.preference, $0.overrides) }
    let preference = language.map { [$0] } ?? stored
    for tag in preference.map(Self.canonicalTag) {
      if let text = overrides[tag]?[key] { return text }
      if let text = Self.builtIn[tag]?[key] { return text }
    }
    return overrides["en"]?[key] ?? Self.builtIn["en"]?[key] ?? key.rawValue
  }

  /// The text for `key` with each `{name}` placeholder replaced by `values[name]`
  /// (`string(.adPosition, filling: ["n": "1", "count": "3"])` → "Ad 1 of 3").
  /// Placeholders without a value stay as written, so a missing one shows rather than
  /// vanishes.
  public func string(_ key: LocalizedStringKey, filling values: [String: String]) -> String {
    var text = string(key)
    for (name, value) in values {
      text = text.replacingOccurrences(of: "{\(name)}", with: value)
    }
    return text
  }

  /// The language `string(_:)` uses first: the first preferred language with a table
  /// (the SDK's or an override), else `en`.
  public var resolvedLanguage: String {
    let (preference, overrides) = state.withLock { ($0.preference, $0.overrides) }
    for tag in preference.map(Self.canonicalTag)
    where Self.builtIn[tag] != nil || overrides[tag] != nil {
      return tag
    }
    return "en"
  }

  /// A description of `error` for the viewer, in the preferred language.
  public func userMessage(for error: PlayheadError) -> String {
    string(Self.key(for: error))
  }

  /// The key describing `error` to a viewer.
  public static func key(for error: PlayheadError) -> LocalizedStringKey {
    switch error.code {
    case .noPlayableStreams: return .errorNoPlayableSource
    case .timedOut: return .errorTimedOut
    case .connectionFailed, .cancelled, .ioError, .tooManyRedirects, .notInRecording:
      return .errorNetwork
    case .redirectRefused: return .errorAccessDenied
    case .notRegularFile: return .errorUnsupportedFormat
    case .fileNotFound, .isDirectory, .emptySource: return .errorNotFound
    case .httpStatus:
      switch error.httpStatusCode {
      case 401, 403: return .errorAccessDenied
      case 404, 410: return .errorNotFound
      default: return .errorNetwork
      }
    case .unsupportedScheme, .unsupportedFormat, .malformedJSON, .decoderUnavailable,
      .invalidPlaylist:
      return .errorUnsupportedFormat
    case .decryptionFailed, .unsupportedEncryption: return .errorDecryption
    case .sourceExpired: return .errorAccessDenied
    case .decodeFailed, .invalidArgument, .invalidState, .noProgress, .mediaEndedEarly,
      .invalidRecording, .adFailed:
      return .errorPlayback
    }
  }

  /// The table tag a language tag maps to (`fr-CA` → `fr`, `zh-TW` → `zh-Hant`); tags
  /// without a table keep their lowercased language part.
  public static func canonicalTag(_ tag: String) -> String {
    let parts = tag.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
    guard let language = parts.first?.lowercased(), !language.isEmpty else { return "" }
    guard language == "zh" else { return language }
    let rest = parts.dropFirst().map { $0.lowercased() }
    if rest.contains("hant") || rest.contains(where: { ["tw", "hk", "mo"].contains($0) }) {
      return "zh-Hant"
    }
    return "zh-Hans"
  }

  /// The preference a POSIX environment states: `LANGUAGE` (a colon-separated list), then
  /// `LC_ALL`, `LC_MESSAGES`, `LANG`; `C` and `POSIX` and encodings are left out.
  public static func environmentLanguages(_ environment: [String: String]) -> [String] {
    var tags: [String] = []
    if let list = environment["LANGUAGE"] {
      tags += list.split(separator: ":").map(String.init)
    }
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = environment[name] { tags.append(value) }
    }
    return tags.compactMap { tag in
      let bare = tag.split(separator: ".").first.map(String.init) ?? tag
      let clean = bare.split(separator: "@").first.map(String.init) ?? bare
      return clean.isEmpty || clean == "C" || clean == "POSIX" ? nil : clean
    }
  }
}
