import Foundation
import PlayheadCore

/// The tags both playlist kinds share: `EXT-X-VERSION`, `EXT-X-START`, `EXT-X-DEFINE`, and
/// the key attributes of `EXT-X-KEY` and `EXT-X-SESSION-KEY`.
extension ParserContext {
  /// `EXT-X-VERSION`: the version, or nil (with a warning) when malformed.
  mutating func version(_ value: ByteSpan) -> Int? {
    guard let version = text.integer(text.trimmed(value)) else {
      warn("EXT-X-VERSION '\(text.string(value))' is not a decimal integer; kept as an unknown tag")
      return nil
    }
    return version
  }

  /// `EXT-X-START`, or nil (with a warning) when `TIME-OFFSET` is missing or malformed.
  mutating func startPoint(_ value: ByteSpan) -> StartPoint? {
    let list = attributes(value, of: .start)
    guard let entry = list.entry("TIME-OFFSET", in: text),
      let offset = text.decimalTime(entry.value, allowSign: true)
    else {
      warn("EXT-X-START needs a decimal TIME-OFFSET; kept as an unknown tag")
      return nil
    }
    warnUnknownAttributes(list, known: ["TIME-OFFSET", "PRECISE"], of: .start)
    return StartPoint(timeOffset: offset, precise: flag("PRECISE", in: list))
  }

  /// `EXT-X-DEFINE`: defines one variable from `NAME`/`VALUE`, `IMPORT` or `QUERYPARAM`.
  ///
  /// Fatal: a missing source (`.missingAttribute`), an invalid name or `IMPORT` in a master
  /// playlist (`.invalidValue`), a name defined twice (`.duplicateVariable`), an `IMPORT`
  /// the master's variables do not have or a `QUERYPARAM` the URL's query does not have
  /// (`.undefinedVariable`). Values are taken as written, without substitution.
  mutating func define(_ value: ByteSpan, inMaster: Bool) throws(PlaylistParseError) {
    let list = attributes(value, of: .define)
    warnUnknownAttributes(list, known: ["NAME", "VALUE", "IMPORT", "QUERYPARAM"], of: .define)
    let name: String
    let definition: String
    if let nameEntry = list.entry("NAME", in: text) {
      guard let valueEntry = list.entry("VALUE", in: text) else {
        throw error(.missingAttribute, "EXT-X-DEFINE NAME has no VALUE")
      }
      name = try variableName(nameEntry)
      definition = text.string(valueEntry.value)
    } else if let importEntry = list.entry("IMPORT", in: text) {
      name = try variableName(importEntry)
      if inMaster {
        throw error(.invalidValue, "EXT-X-DEFINE IMPORT is not allowed in a master playlist")
      }
      guard let importable else {
        throw error(
          .undefinedVariable,
          "EXT-X-DEFINE IMPORT=\"\(name)\" needs the master playlist's variables, which were not given"
        )
      }
      guard let imported = importable[name] else {
        throw error(
          .undefinedVariable,
          "EXT-X-DEFINE IMPORT=\"\(name)\": the master playlist does not define it")
      }
      definition = imported
    } else if let queryEntry = list.entry("QUERYPARAM", in: text) {
      name = try variableName(queryEntry)
      let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
      guard let found = items.first(where: { $0.name == name })?.value else {
        throw error(
          .undefinedVariable,
          "EXT-X-DEFINE QUERYPARAM=\"\(name)\": the playlist URL has no such query parameter")
      }
      definition = found
    } else {
      throw error(.missingAttribute, "EXT-X-DEFINE needs NAME and VALUE, IMPORT or QUERYPARAM")
    }
    guard definitions[name] == nil else {
      throw error(.duplicateVariable, "variable '\(name)' is defined twice")
    }
    definitions[name] = definition
  }

  private func variableName(_ entry: AttributeList.Entry) throws(PlaylistParseError) -> String {
    guard !entry.value.isEmpty,
      text.buffer(entry.value).allSatisfy(ParserContext.isNameByte)
    else {
      throw error(
        .invalidValue,
        "EXT-X-DEFINE variable name '\(text.string(entry.value))' is not [A-Za-z0-9_-]+")
    }
    return text.string(entry.value)
  }

  /// The `METHOD` of a key tag, kept whatever it is (a method Playhead cannot decrypt
  /// fails only the segments that need it, when they are played).
  ///
  /// Fatal: no `METHOD` (`.missingAttribute`) or an empty one (`.invalidValue`). A method
  /// RFC 8216bis does not define is a warning.
  mutating func keyMethod(_ list: AttributeList, of tag: TagName) throws(PlaylistParseError)
    -> KeyMethod
  {
    guard let entry = list.entry("METHOD", in: text) else {
      throw error(.missingAttribute, "\(tag.name) has no METHOD")
    }
    let name = text.string(entry.value)
    guard !name.isEmpty else { throw error(.invalidValue, "\(tag.name) METHOD is empty") }
    let method = KeyMethod(rawValue: name)
    if !KeyMethod.standard.contains(method) {
      warn(
        "\(tag.name) METHOD '\(Self.excerpt(name))' is not NONE, AES-128, SAMPLE-AES or "
          + "SAMPLE-AES-CTR; kept, and segments that need it cannot be played")
    }
    return method
  }

  /// The key a key tag with a method other than `NONE` describes.
  ///
  /// Fatal: no `URI` (`.missingAttribute`), an `IV` that is not a hexadecimal value of at
  /// most 128 bits (`.invalidValue`), an `identity` key URI the origin rule forbids.
  mutating func key(_ list: AttributeList, method: KeyMethod, of tag: TagName)
    throws(PlaylistParseError) -> EncryptionKey
  {
    warnUnknownAttributes(
      list, known: ["METHOD", "URI", "IV", "KEYFORMAT", "KEYFORMATVERSIONS"], of: tag)
    let keyFormat = try string("KEYFORMAT", in: list) ?? "identity"
    guard let uriEntry = list.entry("URI", in: text) else {
      throw error(.missingAttribute, "\(tag.name) METHOD=\(method.rawValue) has no URI")
    }
    let uri = try string(uriEntry)
    if keyFormat == "identity" && !Self.namesKeySystemKey(uri) {
      try check(uri: uri, in: tag.name)
    } else if uri.isEmpty {
      throw error(.invalidURI, "empty URI in \(tag.name)")
    }
    var iv: [UInt8]?
    if let ivEntry = list.entry("IV", in: text) {
      let ivText = try string(ivEntry)
      iv = Self.withBytes(of: ivText) { $0.hexBytes(ByteSpan(0, $0.bytes.count), width: 16) }
      if iv == nil {
        throw error(
          .invalidValue,
          "\(tag.name) IV '\(Self.excerpt(ivText))' is not a 128-bit hexadecimal value")
      }
    }
    return EncryptionKey(
      method: method, uriString: uri, baseURL: url, iv: iv, keyFormat: keyFormat,
      keyFormatVersions: try string("KEYFORMATVERSIONS", in: list))
  }

  /// Whether a key URI names a key for a key system rather than a resource to load: a
  /// scheme other than `http`, `https` and `file` (`skd://…`, `data:…`, a vendor scheme).
  ///
  /// Such keys are exempt from the origin rule: the engine never loads them (it decodes
  /// `data:` keys inline and asks the content-key provider for the rest). `file:` keys stay
  /// under the rule, so a network playlist cannot make the player read a local file.
  static func namesKeySystemKey(_ uri: String) -> Bool {
    guard let scheme = scheme(of: uri) else { return false }
    return scheme != "http" && scheme != "https" && scheme != "file"
  }
}
