import Foundation
import PlayheadCore

/// Writes a session recording: every transfer the player's sources make (request, answer,
/// bytes, and when each arrived on the player's clock), the session's events and the
/// commands given to it, as JSON lines (docs/recording.md).
///
/// Lines are written as they happen, so a recording cut short by a crash keeps everything
/// up to the cut (and a reader says where it breaks: the closing line is missing). Times
/// (`at`) are nanoseconds of the player's clock since the recorder was made. Secrets stay
/// out unless `recordsSecrets` is set (`RecordingRedaction`). Thread-safe. A write that
/// fails (a full disk) stops the recording; `finish()` throws that error, and transfers go
/// on unharmed.
///
/// ```swift
/// let recorder = try SessionRecorder(fileURL: url, clock: clock, metadata: ["media": .string(media)])
/// var configuration = PlayerConfiguration()
/// configuration.recorder = recorder
/// … play …
/// try recorder.finish()
/// ```
public final class SessionRecorder: @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `lock`; `clock` and `origin` are constant.
  /// The format's name, in the first line.
  public static let formatName = "playhead-session-recording"
  /// The format's version, in the first line.
  public static let formatVersion = 1

  /// The clock the times are read from.
  public let clock: any Clock
  /// The clock time that `at` counts from.
  public let origin: MediaTime
  /// Whether credentials and signatures are recorded as they are.
  public let recordsSecrets: Bool

  private let lock = NSLock()
  private var handle: FileHandle?
  private var failure: PlayheadError?
  private var nextExchange = 1
  private var lines = 0
  private var exchanges = 0
  private var events = 0
  private let path: String

  /// Creates (or truncates) the file at `fileURL` and writes the first line, with
  /// `metadata` (what to play again, and how).
  ///
  /// Throws `.ioError` when the file cannot be created.
  public init(
    fileURL: URL, clock: any Clock, recordsSecrets: Bool = false,
    metadata: [OrderedJSON.Field] = []
  ) throws(PlayheadError) {
    self.clock = clock
    origin = clock.now
    self.recordsSecrets = recordsSecrets
    path = fileURL.path
    guard FileManager.default.createFile(atPath: fileURL.path, contents: nil),
      let handle = FileHandle(forWritingAtPath: fileURL.path)
    else {
      throw PlayheadError(
        .ioError, "cannot create the recording \(fileURL.path)", url: fileURL)
    }
    self.handle = handle
    write([
      .init("type", .string("recording")),
      .init("format", .string(Self.formatName)),
      .init("version", .integer(Int64(Self.formatVersion))),
      .init("secrets", .bool(recordsSecrets)),
      .init("metadata", .object(metadata)),
    ])
    if let failure { throw failure }
  }

  /// Nanoseconds of the clock since the recorder was made.
  public var now: Int64 { (clock.now - origin).nanoseconds ?? 0 }

  /// Records one of the session's events (its JSON object, as telemetry writes it); the
  /// URLs in its strings are redacted unless `recordsSecrets`.
  public func recordEvent(_ event: OrderedJSON) {
    lock.lock()
    events += 1
    lock.unlock()
    let kept = recordsSecrets ? event : RecordingRedaction.json(event)
    write([.init("type", .string("event")), .init("at", .integer(now)), .init("event", kept)])
  }

  /// Records a command given to the session (a seek, a pause), for a replay to give again
  /// at the same time.
  public func recordCommand(_ name: String, _ fields: [OrderedJSON.Field] = []) {
    write(
      [
        .init("type", .string("command")), .init("at", .integer(now)),
        .init("command", .string(name)),
      ]
        + fields)
  }

  /// Writes the closing line and closes the file; throws the first write error, if any.
  /// Later calls do nothing.
  public func finish() throws(PlayheadError) {
    lock.lock()
    let summary: [OrderedJSON.Field] = [
      .init("type", .string("finish")), .init("at", .integer(now)),
      .init("exchanges", .integer(Int64(exchanges))), .init("events", .integer(Int64(events))),
      .init("lines", .integer(Int64(lines + 1))),
    ]
    lock.unlock()
    write(summary)
    lock.lock()
    let handle = self.handle
    self.handle = nil
    let failure = self.failure
    lock.unlock()
    try? handle?.close()
    if let failure { throw failure }
  }

  // MARK: For `RecordingDataSource`

  /// A new exchange's number.
  func beginExchange() -> Int {
    lock.lock()
    defer { lock.unlock() }
    exchanges += 1
    defer { nextExchange += 1 }
    return nextExchange
  }

  /// The URL as it is recorded.
  func recorded(_ url: URL) -> URL { recordsSecrets ? url : RecordingRedaction.url(url) }

  /// The header fields as they are recorded.
  func recorded(_ headers: [String: String]) -> [String: String] {
    recordsSecrets ? headers : RecordingRedaction.headers(headers)
  }

  /// Writes one line: `fields` as a JSON object.
  func write(_ fields: [OrderedJSON.Field]) {
    let line = OrderedJSON.object(fields).encoded + "\n"
    lock.lock()
    defer { lock.unlock() }
    guard let handle, failure == nil else { return }
    do {
      try handle.write(contentsOf: Data(line.utf8))
      lines += 1
    } catch {
      failure = PlayheadError(
        .ioError, "writing the recording \(path) failed (is the disk full?); it stops there")
    }
  }
}
