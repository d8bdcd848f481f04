import Foundation

/// `--events`, `--json` and `--quiet`: what `play` prints; `download` takes `--json` and
/// `--quiet`.
struct OutputOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = ["--events", "--json", "--quiet"]

  /// `--events`: one line per event.
  var events = false
  /// `--json`: JSON lines only.
  var json = false
  /// `--quiet`: errors (and `--events` lines) only.
  var quiet = false

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    try cursor.noValue(for: name, inline: inline)
    switch name {
    case "--events": events = true
    case "--json": json = true
    default: quiet = true
    }
  }
}
