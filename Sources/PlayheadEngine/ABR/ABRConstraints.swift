/// Limits the application puts on adaptive selection, and manual selection of one level.
///
/// Caps remove levels from the adaptive choice: a peak bitrate above `preferredPeakBitRate`,
/// more pixels than `maxPixelCount`, or a picture wider or taller than
/// `preferredMaximumResolution`. A level whose size is unknown passes the picture caps.
/// Caps never remove every level: when none passes, the lowest level (by bitrate) stays.
/// `manualLevel` wins over the caps and over adaptation; a manual index that names no level
/// is ignored and selection stays automatic.
public struct ABRConstraints: Sendable, Equatable {
  /// The highest peak bitrate to choose, in bits per second; 0 or less means no cap.
  public var preferredPeakBitRate: Int
  /// The most pixels per picture to choose; nil means no cap.
  public var maxPixelCount: Int?
  /// The largest picture to choose; nil means no cap.
  public var preferredMaximumResolution: VideoResolution?
  /// The level the viewer picked by hand (a `BitrateLevel.index`); nil for automatic.
  public var manualLevel: Int?

  /// Creates constraints; the defaults mean automatic selection with no caps.
  public init(
    preferredPeakBitRate: Int = 0, maxPixelCount: Int? = nil,
    preferredMaximumResolution: VideoResolution? = nil, manualLevel: Int? = nil
  ) {
    self.preferredPeakBitRate = preferredPeakBitRate
    self.maxPixelCount = maxPixelCount
    self.preferredMaximumResolution = preferredMaximumResolution
    self.manualLevel = manualLevel
  }

  /// No caps and automatic selection.
  public static let none = ABRConstraints()

  /// Whether `level` passes every cap (manual selection is not considered).
  public func allows(_ level: BitrateLevel) -> Bool {
    if preferredPeakBitRate > 0, level.bandwidth > preferredPeakBitRate { return false }
    if let pixels = level.pixelCount {
      if let maxPixelCount, pixels > maxPixelCount { return false }
      if let box = preferredMaximumResolution,
        let width = level.width, let height = level.height,
        width > box.width || height > box.height
      {
        return false
      }
    }
    return true
  }

  /// The levels adaptation may choose from, sorted by ascending planned bitrate.
  ///
  /// Never empty unless `levels` is: when no level passes the caps, the lowest level is
  /// kept. Ties in bitrate keep their input order; duplicates are kept.
  public func eligibleLevels(_ levels: [BitrateLevel]) -> [BitrateLevel] {
    let sorted = BitrateLevel.sortedByBitrate(levels)
    let allowed = sorted.filter(allows)
    if allowed.isEmpty, let lowest = sorted.first { return [lowest] }
    return allowed
  }

  /// The manually selected level when `manualLevel` names one of `levels`, otherwise nil.
  public func manualSelection(in levels: [BitrateLevel]) -> BitrateLevel? {
    guard let manualLevel else { return nil }
    return levels.first { $0.index == manualLevel }
  }
}

extension BitrateLevel {
  /// `levels` sorted by ascending planned bitrate, then peak bandwidth, then input order.
  public static func sortedByBitrate(_ levels: [BitrateLevel]) -> [BitrateLevel] {
    levels.enumerated().sorted { lhs, rhs in
      if lhs.element.plannedBitrate != rhs.element.plannedBitrate {
        return lhs.element.plannedBitrate < rhs.element.plannedBitrate
      }
      if lhs.element.bandwidth != rhs.element.bandwidth {
        return lhs.element.bandwidth < rhs.element.bandwidth
      }
      return lhs.offset < rhs.offset
    }.map(\.element)
  }
}
