/// A fatal problem in a WebVTT file: parsing stops and no document is returned.
///
/// The WebVTT parser recovers from almost everything (see `WebVTTWarning`); only a missing
/// `WEBVTT` signature and an exceeded limit are fatal. `description` is `line N: message`;
/// N is 1-based, or 0 when the error concerns the whole input (the size limit).
public struct WebVTTError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is.
  public enum Kind: String, Sendable, CaseIterable {
    /// The first line (after an optional UTF-8 byte-order mark) is not `WEBVTT`, alone or
    /// followed by a space or a tab and any text; this includes empty input.
    case missingHeader
    /// A configured limit was exceeded (size, line length, cue count).
    case limitExceeded
  }

  /// What kind of problem it is.
  public let kind: Kind
  /// The 1-based line the problem is on (0 for the whole input).
  public let line: Int
  /// A one-line description, without the line number.
  public let message: String

  public init(_ kind: Kind, line: Int, _ message: String) {
    self.kind = kind
    self.line = line
    self.message = message
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}

/// A recoverable oddity found while parsing a WebVTT file: the parser skipped or
/// corrected something and went on.
public struct WebVTTWarning: Sendable, Hashable, CustomStringConvertible {
  /// The 1-based line it was found on (0 when it concerns the whole file).
  public let line: Int
  /// A one-line description.
  public let message: String

  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}
