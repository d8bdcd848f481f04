import Foundation
import PlayheadCore

/// Reads a session recording line by line, checking each one (see `SessionRecording`).
struct RecordingReader {
  let name: String
  private var exchanges: [SessionRecording.Exchange] = []
  private var indexByID: [Int: Int] = [:]
  private var events: [SessionRecording.Entry] = []
  private var commands: [SessionRecording.Entry] = []
  private var line = 0

  /// JSON limits for one line: a chunk of 64 KiB is about 88 KB of base64.
  private static let limits = JSONReader.Limits(maxDepth: 16, maxStringBytes: 64 << 20)

  init(name: String) {
    self.name = name
  }

  mutating func read(_ data: Data) throws(PlayheadError) -> SessionRecording {
    var header: [String: JSONValue]?
    var finish: [String: JSONValue]?
    var start = data.startIndex
    while start < data.endIndex {
      let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
      let text = data[start..<end]
      start = end < data.endIndex ? data.index(after: end) : end
      line += 1
      if text.isEmpty && start == data.endIndex { break }
      if finish != nil { throw failure("a line after the closing line") }
      let object = try parse(Data(text))
      let type = try string("type", in: object)
      if header == nil {
        guard type == "recording" else {
          throw failure("not a Playhead session recording (the first line's type is '\(type)')")
        }
        try checkHeader(object)
        header = object
        continue
      }
      switch type {
      case "open": try open(object)
      case "head": try head(object)
      case "data": try chunk(object)
      case "end", "close", "error": try ending(type, object)
      case "event":
        events.append(.init(at: try time(object), value: try value("event", in: object)))
      case "command": commands.append(.init(at: try time(object), value: .object(object)))
      case "finish": finish = object
      case "recording": throw failure("a second header line")
      default: throw failure("unknown line type '\(type)'")
      }
    }
    guard let header else { throw failure("the recording is empty", at: 0) }
    guard let finish else {
      throw failure(
        "the recording ends without its closing line (cut short?) after line \(line)", at: line)
    }
    try checkFinish(finish)
    return SessionRecording(
      version: Int(try number("version", in: header)),
      recordsSecrets: header["secrets"]?.boolValue ?? false,
      metadata: header["metadata"]?.objectValue ?? [:], exchanges: exchanges, events: events,
      commands: commands, finishAt: try time(finish))
  }

  // MARK: Lines

  private func checkHeader(_ object: [String: JSONValue]) throws(PlayheadError) {
    guard try string("format", in: object) == SessionRecorder.formatName else {
      throw failure("not a Playhead session recording (format '\(object["format"] ?? .null)')")
    }
    let version = try number("version", in: object)
    guard version >= 1, version <= Double(SessionRecorder.formatVersion) else {
      throw failure(
        "format version \(version) is not one this player reads (up to "
          + "\(SessionRecorder.formatVersion))")
    }
  }

  private func checkFinish(_ object: [String: JSONValue]) throws(PlayheadError) {
    let lines = Int(try number("lines", in: object))
    guard lines == line || (lines == line - 1) else {
      throw failure(
        "the closing line counts \(lines) lines, the file has \(line): lines were added or "
          + "taken out")
    }
    let count = Int(try number("exchanges", in: object))
    guard count == exchanges.count else {
      throw failure(
        "the closing line counts \(count) transfers, the file has \(exchanges.count)")
    }
  }

  private mutating func open(_ object: [String: JSONValue]) throws(PlayheadError) {
    let id = try identifier(object)
    guard indexByID[id] == nil else { throw failure("transfer \(id) is opened twice") }
    var body: Data?
    if let text = object["body"]?.stringValue {
      guard let decoded = Data(base64Encoded: text) else {
        throw failure("the request body of transfer \(id) is not base64")
      }
      body = decoded
    }
    indexByID[id] = exchanges.count
    exchanges.append(
      SessionRecording.Exchange(
        id: id, url: try string("url", in: object), range: object["range"]?.stringValue,
        purpose: object["purpose"]?.stringValue ?? "other", body: body, openAt: try time(object),
        answer: .failure(at: 0, PlayheadError(.invalidRecording, "no answer")), chunks: [],
        ending: nil, line: line))
    awaitingAnswer.insert(id)
  }

  /// The transfers whose answer (head or error) has not come yet.
  private var awaitingAnswer: Set<Int> = []

  private mutating func head(_ object: [String: JSONValue]) throws(PlayheadError) {
    let index = try exchange(object, needsAnswer: true)
    let at = try time(object, after: exchanges[index].openAt)
    var headers: [String: String] = [:]
    for (key, value) in object["headers"]?.objectValue ?? [:] {
      headers[key] = value.stringValue ?? ""
    }
    guard let url = URL(string: try string("url", in: object)) else {
      throw failure("the answer's URL does not parse")
    }
    let head = DataResponseHead(
      url: url, statusCode: object["status"]?.numberValue.map { Int($0) }, headers: headers,
      length: object["length"]?.numberValue.map { Int64($0) },
      totalLength: object["total"]?.numberValue.map { Int64($0) },
      isFromCache: object["cached"]?.boolValue ?? false)
    exchanges[index].answer = .head(at: at, head)
    awaitingAnswer.remove(exchanges[index].id)
  }

  private mutating func chunk(_ object: [String: JSONValue]) throws(PlayheadError) {
    let index = try exchange(object, needsAnswer: false)
    try requireHead(index)
    let at = try time(object, after: exchanges[index].chunks.last?.at ?? exchanges[index].openAt)
    guard let bytes = Data(base64Encoded: try string("bytes", in: object)) else {
      throw failure("the bytes of transfer \(exchanges[index].id) are not base64")
    }
    exchanges[index].chunks.append(.init(at: at, bytes: bytes))
  }

  private mutating func ending(_ type: String, _ object: [String: JSONValue])
    throws(PlayheadError)
  {
    let id = try identifier(object)
    guard let index = indexByID[id] else {
      throw failure("'\(type)' for transfer \(id), which was never opened")
    }
    guard exchanges[index].ending == nil else {
      throw failure("transfer \(id) ends twice")
    }
    let at = try time(object, after: exchanges[index].openAt)
    if type == "error" && awaitingAnswer.contains(id) {
      exchanges[index].answer = .failure(at: at, try recordedError(object))
      exchanges[index].ending = .failure(at: at, try recordedError(object))
      awaitingAnswer.remove(id)
      return
    }
    try requireHead(index)
    switch type {
    case "end": exchanges[index].ending = .end(at: at)
    case "close": exchanges[index].ending = .closed(at: at)
    default: exchanges[index].ending = .failure(at: at, try recordedError(object))
    }
  }

  // MARK: Fields

  private func exchange(_ object: [String: JSONValue], needsAnswer: Bool) throws(PlayheadError)
    -> Int
  {
    let id = try identifier(object)
    guard let index = indexByID[id] else {
      throw failure("a line for transfer \(id), which was never opened")
    }
    if exchanges[index].ending != nil { throw failure("a line for transfer \(id) after its end") }
    if needsAnswer && !awaitingAnswer.contains(id) {
      throw failure("a second answer for transfer \(id)")
    }
    return index
  }

  private func requireHead(_ index: Int) throws(PlayheadError) {
    if awaitingAnswer.contains(exchanges[index].id) {
      throw failure("bytes for transfer \(exchanges[index].id) before its answer")
    }
  }

  private func recordedError(_ object: [String: JSONValue]) throws(PlayheadError) -> PlayheadError {
    let codeText = try string("code", in: object)
    guard let code = PlayheadError.Code(rawValue: codeText) else {
      throw failure("unknown error code '\(codeText)'")
    }
    return PlayheadError(
      code, object["message"]?.stringValue ?? codeText,
      httpStatusCode: object["status"]?.numberValue.map { Int($0) })
  }

  private func identifier(_ object: [String: JSONValue]) throws(PlayheadError) -> Int {
    let value = try number("id", in: object)
    guard value >= 1, value == value.rounded(), value < 1e15 else {
      throw failure("transfer id \(value) is not a whole number from 1")
    }
    return Int(value)
  }

  private func time(_ object: [String: JSONValue], after earliest: Int64 = 0)
    throws(PlayheadError) -> Int64
  {
    let value = try number("at", in: object)
    guard value >= 0, value == value.rounded(), value < 9e18 else {
      throw failure("time \(value) is not whole nanoseconds from 0")
    }
    guard Int64(value) >= earliest else {
      throw failure("time \(Int64(value)) ns comes before an earlier line's \(earliest) ns")
    }
    return Int64(value)
  }

  private func number(_ key: String, in object: [String: JSONValue]) throws(PlayheadError)
    -> Double
  {
    guard let value = object[key]?.numberValue else { throw failure("no number '\(key)'") }
    return value
  }

  private func string(_ key: String, in object: [String: JSONValue]) throws(PlayheadError)
    -> String
  {
    guard let value = object[key]?.stringValue else { throw failure("no text '\(key)'") }
    return value
  }

  private func value(_ key: String, in object: [String: JSONValue]) throws(PlayheadError)
    -> JSONValue
  {
    guard let value = object[key] else { throw failure("no '\(key)'") }
    return value
  }

  private func parse(_ text: Data) throws(PlayheadError) -> [String: JSONValue] {
    let value: JSONValue
    do {
      value = try JSONReader.read(text, limits: Self.limits)
    } catch {
      throw failure("not JSON (\(error.message))")
    }
    guard let object = value.objectValue else { throw failure("not a JSON object") }
    return object
  }

  private func failure(_ what: String, at line: Int? = nil) -> PlayheadError {
    PlayheadError(.invalidRecording, "\(name) line \(line ?? self.line): \(what)")
  }
}
