import Foundation
import PlayheadCore

/// A session recording read back: the transfers a session made (each request, its answer,
/// its bytes and when they came), its events and its commands, as `SessionRecorder` wrote
/// them (docs/recording.md).
///
/// Reading checks the whole file: a line that is not JSON, a line of an unknown type, bytes
/// that are not base64, a reference to a transfer never opened, times that go backwards, a
/// missing or wrong closing line (a recording cut short, or with lines taken out) each throw
/// `.invalidRecording` naming the line and what is wrong.
///
/// ```swift
/// let recording = try SessionRecording(contentsOf: fileURL)
/// var configuration = PlayerConfiguration.fast()
/// configuration.network = ReplayingNetwork(recording: recording, clock: configuration.clock)
/// ```
public struct SessionRecording: Sendable {
  /// One transfer as it was recorded.
  public struct Exchange: Sendable {
    /// The transfer's number in the recording.
    public var id: Int
    /// The URL as recorded (secrets redacted unless the recording keeps them).
    public var url: String
    /// The byte range asked for (`ByteRange.description`), nil for the whole resource.
    public var range: String?
    public var purpose: String
    /// The body a POST sent; nil for a GET.
    public var body: Data? = nil
    /// When the request was sent, in nanoseconds of the session's clock.
    public var openAt: Int64
    /// The answer: its head, or the error the open failed with, and when.
    public var answer: Answer
    /// The bytes each read returned, and when.
    public var chunks: [Chunk]
    /// How the transfer ended; nil when the recording stops first.
    public var ending: Ending?
    /// The line of its `open`.
    public var line: Int

    /// The key a replay looks it up by.
    var key: String { SessionRecording.key(url: url, range: range, body: body) }
  }

  /// What an open got.
  public enum Answer: Sendable {
    case head(at: Int64, DataResponseHead)
    case failure(at: Int64, PlayheadError)
  }

  /// Bytes one read returned.
  public struct Chunk: Sendable {
    public var at: Int64
    public var bytes: Data
  }

  /// How a transfer ended.
  public enum Ending: Sendable {
    /// Read to its end.
    case end(at: Int64)
    /// A read failed.
    case failure(at: Int64, PlayheadError)
    /// The session closed it before its end.
    case closed(at: Int64)
  }

  /// An event or a command of the session, with its time.
  public struct Entry: Sendable {
    public var at: Int64
    public var value: JSONValue
  }

  /// The format version of the file.
  public var version: Int
  /// Whether credentials and signatures were recorded as they were.
  public var recordsSecrets: Bool
  /// What the recorder was told to keep (what was played, and how).
  public var metadata: [String: JSONValue]
  /// Every transfer, in the order they were opened.
  public var exchanges: [Exchange]
  /// The session's events (their JSON objects), in order.
  public var events: [Entry]
  /// The commands given to the session, in order.
  public var commands: [Entry]
  /// When the recording was closed, in nanoseconds of the session's clock.
  public var finishAt: Int64

  init(
    version: Int, recordsSecrets: Bool, metadata: [String: JSONValue], exchanges: [Exchange],
    events: [Entry], commands: [Entry], finishAt: Int64
  ) {
    self.version = version
    self.recordsSecrets = recordsSecrets
    self.metadata = metadata
    self.exchanges = exchanges
    self.events = events
    self.commands = commands
    self.finishAt = finishAt
  }

  /// Reads and checks the recording in `fileURL`.
  public init(contentsOf fileURL: URL) throws(PlayheadError) {
    guard let data = FileManager.default.contents(atPath: fileURL.path) else {
      throw PlayheadError(
        .fileNotFound, "no session recording at \(fileURL.path)", url: fileURL)
    }
    try self.init(data: data, name: fileURL.path)
  }

  /// Reads and checks a recording's bytes; `name` says which file in errors.
  public init(data: Data, name: String = "the recording") throws(PlayheadError) {
    var reader = RecordingReader(name: name)
    self = try reader.read(data)
  }

  /// The URL key a replay looks `request` up by (redacted as the recording is).
  func key(for request: DataRequest) -> String {
    let url = recordsSecrets ? request.url : RecordingRedaction.url(request.url)
    return Self.key(url: url.absoluteString, range: request.range?.description, body: request.body)
  }

  /// A transfer's key: its URL and range, and for a POST its body, so that two licence
  /// requests to one URL for different keys get their own answers.
  static func key(url: String, range: String?, body: Data?) -> String {
    url + " " + (range ?? "-") + (body.map { " POST " + $0.base64EncodedString() } ?? "")
  }
}
