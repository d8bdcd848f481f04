/// Limits that protect the WebVTT parser from hostile or broken input.
///
/// Exceeding any of them is a fatal `WebVTTError` of kind `.limitExceeded`.
public struct WebVTTParserLimits: Sendable, Equatable {
  /// The largest file accepted, in bytes (default 16 MiB).
  public var maxBytes: Int
  /// The longest line accepted, in bytes, line break excluded (default 64 KiB).
  public var maxLineLength: Int
  /// The most cues accepted; regions and style blocks are each held to the same count
  /// (default 200,000).
  public var maxCues: Int

  public init(maxBytes: Int = 16 << 20, maxLineLength: Int = 64 << 10, maxCues: Int = 200_000) {
    self.maxBytes = maxBytes
    self.maxLineLength = maxLineLength
    self.maxCues = maxCues
  }

  /// The defaults: 16 MiB, 64 KiB lines, 200,000 cues.
  public static let `default` = WebVTTParserLimits()
}
