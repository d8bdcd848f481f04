// The logging API, in the shape of swift-log 1.5 (`import Logging`), which cannot be
// fetched here. Every declaration in this file has swift-log's name and signature, so that
// replacing the whole file by
//
//     @_exported import Logging
//
// (and adding the package) compiles the rest of Playhead unchanged (decision 0045). Keep it
// that way: handlers live in their own files, and the one Playhead-specific line here is the
// default factory (`TextLogHandler.standardError`; swift-log's own default writes to
// standard output). What swift-log has and this file leaves out: metadata providers,
// `MultiplexLogHandler`, `StreamLogHandler`, `SwiftLogNoOpLogHandler`, and the deprecated
// overloads.

import Foundation

/// Emits log messages at a level, with metadata, through a `LogHandler`.
///
/// A logger is a value: changing its `logLevel` or metadata changes this copy only. A
/// message below `logLevel` costs one comparison; its message and metadata closures are
/// not evaluated. Loggers are made with `Logger(label:)`, whose handler comes from the
/// factory `LoggingSystem.bootstrap(_:)` set at start-up (a stderr handler at `.warning`
/// before that), or with `Logger(label:factory:)` for a handler of one's own.
///
/// ```swift
/// let logger = Logger(label: "playhead.player")
/// logger.debug("ABR decision", metadata: ["level": "\(level)"])
/// ```
public struct Logger: Sendable {
  /// The backend that receives this logger's messages.
  @usableFromInline
  internal var _handler: any LogHandler

  /// The name of what made this logger, e.g. `playhead.player`.
  public let label: String

  internal init(label: String, _ handler: any LogHandler) {
    self.label = label
    self._handler = handler
  }

  /// The backend that receives this logger's messages; setting it replaces it for this
  /// copy only.
  @inlinable
  public var handler: any LogHandler {
    get { _handler }
    set { _handler = newValue }
  }

  /// Makes a logger whose handler comes from the factory given to
  /// `LoggingSystem.bootstrap(_:)` (a stderr handler at `.warning` when none was given).
  public init(label: String) {
    self.init(label: label, LoggingSystem.factory(label))
  }

  /// Makes a logger whose handler `factory` makes from the label, whatever the logging
  /// system's factory is.
  ///
  /// This is how a test gives a component a handler of its own (an in-memory one) while
  /// `LoggingSystem.bootstrap(_:)` can only be called once per process.
  public init(label: String, factory: (String) -> any LogHandler) {
    self.init(label: label, factory(label))
  }
}

extension Logger {
  /// Logs `message` at `level` when `level` is at least `logLevel`; otherwise does nothing
  /// and evaluates neither `message` nor `metadata`.
  ///
  /// `metadata` adds to the logger's own metadata for this entry (its keys win). `source`
  /// defaults to the module of `file` (`PlayheadEngine` for `#fileID`
  /// `PlayheadEngine/Player.swift`).
  @inlinable
  public func log(
    level: Logger.Level,
    _ message: @autoclosure () -> Logger.Message,
    metadata: @autoclosure () -> Logger.Metadata? = nil,
    source: @autoclosure () -> String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    if logLevel <= level {
      _handler.log(
        level: level, message: message(), metadata: metadata(),
        source: source() ?? Logger.currentModule(fileID: file), file: file,
        function: function, line: line)
    }
  }

  /// One metadata value of this logger; setting it changes this copy only.
  @inlinable
  public subscript(metadataKey metadataKey: String) -> Logger.Metadata.Value? {
    get { _handler[metadataKey: metadataKey] }
    set { _handler[metadataKey: metadataKey] = newValue }
  }

  /// The least severe level this logger emits; setting it changes this copy only.
  @inlinable
  public var logLevel: Logger.Level {
    get { _handler.logLevel }
    set { _handler.logLevel = newValue }
  }

  /// The module a `#fileID` (`Module/File.swift`) names; the whole text when it has no
  /// slash.
  @usableFromInline
  internal static func currentModule(fileID: String) -> String {
    guard let slash = fileID.firstIndex(of: "/") else { return fileID }
    return String(fileID[..<slash])
  }
}

extension Logger {
  /// Logs `message` at `.trace`: step-by-step detail, off unless asked for.
  @inlinable
  public func trace(
    _ message: @autoclosure () -> Logger.Message,
    metadata: @autoclosure () -> Logger.Metadata? = nil,
    source: @autoclosure () -> String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(
      level: .trace, message(), metadata: metadata(), source: source(), file: file,
      function: function, line: line)
  }

  /// Logs `message` at `.debug`: what a developer needs to follow a session.
  @inlinable
  public func debug(
    _ message: @autoclosure () -> Logger.Message,
    metadata: @autoclosure () -> Logger.Metadata? = nil,
    source: @autoclosure () -> String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(
      level: .debug, message(), metadata: metadata(), source: source(), file: file,
      function: function, line: line)
  }

  /// Logs `message` at `.info`: the milestones of a session.
  @inlinable
  public func info(
    _ message: @autoclosure () -> Logger.Message,
    metadata: @autoclosure () -> Logger.Metadata? = nil,
    source: @autoclosure () -> String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(
      level: .info, message(), metadata: metadata(), source: source(), file: file,
      function: function, line: line)
  }

  /// Logs `message` at `.notice`: a normal but significant condition.
  @inlinable
  public func notice(
    _ message: @autoclosure () -> Logger.Message,
    metadata: @autoclosure () -> Logger.Metadata? = nil,
    source: @autoclosure () -> String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(
      level: .notice, message(), metadata: metadata(), source: source(), file: file,
      function: function, line: line)
  }

  /// Logs `message` at `.warning`: something that may need attention.
  @inlinable
  public func warning(
    _ message: @autoclosure () -> Logger.Message,
    metadata: @autoclosure () -> Logger.Metadata? = nil,
    source: @autoclosure () -> String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(
      level: .warning, message(), metadata: metadata(), source: source(), file: file,
      function: function, line: line)
  }

  /// Logs `message` at `.error`: something failed.
  @inlinable
  public func error(
    _ message: @autoclosure () -> Logger.Message,
    metadata: @autoclosure () -> Logger.Metadata? = nil,
    source: @autoclosure () -> String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(
      level: .error, message(), metadata: metadata(), source: source(), file: file,
      function: function, line: line)
  }

  /// Logs `message` at `.critical`, which every logger emits.
  @inlinable
  public func critical(
    _ message: @autoclosure () -> Logger.Message,
    metadata: @autoclosure () -> Logger.Metadata? = nil,
    source: @autoclosure () -> String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(
      level: .critical, message(), metadata: metadata(), source: source(), file: file,
      function: function, line: line)
  }
}

extension Logger {
  /// How severe a message is, from `trace` (least) to `critical` (most).
  ///
  /// Levels compare by severity; they encode as their names (`"debug"`).
  public enum Level: String, Codable, CaseIterable, Sendable {
    /// Step-by-step detail.
    case trace
    /// What a developer needs to follow what happens.
    case debug
    /// Milestones.
    case info
    /// Normal but significant conditions.
    case notice
    /// Something that may need attention.
    case warning
    /// Something failed.
    case error
    /// Something failed so badly that the program may not go on.
    case critical

    /// The level's place in the order, from 0 for `trace`.
    @usableFromInline
    internal var naturalIntegralValue: Int {
      switch self {
      case .trace: return 0
      case .debug: return 1
      case .info: return 2
      case .notice: return 3
      case .warning: return 4
      case .error: return 5
      case .critical: return 6
      }
    }
  }
}

extension Logger.Level: Comparable {
  /// Whether `lhs` is less severe than `rhs`.
  @inlinable
  public static func < (lhs: Logger.Level, rhs: Logger.Level) -> Bool {
    lhs.naturalIntegralValue < rhs.naturalIntegralValue
  }
}

extension Logger {
  /// Structured data that goes with a message: names to values.
  public typealias Metadata = [String: MetadataValue]

  /// One metadata value: a string, a value described by its `description`, a dictionary
  /// or an array of values.
  ///
  /// String, interpolation, array and dictionary literals make values, so
  /// `["level": "\(level)", "rates": ["1", "2"]]` is metadata.
  public enum MetadataValue: Sendable {
    /// A string.
    case string(String)
    /// A value shown by its `description`, computed only when the entry is written.
    case stringConvertible(any CustomStringConvertible & Sendable)
    /// Nested metadata.
    case dictionary(Metadata)
    /// A list of values.
    case array([Metadata.Value])
  }

  /// A log message: text made from a string literal or interpolation.
  public struct Message: ExpressibleByStringLiteral, Equatable, CustomStringConvertible,
    ExpressibleByStringInterpolation, Sendable
  {
    /// A message is made from a `String` literal.
    public typealias StringLiteralType = String

    private var value: String

    /// The message `value`.
    public init(stringLiteral value: String) {
      self.value = value
    }

    /// The message text.
    public var description: String {
      value
    }
  }
}

extension Logger.MetadataValue: Equatable {
  /// Whether the two values are the same; `stringConvertible` values compare by their
  /// descriptions.
  public static func == (lhs: Logger.Metadata.Value, rhs: Logger.Metadata.Value) -> Bool {
    switch (lhs, rhs) {
    case (.string(let lhs), .string(let rhs)): return lhs == rhs
    case (.stringConvertible(let lhs), .stringConvertible(let rhs)):
      return lhs.description == rhs.description
    case (.array(let lhs), .array(let rhs)): return lhs == rhs
    case (.dictionary(let lhs), .dictionary(let rhs)): return lhs == rhs
    default: return false
    }
  }
}

extension Logger.MetadataValue: ExpressibleByStringLiteral {
  /// A value is made from a `String` literal.
  public typealias StringLiteralType = String

  /// A `.string` value.
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension Logger.MetadataValue: CustomStringConvertible {
  /// The value as text: a string as it is, a value's description, an array as
  /// `["a", "b"]`, a dictionary as `["k": "v"]`.
  public var description: String {
    switch self {
    case .string(let text): return text
    case .stringConvertible(let value): return value.description
    case .array(let list): return list.map(\.description).description
    case .dictionary(let dictionary): return dictionary.mapValues(\.description).description
    }
  }
}

extension Logger.MetadataValue: ExpressibleByStringInterpolation {}

extension Logger.MetadataValue: ExpressibleByDictionaryLiteral {
  /// Keys are strings.
  public typealias Key = String
  /// Values are metadata values.
  public typealias Value = Logger.Metadata.Value

  /// A `.dictionary` value (a later duplicate key wins).
  public init(dictionaryLiteral elements: (String, Logger.Metadata.Value)...) {
    self = .dictionary(.init(elements, uniquingKeysWith: { _, later in later }))
  }
}

extension Logger.MetadataValue: ExpressibleByArrayLiteral {
  /// Elements are metadata values.
  public typealias ArrayLiteralElement = Logger.Metadata.Value

  /// An `.array` value.
  public init(arrayLiteral elements: Logger.Metadata.Value...) {
    self = .array(elements)
  }
}

/// A logging backend: what a `Logger` hands its messages to.
///
/// A handler is a value: its `logLevel` and `metadata` belong to one `Logger` copy, and
/// setting them on one logger must not change another's (the entries it writes may go to
/// a shared place). `Logger` checks the level before it calls `log`, so a handler need
/// not. Handlers are called from any thread.
public protocol LogHandler: Sendable {
  /// Writes one entry. `metadata` is the entry's own (nil when it has none); the handler
  /// merges its `metadata` under it.
  func log(
    level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?,
    source: String, file: String, function: String, line: UInt)

  /// One value of the handler's metadata.
  subscript(metadataKey _: String) -> Logger.Metadata.Value? { get set }

  /// The metadata added to every entry.
  var metadata: Logger.Metadata { get set }

  /// The least severe level the handler's logger emits.
  var logLevel: Logger.Level { get set }
}

/// The process-wide choice of logging backend, made once at start-up.
///
/// Until `bootstrap(_:)` is called, `Logger(label:)` gets Playhead's stderr handler at
/// `.warning` (Playhead is quiet unless something may need attention). Loggers made before
/// the bootstrap keep the handler they were made with.
public enum LoggingSystem {
  private static let state = Locked<State>(
    State(factory: { label in TextLogHandler.standardError(label: label) }, initialized: false)
  )

  private struct State: Sendable {
    var factory: @Sendable (String) -> any LogHandler
    var initialized: Bool
  }

  /// Makes `factory` the maker of every later `Logger(label:)`'s handler.
  ///
  /// Call it once, at start-up, before loggers are made: a second call is a programmer
  /// error and traps, as in swift-log (a process has one logging backend; which of two
  /// would win depends on start-up order, so neither silently does).
  @preconcurrency
  public static func bootstrap(_ factory: @escaping @Sendable (String) -> any LogHandler) {
    let wasInitialized = state.withLock { state in
      let was = state.initialized
      if !was {
        state.factory = factory
        state.initialized = true
      }
      return was
    }
    precondition(!wasInitialized, "logging system can only be initialized once per process.")
  }

  /// Replaces the factory whether or not it was bootstrapped, for Playhead's own tests.
  internal static func bootstrapInternal(
    _ factory: @escaping @Sendable (String) -> any LogHandler
  ) {
    state.withLock { $0.factory = factory }
  }

  /// A handler for `label` from the current factory (called outside the lock).
  internal static func factory(_ label: String) -> any LogHandler {
    state.value.factory(label)
  }
}
