/// The text as written of every value that variable substitution changed, by the value it
/// produced, so that the writer can write `{$name}` references again rather than their
/// results (see docs/hls-playlists.md, Writing).
///
/// Writing substituted text next to the definitions would not read back the same: a value
/// that substitution turned into `{$b}` (from `{$o}$b}` with `o="{"`) would be substituted a
/// second time. Written as it was, every such value reads back as the parser first read it.
///
/// It is bookkeeping about the source text, like warnings, so playlists compare equal
/// whatever it holds.
struct SubstitutionSources: Sendable, Equatable {
  /// Substituted value → the text it came from (the first one seen: any of them gives the
  /// value again under the same definitions).
  private(set) var rawByValue: [String: String] = [:]

  var isEmpty: Bool { rawByValue.isEmpty }

  /// Records that `raw` became `value`.
  mutating func record(value: String, raw: String) {
    guard value != raw, rawByValue[value] == nil else { return }
    rawByValue[value] = raw
  }

  /// The text to write for `value`: its source text when substitution produced it.
  func text(for value: String) -> String { rawByValue[value] ?? value }

  /// Always true: the table describes the source text, not the model.
  static func == (lhs: SubstitutionSources, rhs: SubstitutionSources) -> Bool { true }
}

extension SubstitutionSources {
  /// The table of the playlist being written, for the attribute writers.
  @TaskLocal static var writing = SubstitutionSources()
}
