import Foundation

/// `--playlist FILE`, `--auto-advance` and `--auto-play`: `play` plays an SDK playlist.
struct PlaylistOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = ["--playlist", "--auto-advance", "--auto-play"]

  /// `--playlist FILE`.
  var path: String?
  /// `--auto-advance`: move to the next video when one ends.
  var autoAdvance = false
  /// `--auto-play`: play each new session as it arrives.
  var autoPlay = false

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    switch name {
    case "--playlist":
      path = try cursor.value(for: name, inline: inline, ArgumentValue.path)
    default:
      try cursor.noValue(for: name, inline: inline)
      if name == "--auto-advance" { autoAdvance = true } else { autoPlay = true }
    }
  }
}
