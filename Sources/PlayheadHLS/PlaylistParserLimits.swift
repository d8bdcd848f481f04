/// Limits that protect the parser from hostile or broken input.
///
/// Exceeding any of them is a fatal `PlaylistParseError` of kind `.limitExceeded`.
public struct PlaylistParserLimits: Sendable, Equatable {
  /// The largest playlist accepted, in bytes (default 16 MiB).
  public var maxBytes: Int
  /// The longest line accepted, in bytes, line break excluded (default 64 KiB).
  public var maxLineLength: Int
  /// The most media segments accepted; partial segments, variants, renditions, date
  /// ranges, ad markers and unknown tags are each limited to the same count (default
  /// 200,000).
  public var maxSegments: Int
  /// The most bytes that `{$name}` substitutions may produce over the whole playlist
  /// (default 1 MiB).
  public var maxVariableExpansionBytes: Int

  public init(
    maxBytes: Int = 16 << 20, maxLineLength: Int = 64 << 10, maxSegments: Int = 200_000,
    maxVariableExpansionBytes: Int = 1 << 20
  ) {
    self.maxBytes = maxBytes
    self.maxLineLength = maxLineLength
    self.maxSegments = maxSegments
    self.maxVariableExpansionBytes = maxVariableExpansionBytes
  }

  /// The defaults: 16 MiB, 64 KiB lines, 200,000 segments, 1 MiB of variable expansion.
  public static let `default` = PlaylistParserLimits()
}
