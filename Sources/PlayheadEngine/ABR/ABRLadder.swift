import Foundation
import PlayheadCore

/// The eligible levels of one decision as plain numbers, ascending by planned bitrate.
///
/// Bitrates below 1 bit/s count as 1 so that ratios and logarithms stay finite.
struct ABRLadder {
  /// The levels, ascending.
  let levels: [BitrateLevel]
  /// Planned bitrates in bits per second, parallel to `levels`.
  let bitrates: [Double]
  /// `ln(bitrate / lowest bitrate)`, parallel to `levels`; the lowest is 0.
  let utilities: [Double]

  init(levels: [BitrateLevel]) {
    self.levels = levels
    self.bitrates = levels.map { Double(max(1, $0.plannedBitrate)) }
    let lowest = bitrates.first ?? 1
    self.utilities = bitrates.map { log($0 / lowest) }
  }

  var count: Int { levels.count }
  var top: Int { levels.count - 1 }

  /// The position of the level with `BitrateLevel.index == index`, if eligible.
  func position(ofIndex index: Int?) -> Int? {
    guard let index else { return nil }
    return levels.firstIndex { $0.index == index }
  }

  /// The position of the highest level whose bitrate is at most `bitrate` (0 when none).
  func position(atOrBelowBitrate bitrate: Double) -> Int {
    var chosen = 0
    for position in 1..<max(1, count) where bitrates[position] <= bitrate { chosen = position }
    return chosen
  }
}

extension MediaTime {
  /// Seconds as a finite, non-negative number: non-numeric and negative times give 0.
  var finiteSeconds: Double {
    let value = seconds
    return value.isFinite && value > 0 ? value : 0
  }
}
