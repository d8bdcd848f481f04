/// A VAST document that cannot be used at all, with the IAB error code to report.
///
/// `description` is `VAST error NNN at PATH: message`; `path` is the element path
/// (`/VAST/Ad[2]/InLine`), or `/` for the whole document.
public struct VASTError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The IAB code: 100 for XML problems (including refused DTDs and limits), 101 for a
  /// document that is not VAST, 102 for an unsupported version.
  public var code: VASTErrorCode
  /// Where in the document the problem is.
  public var path: String
  /// A one-line description.
  public var message: String
  /// The XML reader's error, when the XML itself was refused.
  public var xmlError: AdXMLError?

  public init(
    _ code: VASTErrorCode, path: String = "/", _ message: String, xmlError: AdXMLError? = nil
  ) {
    self.code = code
    self.path = path
    self.message = message
    self.xmlError = xmlError
  }

  /// `VAST error NNN at PATH: message`.
  public var description: String { "VAST error \(code.rawValue) at \(path): \(message)" }
}
