import Foundation

/// The `METHOD` of an `EXT-X-KEY` or `EXT-X-SESSION-KEY`.
public enum KeyMethod: String, Sendable, CaseIterable {
  /// Not encrypted.
  case none = "NONE"
  /// Whole segments encrypted with AES-128 CBC and PKCS7 padding.
  case aes128 = "AES-128"
  /// Samples encrypted (`cbcs` for fMP4, Apple's sample encryption for TS).
  case sampleAES = "SAMPLE-AES"
  /// Samples encrypted with AES CTR (`cenc`).
  case sampleAESCTR = "SAMPLE-AES-CTR"
}

/// `EXT-X-KEY` / `EXT-X-SESSION-KEY`: how segments are encrypted and where the key is.
///
/// The origin rule (only http(s) or the playlist's own scheme) applies to key URIs of the
/// `identity` key format only: other formats name keys for a key system (`skd://…`,
/// `data:…`) and are handed to the application's content-key provider, never fetched.
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
