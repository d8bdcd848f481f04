/// Bounds on what `MP4TextParser` reads, so that hostile input costs bounded memory and time.
public struct MP4TextLimits: Sendable, Equatable {
  /// The largest initialization section or media segment, in bytes.
  public var maxBytes: Int
  /// The most samples in one segment (all its `trun`s together).
  public var maxSamples: Int
  /// The most cues one segment gives.
  public var maxCues: Int
  /// The largest TTML document (one `stpp` sample), in bytes.
  public var maxDocumentBytes: Int
  /// The most elements in one TTML document.
  public var maxDocumentElements: Int

  public init(
    maxBytes: Int = 16 << 20, maxSamples: Int = 100_000, maxCues: Int = 100_000,
    maxDocumentBytes: Int = 1 << 20, maxDocumentElements: Int = 50_000
  ) {
    self.maxBytes = maxBytes
    self.maxSamples = maxSamples
    self.maxCues = maxCues
    self.maxDocumentBytes = maxDocumentBytes
    self.maxDocumentElements = maxDocumentElements
  }

  /// 16 MiB segments, 100,000 samples and cues, 1 MiB TTML documents of 50,000 elements.
  public static let `default` = MP4TextLimits()
}
