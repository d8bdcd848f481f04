import Foundation
import PlayheadCore

/// A log handler that keeps every entry in memory, for tests: read them with `entries`,
/// wait for one with `waitForEntry(timeoutMs:_:)`.
///
/// Copies share one record: give a component `handler.logger(label:)` (or a
/// `Logger(label:factory:)` that returns a copy) and read the entries from the handler kept
/// by the test. Level and metadata are per copy, as for any handler. Entries from any
/// thread are recorded in the order they were logged. `LoggingSystem.bootstrap(_:)` is not
/// needed (and can run only once per process): pass the logger to what is tested, such as
/// `PlayerConfiguration.logger`.
///
/// ```swift
/// let log = InMemoryLogHandler()
/// var configuration = PlayerConfiguration.fast()
/// configuration.logger = log.logger(label: "playhead.player", level: .debug)
/// // … play …
/// XCTAssertTrue(log.entries.contains { $0.message == "item ready" })
/// ```
public struct InMemoryLogHandler: LogHandler {
  /// One logged entry.
  public struct Entry: Sendable, Equatable, CustomStringConvertible {
    /// The level it was logged at.
    public var level: Logger.Level
    /// The label of the logger that logged it.
    public var label: String
    /// The message text.
    public var message: String
    /// The handler's metadata merged with the entry's own (the entry's win).
    public var metadata: Logger.Metadata
    /// The module it was logged from.
    public var source: String

    /// Creates an entry.
    public init(
      level: Logger.Level, label: String, message: String, metadata: Logger.Metadata = [:],
      source: String = ""
    ) {
      self.level = level
      self.label = label
      self.message = message
      self.metadata = metadata
      self.source = source
    }

    /// The metadata value at `key` as text; nil when the entry has none.
    public subscript(key: String) -> String? {
      metadata[key]?.description
    }

    /// The entry as `TextLogHandler` writes it, without the time.
    public var description: String {
      let line = LogLine.format(
        time: Date(timeIntervalSince1970: 0), level: level, label: label, message: message,
        metadata: metadata)
      // Drop the timestamp and its space.
      return String(line.drop { $0 != " " }.dropFirst())
    }
  }

  /// The label this copy records its entries under.
  public var label: String
  /// The least severe level recorded (its logger checks it).
  public var logLevel: Logger.Level
  /// Recorded with every entry, under the entry's own.
  public var metadata: Logger.Metadata = [:]
  private let record: Record

  /// A handler with an empty record, recording entries at `logLevel` and above (every
  /// entry by default) under `label`.
  public init(label: String = "test", logLevel: Logger.Level = .trace) {
    self.label = label
    self.logLevel = logLevel
    self.record = Record()
  }

  /// A logger labelled `label` at `level` whose entries go to this handler's record.
  public func logger(label: String, level: Logger.Level = .trace) -> Logger {
    Logger(label: label) { label in
      var copy = self
      copy.label = label
      copy.logLevel = level
      return copy
    }
  }

  /// Every entry recorded so far, oldest first.
  public var entries: [Entry] {
    record.entries
  }

  /// Forgets the entries recorded so far.
  public func clear() {
    record.clear()
  }

  /// Waits until an entry satisfying `predicate` is recorded (or already was) and returns
  /// the first such entry; nil when `timeoutMs` of real time pass first.
  ///
  /// The limit only ends a hang: the wait returns as soon as the entry is logged, woken by
  /// the log call itself, never by polling.
  public func waitForEntry(
    timeoutMs: Int = 60_000, _ predicate: (Entry) -> Bool
  ) -> Entry? {
    record.wait(timeoutMs: timeoutMs, predicate)
  }

  /// Records the entry.
  public func log(
    level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
    file _: String, function _: String, line _: UInt
  ) {
    record.append(
      Entry(
        level: level, label: label, message: message.description,
        metadata: self.metadata(mergedWith: metadata), source: source))
  }

  /// The entries every copy of one handler shares, and the condition their waits use.
  private final class Record: @unchecked Sendable {
    // Unchecked Sendable: `stored` is only reached inside `condition.withLock`.
    private let condition = NSCondition()
    private var stored: [Entry] = []

    var entries: [Entry] { condition.withLock { stored } }

    func append(_ entry: Entry) {
      condition.withLock {
        stored.append(entry)
        condition.broadcast()
      }
    }

    func clear() {
      condition.withLock { stored.removeAll() }
    }

    /// The first entry satisfying `predicate`, waiting for it until `timeoutMs` of
    /// real time have passed.
    func wait(timeoutMs: Int, _ predicate: (Entry) -> Bool) -> Entry? {
      let limit = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
      return condition.withLock {
        var found = stored.first(where: predicate)
        while found == nil, condition.wait(until: limit) {
          found = stored.first(where: predicate)
        }
        return found ?? stored.first(where: predicate)
      }
    }
  }
}
