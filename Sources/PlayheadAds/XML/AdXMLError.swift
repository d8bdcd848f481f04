import PlayheadCore

/// Why the ad XML reader refused a document; every kind maps to IAB VAST error 100 (XML
/// parsing error) when a VAST document is concerned.
///
/// `description` is `line N: message` (N is 0 when the problem concerns the whole input).
public struct AdXMLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is.
  public enum Kind: String, Sendable, CaseIterable {
    /// The input is empty or white space only.
    case empty
    /// The bytes are not well-formed XML (the message says where and why).
    case malformed
    /// A `<!DOCTYPE` declaration: DTDs are refused, so no entity can expand (billion
    /// laughs) and none can reach a file or URL (external entities).
    case doctypeRefused
    /// An `<!ENTITY` declaration, or an entity the parser was asked to resolve.
    case entityRefused
    /// Not UTF-8 text (UTF-16 or UTF-32 by its byte-order mark or NUL bytes): refused
    /// rather than scanned for declarations in an encoding the checks do not read.
    case unsupportedEncoding
    /// A configured limit (size, depth, element count) was exceeded.
    case limitExceeded
  }

  /// What kind of problem it is.
  public var kind: Kind
  /// The 1-based line the problem is on (0 for the whole input).
  public var line: Int
  /// A one-line description, without the line number.
  public var message: String

  public init(_ kind: Kind, line: Int = 0, _ message: String) {
    self.kind = kind
    self.line = line
    self.message = message
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}

extension AdXMLError.Kind {
  /// The kind of a problem the XML reader found.
  init(_ kind: XMLTreeError.Kind) {
    switch kind {
    case .empty: self = .empty
    case .malformed: self = .malformed
    case .doctypeRefused: self = .doctypeRefused
    case .entityRefused: self = .entityRefused
    case .unsupportedEncoding: self = .unsupportedEncoding
    case .limitExceeded: self = .limitExceeded
    }
  }
}
