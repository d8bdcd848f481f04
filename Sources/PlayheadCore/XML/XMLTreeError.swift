/// Why `XMLTreeReader` refused a document.
///
/// `description` is `line N: message` (N is 0 when the problem concerns the whole input).
public struct XMLTreeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is.
  public enum Kind: String, Sendable, CaseIterable {
    /// The input is empty or white space only.
    case empty
    /// The bytes are not well-formed XML.
    case malformed
    /// A `<!DOCTYPE` declaration: DTDs are refused, so no entity can expand (billion
    /// laughs) and none can reach a file or URL (external entities).
    case doctypeRefused
    /// A reference to an entity other than XML's five predefined ones (`&lt;` …) and
    /// character references: without a DTD none can be declared.
    case entityRefused
    /// Not UTF-8 text (UTF-16 or UTF-32 by its byte-order mark, NUL bytes, invalid
    /// sequences), or another declared encoding.
    case unsupportedEncoding
    /// A limit (size, depth, element count) was exceeded.
    case limitExceeded
  }

  /// What kind of problem it is.
  public var kind: Kind
  /// The 1-based line the problem is on (0 for the whole input).
  public var line: Int
  /// A one-line description, without the line number.
  public var message: String

  /// An error.
  public init(_ kind: Kind, line: Int = 0, _ message: String) {
    self.kind = kind
    self.line = line
    self.message = message
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}

/// The bounds a document read by `XMLTreeReader` must stay within.
public struct XMLTreeLimits: Sendable, Equatable {
  /// The largest document, in bytes.
  public var maxBytes: Int
  /// The deepest element nesting, the root being depth 1.
  public var maxDepth: Int
  /// The most elements in one document.
  public var maxElements: Int

  /// Limits; the defaults suit small documents (2 MiB, depth 64, 50,000 elements).
  public init(maxBytes: Int = 2 << 20, maxDepth: Int = 64, maxElements: Int = 50_000) {
    self.maxBytes = maxBytes
    self.maxDepth = maxDepth
    self.maxElements = maxElements
  }

  /// The defaults: 2 MiB, depth 64, 50,000 elements.
  public static let `default` = XMLTreeLimits()
}
