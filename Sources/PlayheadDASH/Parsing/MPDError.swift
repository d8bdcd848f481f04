import PlayheadCore

/// Why an MPD was refused: where (the element path, `MPD/Period[2]/AdaptationSet[1]/@mimeType`,
/// indexes from 1), what, and the clause of ISO/IEC 23009-1 that says so when there is one.
public struct MPDError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The element (or attribute) path.
  public var path: String
  /// A one-line description.
  public var message: String
  /// The clause of ISO/IEC 23009-1 (`5.3.9.4.4`), when one applies.
  public var clause: String?

  /// An error; text from the MPD quoted in `message` is kept on one line and short.
  public init(path: String, _ message: String, clause: String? = nil) {
    self.path = path
    let line = String(message.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    self.message = line.count > 300 ? String(line.prefix(300)) + "…" : line
    self.clause = clause
  }

  /// `path: message (ISO/IEC 23009-1 clause)`.
  public var description: String {
    "\(path): \(message)" + (clause.map { " (ISO/IEC 23009-1 \($0))" } ?? "")
  }
}

extension XMLTreeLimits {
  /// The bounds of an MPD: 16 MiB, depth 32, a million elements (a 200,000-segment
  /// timeline written without `r` fits).
  public static let mpd = XMLTreeLimits(maxBytes: 16 << 20, maxDepth: 32, maxElements: 1_000_000)
}
