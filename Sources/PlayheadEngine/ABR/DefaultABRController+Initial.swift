extension DefaultABRController {
  /// The position in `ladder` of the first level, from the start preference.
  func initialPosition(in ladder: ABRLadder, context: ABRContext) -> Int {
    switch configuration.startPreference {
    case .automatic:
      return automaticPosition(in: ladder, context: context)
    case .bandwidth(let bitsPerSecond):
      return ladder.position(atOrBelowBitrate: Double(bitsPerSecond))
    case .resolution(let pixelCount):
      return resolutionPosition(in: ladder, pixelCount: pixelCount)
        ?? automaticPosition(in: ladder, context: context)
    case .quality(let label):
      return qualityPosition(in: ladder, label: label)
        ?? automaticPosition(in: ladder, context: context)
    }
  }

  /// The highest level the estimate (or the default estimate) affords after the safety
  /// factor.
  func automaticPosition(in ladder: ABRLadder, context: ABRContext) -> Int {
    let estimate = context.throughputBitsPerSecond.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    let bandwidth = estimate ?? Double(configuration.defaultBandwidthEstimate)
    return ladder.position(atOrBelowBitrate: bandwidth * configuration.safetyFactor)
  }

  /// The highest-bitrate level with at most `pixelCount` pixels, else the smallest picture;
  /// nil when no level has a size.
  func resolutionPosition(in ladder: ABRLadder, pixelCount: Int) -> Int? {
    var best: Int?
    var smallest: (position: Int, pixels: Int)?
    for (position, level) in ladder.levels.enumerated() {
      guard let pixels = level.pixelCount else { continue }
      if pixels <= pixelCount { best = position }
      if pixels < (smallest?.pixels ?? Int.max) { smallest = (position, pixels) }
    }
    return best ?? smallest?.position
  }

  /// The level a quality label names; nil for automatic or an unknown label.
  func qualityPosition(in ladder: ABRLadder, label: String) -> Int? {
    let wanted = label.trimmingSpaces().lowercased()
    if !wanted.isEmpty,
      let own = ladder.levels.lastIndex(where: {
        $0.label.map { $0.trimmingSpaces().lowercased() } == wanted
      })
    {
      return own
    }
    switch ABRQualityLabel.target(for: label) {
    case .none, .automatic?: return nil
    case .highest?: return ladder.top
    case .height(let lines)?:
      var best: Int?
      var shortest: (position: Int, height: Int)?
      for (position, level) in ladder.levels.enumerated() {
        guard let height = level.height, height > 0 else { continue }
        if height <= lines { best = position }
        if height < (shortest?.height ?? Int.max) { shortest = (position, height) }
      }
      return best ?? shortest?.position
    }
  }
}
