import PlayheadCore

/// Hands a `CENCDecryptor` the content key of a key ID: the engine's seam to its licence or
/// key store.
///
/// A decryptor asks once per key ID and keeps the answer; a key ID the source has no key for
/// (it returns nil) is asked again at its next sample, so a source may learn a key late.
/// Thrown errors pass through to the demuxer's reader unchanged. A key must be 16 bytes.
public protocol SampleKeySource: Sendable {
  /// The 16-byte content key for the 16-byte `keyID`, or nil when the source has none.
  func key(for keyID: [UInt8]) throws(PlayheadError) -> [UInt8]?
}

/// A fixed set of content keys, by 16-byte key ID: the simplest `SampleKeySource`.
///
/// Example:
/// ```swift
/// let keys = try SampleKeys(hex: ["0123456789abcdef0123456789abcdef": "00112233445566778899aabbccddeeff"])
/// ```
public struct SampleKeys: SampleKeySource {
  private let keys: [[UInt8]: [UInt8]]

  /// Holds `keys` (content key by key ID); sizes are checked when a key is used.
  public init(_ keys: [[UInt8]: [UInt8]]) {
    self.keys = keys
  }

  /// Holds keys given as hexadecimal text (key IDs may also be in UUID form, with dashes).
  ///
  /// Throws `.invalidArgument` for text that is not 16 bytes of hexadecimal.
  public init(hex: [String: String]) throws(PlayheadError) {
    var keys: [[UInt8]: [UInt8]] = [:]
    for (keyID, key) in hex {
      keys[try SampleKeyID.bytes(fromHex: keyID)] = try SampleKeyID.bytes(fromHex: key)
    }
    self.keys = keys
  }

  /// The key of `keyID`, or nil.
  public func key(for keyID: [UInt8]) throws(PlayheadError) -> [UInt8]? {
    keys[keyID]
  }
}

/// How Playhead writes and reads 16-byte key IDs in messages and configuration.
public enum SampleKeyID {
  /// `keyID` as 32 lowercase hexadecimal digits, then its UUID form in parentheses when it
  /// is 16 bytes: "0123456789abcdef0123456789abcdef (01234567-89ab-cdef-0123-456789abcdef)".
  public static func describe(_ keyID: [UInt8]) -> String {
    let hex = keyID.map { byte in
      let text = String(byte, radix: 16)
      return byte < 16 ? "0" + text : text
    }.joined()
    guard keyID.count == 16 else { return hex.isEmpty ? "(empty)" : hex }
    let characters = Array(hex)
    let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
    return "\(hex) (\(groups.joined(separator: "-")))"
  }

  /// The 16 bytes of `text`: 32 hexadecimal digits, optionally with UUID dashes or a `0x`.
  ///
  /// Throws `.invalidArgument` for anything else.
  public static func bytes(fromHex text: String) throws(PlayheadError) -> [UInt8] {
    var digits = Substring(text.lowercased())
    if digits.hasPrefix("0x") { digits = digits.dropFirst(2) }
    let clean = digits.filter { $0 != "-" }.utf8.map { $0 }
    var bytes: [UInt8] = []
    var index = 0
    while index + 1 < clean.count {
      guard let high = hexValue(clean[index]), let low = hexValue(clean[index + 1]) else { break }
      bytes.append(high << 4 | low)
      index += 2
    }
    guard clean.count == 32, bytes.count == 16 else {
      throw PlayheadError(
        .invalidArgument, "\"\(text)\" is not 16 bytes of hexadecimal (32 digits)")
    }
    return bytes
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
