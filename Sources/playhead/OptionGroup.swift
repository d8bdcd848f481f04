import Foundation

/// Options that go together (`RequestOptions`, `StreamOptions`, `TrackOptions`, …), with
/// one home for their parsing wherever a verb takes them.
protocol OptionGroup {
  /// The option names the group reads.
  static var names: Set<String> { get }
  /// Reads the option `name` (one of `names`), taking its value from `cursor` when it has
  /// one.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor) throws(UsageError)
}

/// One option group of a verb: the names it takes and the verb's property they fill.
struct OptionSlot<Verb> {
  /// The option names that go to this group.
  let names: Set<String>
  /// Reads one of `names` into the verb.
  let parse: (inout Verb, String, String?, inout ArgumentCursor) throws(UsageError) -> Void

  /// The group at `path`, taking `names` (all of the group's unless told).
  static func group<Group: OptionGroup>(
    _ path: WritableKeyPath<Verb, Group>, names: Set<String> = Group.names
  ) -> OptionSlot {
    OptionSlot(names: names) { verb, name, inline, cursor throws(UsageError) in
      try verb[keyPath: path].parse(name, inline: inline, cursor: &cursor)
    }
  }
}

extension ArgumentCursor {
  /// Reads all of a verb's arguments into `verb` and returns its one positional argument
  /// (nil when there is none).
  ///
  /// Each option goes to the first of `groups` that takes its name; an option none takes
  /// is an error (`unknown(_:)`), as is a second positional argument (`unexpected(_:)`).
  mutating func readInput<Verb>(
    into verb: inout Verb, groups: [OptionSlot<Verb>]
  ) throws(UsageError) -> String? {
    var input: String?
    while let token = next() {
      switch token {
      case .positional(let text):
        guard input == nil else { throw unexpected(text) }
        input = text
      case .option(let name, let inline):
        guard let group = groups.first(where: { $0.names.contains(name) }) else {
          throw unknown(name)
        }
        try group.parse(&verb, name, inline, &self)
      }
    }
    return input
  }

  /// The value of `option` (its inline `=value`, or else the next argument) read by
  /// `parse`, which names the option in its error.
  mutating func value<Value>(
    for option: String, inline: String?,
    _ parse: (String, String) throws(UsageError) -> Value
  ) throws(UsageError) -> Value {
    try parse(value(for: option, inline: inline), option)
  }
}
