import Foundation
import PlayheadCore

extension ClearKeyLicense {
  /// JSON limits for a JWK set, which nests three levels: room for a few extra fields,
  /// none for a hostile document.
  static let jsonLimits = JSONReader.Limits(
    maxDepth: 8, maxStringBytes: 64 << 10, maxNumberLength: 64)

  /// The keys of `keyIDs` in the JWK set `data`; throws `.decryptionFailed` for an answer
  /// that is not one (see `ClearKeyLicense`) or lacks a key asked for.
  static func parseKeys(_ data: Data, for keyIDs: [[UInt8]], url: URL) throws(PlayheadError)
    -> [[UInt8]: [UInt8]]
  {
    func fail(_ what: String) -> PlayheadError { failure(what, keyIDs: keyIDs, url: url) }
    let value: JSONValue
    do {
      value = try JSONReader.read(data, limits: jsonLimits)
    } catch {
      throw fail("is not JSON (\(error.message))")
    }
    guard let entries = value.objectValue?["keys"]?.arrayValue else {
      throw fail("is not a JWK set (no \"keys\" array)")
    }
    var found: [[UInt8]: [UInt8]] = [:]
    for (index, entry) in entries.enumerated() {
      let (keyID, key) = try jsonWebKey(entry, index: index, fail: fail)
      if let earlier = found[keyID], earlier != key {
        throw fail("holds two different keys for key ID \(hex(keyID))")
      }
      found[keyID] = key
    }
    let missing = keyIDs.filter { found[$0] == nil }
    guard missing.isEmpty else {
      let label = missing.count == 1 ? "key ID" : "key IDs"
      throw fail("has no key for \(label) \(missing.map(hex).joined(separator: ", "))")
    }
    return found.filter { keyIDs.contains($0.key) }
  }

  /// One symmetric JWK: its key ID and its 16-byte key.
  private static func jsonWebKey(
    _ entry: JSONValue, index: Int, fail: (String) -> PlayheadError
  ) throws(PlayheadError) -> (keyID: [UInt8], key: [UInt8]) {
    let place = "key \(index + 1) of the JWK set"
    guard let fields = entry.objectValue else { throw fail("has a \(place) that is not an object") }
    guard let kidText = fields["kid"]?.stringValue else {
      throw fail("has a \(place) without a \"kid\" string")
    }
    guard let keyID = Base64URL.decode(kidText) else {
      throw fail("has a \(place) whose kid '\(excerpt(kidText))' is not base64url")
    }
    guard keyID.count == 16 else {
      throw fail("has a \(place) whose kid is \(keyID.count) bytes, not 16")
    }
    guard let kty = fields["kty"]?.stringValue else {
      throw fail("has no \"kty\" string for key ID \(hex(keyID))")
    }
    guard kty == "oct" else {
      throw fail("has kty '\(excerpt(kty))', not 'oct', for key ID \(hex(keyID))")
    }
    guard let keyText = fields["k"]?.stringValue else {
      throw fail("has no \"k\" string for key ID \(hex(keyID))")
    }
    guard let key = Base64URL.decode(keyText) else {
      throw fail("has a k that is not base64url for key ID \(hex(keyID))")
    }
    guard key.count == 16 else {
      throw fail("has a \(key.count)-byte key, not 16, for key ID \(hex(keyID))")
    }
    return (keyID, key)
  }

  /// At most 40 characters of `text`, on one line, for a message.
  private static func excerpt(_ text: String) -> String {
    let line = String(text.map { $0.isNewline || ($0.asciiValue ?? 0x20) < 0x20 ? " " : $0 })
    return line.count > 40 ? String(line.prefix(40)) + "…" : line
  }
}
