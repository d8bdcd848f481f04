import Foundation
import Playhead

/// A mistake on the command line, printed as one line; the tool exits with status 2.
struct UsageError: Error, Equatable, Sendable {
  /// The one-line reason, without the `playhead:` prefix.
  var message: String

  init(_ message: String) {
    self.message = message
  }
}

/// One verb's arguments, read left to right.
///
/// Options are `--name`, `--name value`, `--name=value` or a short `-x value`; a lone
/// `--` ends the options so that a path starting with `-` can follow. Anything else is a
/// positional argument.
struct ArgumentCursor {
  /// One piece of the command line.
  enum Token: Equatable {
    /// An option, with the value written after `=` when there was one.
    case option(String, inlineValue: String?)
    /// A positional argument.
    case positional(String)
  }

  /// The verb whose arguments these are, for messages.
  let verb: String
  private var tokens: ArraySlice<String>
  private var optionsEnded = false

  init(_ arguments: [String], verb: String) {
    self.verb = verb
    self.tokens = arguments[...]
  }

  /// Whether `arguments` ask for help (`-h` or `--help` before any `--`).
  static func wantsHelp(_ arguments: [String]) -> Bool {
    for argument in arguments {
      if argument == "--" { return false }
      if argument == "-h" || argument == "--help" { return true }
    }
    return false
  }

  /// The next token, or nil at the end.
  mutating func next() -> Token? {
    guard let text = tokens.popFirst() else { return nil }
    if optionsEnded || text == "-" || !text.hasPrefix("-") { return .positional(text) }
    if text == "--" {
      optionsEnded = true
      return next()
    }
    if text.hasPrefix("--"), let equals = text.firstIndex(of: "=") {
      let name = String(text[..<equals])
      let value = String(text[text.index(after: equals)...])
      return .option(name, inlineValue: value)
    }
    return .option(text, inlineValue: nil)
  }

  /// The value of `option`: its inline `=value`, or else the next argument.
  mutating func value(for option: String, inline: String?) throws(UsageError) -> String {
    if let inline { return inline }
    guard let value = tokens.popFirst() else {
      throw UsageError("option '\(option)' needs a value (see 'playhead \(verb) --help')")
    }
    return value
  }

  /// Checks that a flag that takes no value was not given one with `=`.
  func noValue(for option: String, inline: String?) throws(UsageError) {
    if inline != nil { throw UsageError("option '\(option)' takes no value") }
  }

  /// The error for an option the verb does not know.
  func unknown(_ option: String) -> UsageError {
    UsageError("unknown option '\(option)' for '\(verb)' (see 'playhead \(verb) --help')")
  }

  /// The error for a positional argument beyond the ones the verb takes.
  func unexpected(_ argument: String) -> UsageError {
    UsageError("unexpected argument '\(argument)' for '\(verb)' (see 'playhead \(verb) --help')")
  }

  /// The error for a missing input.
  func missingInput() -> UsageError {
    UsageError("'\(verb)' needs a file path or URL (see 'playhead \(verb) --help')")
  }
}

/// Parsers for option values; each names the option in its error.
enum ArgumentValue {
  /// A time in seconds: `12`, `2.5`, `1:30` or `1:02:03.5`; never negative.
  static func seconds(_ text: String, option: String) throws(UsageError) -> Double {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { throw badTime(text, option: option) }
    var total = 0.0
    for (index, part) in parts.enumerated() {
      let isLast = index == parts.count - 1
      guard !part.isEmpty,
        part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
        let value = Double(part), value.isFinite
      else { throw badTime(text, option: option) }
      if !isLast && index > 0 && value >= 60 { throw badTime(text, option: option) }
      if isLast && parts.count > 1 && value >= 60 { throw badTime(text, option: option) }
      total = total * 60 + value
    }
    return total
  }

  /// A finite number greater than zero.
  static func positiveNumber(_ text: String, option: String) throws(UsageError) -> Double {
    guard let value = Double(text), value.isFinite, value > 0 else {
      throw UsageError("option '\(option)' needs a number greater than 0, not '\(text)'")
    }
    return value
  }

  /// A whole number of at least 1 (and at most 100,000, a sane bound for sizes and steps).
  static func positiveInteger(_ text: String, option: String) throws(UsageError) -> Int {
    guard let value = Int(text), value >= 1, value <= 100_000 else {
      throw UsageError("option '\(option)' needs a whole number from 1 to 100000, not '\(text)'")
    }
    return value
  }

  /// `fit`, `fill` or `stretch`.
  static func gravity(_ text: String, option: String) throws(UsageError) -> VideoGravity {
    switch text.lowercased() {
    case "fit": return .fit
    case "fill": return .fill
    case "stretch": return .stretch
    default:
      throw UsageError("option '\(option)' needs fit, fill or stretch, not '\(text)'")
    }
  }

  /// A non-empty file or directory path.
  static func path(_ text: String, option: String) throws(UsageError) -> String {
    guard !text.isEmpty else { throw UsageError("option '\(option)' needs a non-empty path") }
    return text
  }

  private static func badTime(_ text: String, option: String) -> UsageError {
    UsageError(
      "option '\(option)' needs a time in seconds (12, 2.5, 1:30 or 1:02:03.5), not '\(text)'")
  }
}

extension MediaTime {
  /// `seconds` at microsecond precision, for times given on the command line.
  init(commandLineSeconds seconds: Double) {
    self.init(seconds: seconds, preferredTimescale: 1_000_000)
  }
}

/// Turns a path argument into a file URL relative to the current directory.
func fileURL(forPath path: String) -> URL {
  URL(fileURLWithPath: NSString(string: path).expandingTildeInPath).standardizedFileURL
}
