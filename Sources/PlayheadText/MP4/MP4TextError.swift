/// Why an fMP4 text track or segment could not be read, with the box path where it happened
/// (`moof[1]/traf/trun`) and what was wrong.
///
/// ```swift
/// do { _ = try MP4TextParser.parse(initialization: initBytes, segment: bytes) }
/// catch { print(error) }  // "moof[1]/traf/trun: 4000000000 samples, over the limit of 100000"
/// ```
public struct MP4TextError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kinds of failure.
  public enum Kind: String, Sendable, CaseIterable {
    /// A box runs past its container or the bytes end inside a field.
    case truncated
    /// A box or field holds a value the format does not allow (a size below its header, a
    /// zero timescale, a sample outside the segment, a TTML sample that is not XML).
    case malformed
    /// The initialization section has no `wvtt` or `stpp` track.
    case noTextTrack
    /// A bound of `MP4TextLimits` was passed.
    case limitExceeded
  }

  /// What went wrong.
  public let kind: Kind
  /// Where: the box path (indexes from 1 where several boxes of a type may stand).
  public let path: String
  /// A sentence about it.
  public let message: String

  public init(_ kind: Kind, path: String, _ message: String) {
    self.kind = kind
    self.path = path
    self.message = message
  }

  public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
