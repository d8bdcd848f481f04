/// A VMAP playlist that cannot be used at all; the content then plays without its breaks.
///
/// `code` is the VMAP 1.0 error code (1000 schema, 1001 version, 1002 parsing, ...);
/// `description` is `VMAP error NNNN at PATH: message`.
public struct VMAPError: Error, Sendable, Equatable, CustomStringConvertible {
  /// 1000: the playlist is not VMAP (wrong root, required attribute missing).
  public static let schemaError = 1000
  /// 1001: VMAP version not supported.
  public static let versionNotSupported = 1001
  /// 1002: VMAP parsing error (not XML, refused by the XML reader).
  public static let parsingError = 1002
  /// 1005: ad response template type not supported.
  public static let templateNotSupported = 1005
  /// 1008: general VMAP error.
  public static let general = 1008

  public var code: Int
  public var path: String
  public var message: String
  /// The XML reader's error, when the XML itself was refused.
  public var xmlError: AdXMLError?

  public init(_ code: Int, path: String = "/", _ message: String, xmlError: AdXMLError? = nil) {
    self.code = code
    self.path = path
    self.message = message
    self.xmlError = xmlError
  }

  /// `VMAP error NNNN at PATH: message`.
  public var description: String { "VMAP error \(code) at \(path): \(message)" }
}
