import Foundation
import PlayheadCore

/// Where the playback position comes from while an item plays (Media3's `MediaClock`).
///
/// The audio renderer is one when its sink is a device with a clock of its own
/// (`ClockedAudioSink`); when none leads, the playback loop moves the position with the
/// player's clock (host or manual) at the rate, from an anchor.
protocol MediaClock: AnyObject {
  /// The item time being heard now, or nil when this clock does not lead now (no audio
  /// written yet, or all of it played with nothing more to come).
  func playbackPosition() -> MediaTime?
}
