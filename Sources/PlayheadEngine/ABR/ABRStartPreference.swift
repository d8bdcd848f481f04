/// How the first level of an item is chosen when nothing better is known.
///
/// Only one preference applies (the seed's `setDefaultBandWidth`, `setDefaultResolution`
/// and `setDefaultQuality` are exclusive). Whatever the preference picks is then limited by
/// the caps, and a manual selection wins over it.
public enum ABRStartPreference: Sendable, Equatable {
  /// The engine's bandwidth estimate when it has one, otherwise the controller's default
  /// bandwidth estimate; either is discounted by the safety factor.
  case automatic
  /// The highest level whose bitrate is at most this many bits per second (the lowest
  /// level when none is).
  case bandwidth(Int)
  /// The highest-bitrate level with at most this many pixels (the smallest picture when
  /// none fits). Levels of unknown size are skipped; when no level has a size, falls back
  /// to `.automatic`.
  case resolution(pixelCount: Int)
  /// A quality label: first a level whose own label matches (ignoring case), then the
  /// standard labels (see `ABRQualityLabel`). An unknown label, `"AUTO"` or the empty
  /// string falls back to `.automatic`.
  case quality(String)
}

/// The standard quality labels a start preference understands.
///
/// `FD` (fluent) is 360 lines, `LD` (low definition) 480, `SD` (standard/high definition)
/// 720, `HD` 1080, `2K` 1440 and `4K` 2160 (the seed's VOD definitions); `"<N>p"` means N
/// lines; `OD` (original) means the highest level. Matching ignores case and surrounding
/// spaces.
public enum ABRQualityLabel {
  /// What a label asks for.
  public enum Target: Sendable, Equatable {
    /// Adaptive selection.
    case automatic
    /// The highest level at most this many lines tall.
    case height(Int)
    /// The highest level.
    case highest
  }

  /// The target a label names, or nil when the label is not a standard one.
  public static func target(for label: String) -> Target? {
    let key = label.trimmingSpaces().uppercased()
    switch key {
    case "", "AUTO": return .automatic
    case "FD": return .height(360)
    case "LD": return .height(480)
    case "SD": return .height(720)
    case "HD": return .height(1080)
    case "2K": return .height(1440)
    case "4K": return .height(2160)
    case "OD": return .highest
    default:
      guard key.hasSuffix("P"), key.count > 1, key.count <= 6,
        let lines = Int(key.dropLast()), lines > 0
      else { return nil }
      return .height(lines)
    }
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  func trimmingSpaces() -> String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
    return String(slice)
  }
}
