/// One rendition of an adaptive stream as the bitrate logic sees it: its bitrate and picture.
///
/// `index` identifies the level (for HLS, the variant's position in the master playlist);
/// every ABR call takes and returns these indices, never positions in an array. Fields the
/// playlist does not give are nil. A level with a bandwidth of zero or less is never chosen
/// by the adaptive rules unless it is the only one.
public struct BitrateLevel: Sendable, Equatable {
  /// The level's identity, returned by the ABR controller.
  public var index: Int
  /// The peak bitrate in bits per second (HLS `BANDWIDTH`).
  public var bandwidth: Int
  /// The average bitrate in bits per second (HLS `AVERAGE-BANDWIDTH`), when known.
  public var averageBandwidth: Int?
  /// The picture width in pixels, when known.
  public var width: Int?
  /// The picture height in pixels, when known.
  public var height: Int?
  /// The frame rate in frames per second, when known.
  public var frameRate: Double?
  /// The codecs string (HLS `CODECS`), when known.
  public var codecs: String?
  /// A quality label such as `"HD"` or `"720p"`, when the source names its levels.
  public var label: String?

  /// Creates a level; only the index and the peak bandwidth are required.
  public init(
    index: Int, bandwidth: Int, averageBandwidth: Int? = nil, width: Int? = nil,
    height: Int? = nil, frameRate: Double? = nil, codecs: String? = nil, label: String? = nil
  ) {
    self.index = index
    self.bandwidth = bandwidth
    self.averageBandwidth = averageBandwidth
    self.width = width
    self.height = height
    self.frameRate = frameRate
    self.codecs = codecs
    self.label = label
  }

  /// The number of pixels in one picture, or nil when the size is unknown or not positive.
  ///
  /// A product that does not fit `Int` is reported as `Int.max`.
  public var pixelCount: Int? {
    guard let width, let height, width > 0, height > 0 else { return nil }
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? Int.max : product
  }

  /// The bitrate the adaptive rules plan with, in bits per second: the average bandwidth
  /// when it is given and positive, otherwise the peak bandwidth.
  ///
  /// Never negative: a negative bandwidth counts as zero.
  public var plannedBitrate: Int {
    if let averageBandwidth, averageBandwidth > 0 { return averageBandwidth }
    return max(0, bandwidth)
  }
}
