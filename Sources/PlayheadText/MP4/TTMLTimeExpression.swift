/// TTML time expressions (TTML2 10.3.1) in seconds: clock times (`01:02:03.5`,
/// `01:02:03:12` with frames, `01:02:03:12.1` with sub-frames) and offsets (`12.5s`,
/// `500ms`, `1.5m`, `0.5h`, `25f`, `900t`).
///
/// Frames count at `frameRate` times `frameRateMultiplier`, sub-frames at `subFrameRate`
/// per frame, ticks at `tickRate` (default: the frame rate times the sub-frame rate when a
/// frame rate is given, else 1), as the document's `ttp:` parameters say.
struct TTMLTimeExpression {
  var frameRate: Double = 30
  var subFrameRate: Double = 1
  var tickRate: Double = 1

  /// The parameters of the root `tt` element's attributes (local names).
  init(parameters: [String: String]) {
    let givenRate = parameters["frameRate"].flatMap { Double($0.trimmingXMLSpace) }
    if let givenRate, givenRate > 0 { frameRate = givenRate }
    if let multiplier = parameters["frameRateMultiplier"] {
      let parts = multiplier.split(separator: " ").compactMap { Double($0) }
      if parts.count == 2, parts[0] > 0, parts[1] > 0 { frameRate *= parts[0] / parts[1] }
    }
    if let sub = parameters["subFrameRate"].flatMap({ Double($0.trimmingXMLSpace) }), sub > 0 {
      subFrameRate = sub
    }
    if let ticks = parameters["tickRate"].flatMap({ Double($0.trimmingXMLSpace) }), ticks > 0 {
      tickRate = ticks
    } else if givenRate != nil {
      tickRate = frameRate * subFrameRate
    }
  }

  /// `text` in seconds; nil when it is not a time expression (or not finite, or negative).
  func seconds(_ text: String) -> Double? {
    let value = text.trimmingXMLSpace
    guard !value.isEmpty, value.utf8.count <= 64 else { return nil }
    let result = value.contains(":") ? clock(value) : offset(value)
    guard let result, result.isFinite, result >= 0 else { return nil }
    return result
  }

  private func clock(_ value: String) -> Double? {
    let parts = value.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3 || parts.count == 4,
      let hours = Self.digits(parts[0]), let minutes = Self.digits(parts[1]), minutes < 60
    else { return nil }
    var total = Double(hours) * 3600 + Double(minutes) * 60
    if parts.count == 3 {
      guard let seconds = Self.decimal(parts[2]), seconds < 61 else { return nil }
      return total + seconds
    }
    guard let seconds = Self.digits(parts[2]), seconds < 61 else { return nil }
    total += Double(seconds)
    let frameParts = parts[3].split(separator: ".", omittingEmptySubsequences: false)
    guard frameParts.count <= 2, let frames = Self.digits(frameParts[0]) else { return nil }
    total += Double(frames) / frameRate
    if frameParts.count == 2 {
      guard let sub = Self.digits(frameParts[1]) else { return nil }
      total += Double(sub) / (frameRate * subFrameRate)
    }
    return total
  }

  private func offset(_ value: String) -> Double? {
    let metrics: [(String, Double)] = [
      ("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1), ("f", 1 / frameRate), ("t", 1 / tickRate),
    ]
    for (metric, scale) in metrics where value.hasSuffix(metric) {
      guard let count = Self.decimal(value.dropLast(metric.count)) else { return nil }
      return count * scale
    }
    return nil
  }

  /// Decimal digits only.
  private static func digits(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      return nil
    }
    return Int(text)
  }

  /// Digits with an optional fraction (`12`, `12.5`).
  private static func decimal(_ text: Substring) -> Double? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, digits(parts[0]) != nil,
      parts.count == 1 || parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) && !parts[1].isEmpty
    else { return nil }
    return Double(text)
  }
}
