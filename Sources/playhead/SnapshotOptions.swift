import Foundation
import Playhead

/// A frame written as a PNG file: `play --snapshot FILE --at T [--burn-subtitles]`, and
/// the `snapshot` verb's `--at T -o FILE [--width W --height H] [--gravity G]`.
struct SnapshotOptions: OptionGroup, Equatable, Sendable {
  /// The names `play` takes.
  static let playNames: Set<String> = ["--snapshot", "--at", "--burn-subtitles"]
  /// The names the `snapshot` verb takes.
  static let verbNames: Set<String> = [
    "--at", "-o", "--output", "--width", "--height", "--gravity",
  ]
  static let names = playNames.union(verbNames)

  /// `--at T`, in seconds.
  var atSeconds: Double?
  /// `--snapshot FILE` or `-o FILE`: the PNG file.
  var path: String?
  /// `--width W`.
  var width: Int?
  /// `--height H`.
  var height: Int?
  /// `--gravity G`: how the frame fits the size.
  var gravity = VideoGravity.fit
  /// `--burn-subtitles`: the subtitle cues at T drawn on the frame.
  var burnsSubtitles = false

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    switch name {
    case "--burn-subtitles":
      try cursor.noValue(for: name, inline: inline)
      burnsSubtitles = true
    case "--at":
      atSeconds = try cursor.value(for: name, inline: inline, ArgumentValue.seconds)
    case "--gravity":
      gravity = try cursor.value(for: name, inline: inline, ArgumentValue.gravity)
    case "--width", "--height":
      let size = try cursor.value(for: name, inline: inline, ArgumentValue.positiveInteger)
      if name == "--width" { width = size } else { height = size }
    default:
      path = try cursor.value(for: name, inline: inline, ArgumentValue.path)
    }
  }

  /// `play`'s snapshot: the file and time, nil without `--snapshot`; one without the
  /// other is an error.
  func playSnapshot() throws(UsageError) -> (path: String, atSeconds: Double)? {
    switch (path, atSeconds) {
    case (let path?, let at?): return (path, at)
    case (nil, nil): return nil
    case (_?, nil): throw UsageError("option '--snapshot' needs '--at T'")
    case (nil, _?): throw UsageError("option '--at' goes with '--snapshot FILE'")
    }
  }

  /// The output size of the `snapshot` verb; nil keeps the frame's. `--width` and
  /// `--height` go together.
  func size() throws(UsageError) -> (width: Int, height: Int)? {
    switch (width, height) {
    case (let width?, let height?): return (width, height)
    case (nil, nil): return nil
    default: throw UsageError("options '--width' and '--height' go together")
    }
  }
}
