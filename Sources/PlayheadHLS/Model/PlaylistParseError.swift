/// A fatal problem in a playlist: parsing stops and no model is returned.
///
/// `description` is `line N: message`; N is 1-based, or 0 when the error concerns the
/// whole input (the size limit).
public struct PlaylistParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is.
  public enum Kind: String, Sendable, CaseIterable {
    /// The first line is not `#EXTM3U`.
    case missingHeader
    /// A media segment URI with no `EXTINF` before it.
    case segmentWithoutDuration
    /// Not thrown any more: a byte range without an offset and no previous range of the
    /// same resource starts at 0, with a warning. Kept for source compatibility.
    case byteRangeWithoutOffset
    /// Not thrown any more: an `EXT-X-MAP` under an AES-128 `EXT-X-KEY` without `IV` takes
    /// its IV from the media sequence, with a warning. Kept for source compatibility.
    case mapWithoutIV
    /// A tag that may appear only once appears again with another value (an identical
    /// repeat is a warning); the message names both lines.
    case duplicateTag
    /// The input is empty (no bytes, or only blanks and line breaks).
    case emptyPlaylist
    /// A `{$name}` reference to a variable that is not defined, or an `EXT-X-DEFINE`
    /// whose `IMPORT` or `QUERYPARAM` source does not have the variable.
    case undefinedVariable
    /// Two `EXT-X-DEFINE` tags for the same name.
    case duplicateVariable
    /// A required attribute is missing.
    case missingAttribute
    /// A tag or attribute value is malformed (not a number, unknown `METHOD`, …).
    case invalidValue
    /// A URI that is not a valid URI reference.
    case invalidURI
    /// A URI whose scheme the playlist's origin does not allow (the origin rule).
    case forbiddenURI
    /// A master playlist tag that decides the kind (`EXT-X-STREAM-INF`,
    /// `EXT-X-I-FRAME-STREAM-INF`) in a media playlist, or `EXTINF` in a master playlist.
    case mixedPlaylist
    /// An `EXT-X-STREAM-INF` not followed by its URI line.
    case missingURI
    /// A configured limit was exceeded (size, line length, count, variable expansion).
    case limitExceeded
  }

  /// What kind of problem it is.
  public var kind: Kind
  /// The 1-based line the problem is on (0 for the whole input).
  public var line: Int
  /// A one-line description, without the line number.
  public var message: String

  public init(_ kind: Kind, line: Int, _ message: String) {
    self.kind = kind
    self.line = line
    self.message = message
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}
