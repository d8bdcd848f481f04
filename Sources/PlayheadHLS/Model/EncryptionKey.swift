import Foundation
import PlayheadCore

/// The `METHOD` of an `EXT-X-KEY` or `EXT-X-SESSION-KEY`.
///
/// Any method text is kept, so that a playlist with a method Playhead cannot decrypt still
/// parses (and writes back) and only the segments that need it fail when played. The
/// methods RFC 8216bis and the players in the field name have constants; `isKnown` tells
/// them from the rest. Playhead's engine decrypts `aes128` only.
public struct KeyMethod: RawRepresentable, Sendable, Hashable, CaseIterable,
  CustomStringConvertible
{
  /// The method as written, e.g. `AES-128`.
  public let rawValue: String

  /// Any method text (never nil: unknown methods are kept as written).
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// Not encrypted.
  public static let none = KeyMethod(rawValue: "NONE")
  /// Whole segments encrypted with AES-128 CBC and PKCS7 padding.
  public static let aes128 = KeyMethod(rawValue: "AES-128")
  /// Samples encrypted (`cbcs` for fMP4, Apple's sample encryption for TS).
  public static let sampleAES = KeyMethod(rawValue: "SAMPLE-AES")
  /// Samples encrypted with AES CTR (`cenc`).
  public static let sampleAESCTR = KeyMethod(rawValue: "SAMPLE-AES-CTR")
  /// `SAMPLE-AES-CENC`, an older name some packagers write for `cenc` (Widevine, PlayReady).
  public static let sampleAESCENC = KeyMethod(rawValue: "SAMPLE-AES-CENC")
  /// Whole segments encrypted with AES-256 CBC (hls.js names it; not in RFC 8216bis).
  public static let aes256 = KeyMethod(rawValue: "AES-256")
  /// Whole segments encrypted with AES-256 CTR (hls.js names it; not in RFC 8216bis).
  public static let aes256CTR = KeyMethod(rawValue: "AES-256-CTR")
  /// Whole segments encrypted with AES-256 GCM (Shaka names it; not in RFC 8216bis).
  public static let aes256GCM = KeyMethod(rawValue: "AES-256-GCM")

  /// The methods with a constant above.
  public static let allCases: [KeyMethod] = [
    .none, .aes128, .sampleAES, .sampleAESCTR, .sampleAESCENC, .aes256, .aes256CTR, .aes256GCM,
  ]

  /// The methods RFC 8216bis defines (`NONE`, `AES-128`, `SAMPLE-AES`, `SAMPLE-AES-CTR`).
  public static let standard: [KeyMethod] = [.none, .aes128, .sampleAES, .sampleAESCTR]

  /// Whether the method is one of `allCases`.
  public var isKnown: Bool { Self.allCases.contains(self) }

  /// The method as written.
  public var description: String { rawValue }
}

/// `EXT-X-KEY` / `EXT-X-SESSION-KEY`: how segments are encrypted and where the key is.
///
/// The origin rule (only http(s) or the playlist's own scheme) applies to key URIs that
/// name a resource to load (`http`, `https`, `file`, relative) of the `identity` key
/// format. Other key URIs name keys for a key system (`skd://…`, `data:…`, any other
/// scheme, or any URI of another `KEYFORMAT`): the engine never loads them — it decodes
/// `data:` keys inline (`inlineKey`) and asks the application's content-key provider for
/// the rest.
public struct EncryptionKey: Sendable, Equatable {
  /// `METHOD`.
  public var method: KeyMethod
  /// `URI` as written, after variable substitution; nil for `NONE`.
  public var uriString: String?
  /// The URL `uriString` is relative to.
  public var baseURL: URL
  /// `IV`: 16 bytes (a shorter hexadecimal value is left-padded with zeros).
  public var iv: [UInt8]?
  /// `KEYFORMAT` (default `identity`).
  public var keyFormat: String
  /// `KEYFORMATVERSIONS`, e.g. `1/2`.
  public var keyFormatVersions: String?

  public init(
    method: KeyMethod, uri: URL? = nil, iv: [UInt8]? = nil, keyFormat: String = "identity",
    keyFormatVersions: String? = nil
  ) {
    self.method = method
    self.uriString = uri?.absoluteString
    self.baseURL = uri?.absoluteURL ?? URL(fileURLWithPath: "/")
    self.iv = iv
    self.keyFormat = keyFormat
    self.keyFormatVersions = keyFormatVersions
  }

  init(
    method: KeyMethod, uriString: String?, baseURL: URL, iv: [UInt8]?, keyFormat: String,
    keyFormatVersions: String?
  ) {
    self.method = method
    self.uriString = uriString
    self.baseURL = baseURL
    self.iv = iv
    self.keyFormat = keyFormat
    self.keyFormatVersions = keyFormatVersions
  }

  /// The key's absolute URL, or nil (no URI, or one that is not a URL).
  public var uri: URL? {
    get { uriString.flatMap { URIResolution.resolve($0, against: baseURL) } }
    set {
      uriString = newValue?.absoluteString
      if let newValue { baseURL = newValue.absoluteURL }
    }
  }

  /// The IV that RFC 8216 derives from a media sequence number: the number as a 128-bit
  /// big-endian integer (negative numbers are clamped to 0).
  public static func sequenceIV(_ mediaSequence: Int) -> [UInt8] {
    var iv = [UInt8](repeating: 0, count: 16)
    var value = UInt64(max(0, mediaSequence))
    var index = 15
    while value > 0 && index >= 8 {
      iv[index] = UInt8(value & 0xFF)
      value >>= 8
      index -= 1
    }
    return iv
  }
}

extension EncryptionKey {
  /// The key bytes a `data:` key URI holds (`data:[type][;base64],…`, base64 or
  /// percent-encoded), decoded without any fetch; nil for other URIs and malformed ones.
  public var inlineKey: [UInt8]? {
    guard let uriString else { return nil }
    return Self.dataURIBytes(uriString)
  }

  /// Whether the key's URI names a resource to load (`http`, `https`, `file` or a relative
  /// reference) rather than a key for a key system (`skd://…`, `data:…`, another scheme),
  /// which only the application's content-key provider can answer for.
  public var isLoadable: Bool {
    guard let uriString else { return false }
    return !ParserContext.namesKeySystemKey(uriString)
  }

  /// The bytes of the `data:` URI `text`, or nil.
  static func dataURIBytes(_ text: String) -> [UInt8]? {
    guard text.utf8.count > 5, text.prefix(5).lowercased() == "data:",
      let comma = text.firstIndex(of: ",")
    else { return nil }
    let header = text[text.index(text.startIndex, offsetBy: 5)..<comma]
    let payload = String(text[text.index(after: comma)...])
    let isBase64 = header.split(separator: ";").last.map { $0.lowercased() == "base64" } ?? false
    if isBase64 {
      let compact = (payload.removingPercentEncoding ?? payload).filter { !$0.isWhitespace }
      var padded = compact
      while padded.utf8.count % 4 != 0 { padded += "=" }
      return Data(base64Encoded: padded).map { [UInt8]($0) }
    }
    return Self.percentDecodedBytes(payload)
  }

  /// `text` with `%XX` escapes decoded to bytes (any byte value); nil for a bad escape.
  private static func percentDecodedBytes(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(ByteText.hexValue),
        let low = iterator.next().flatMap(ByteText.hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }
}
