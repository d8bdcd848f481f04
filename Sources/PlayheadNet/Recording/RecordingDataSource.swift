import Foundation
import PlayheadCore

/// Records what passes through another source into a `SessionRecorder`: each open (the
/// request), its answer or error, every chunk a read returns with the clock time it came,
/// the end, a failure, or an early close. It sits right above the network, so that a
/// replay feeds the same stack above it the same answers (decision 0047). A POST's body is
/// recorded as it is (base64), as response bodies are: a replay matches on it.
public final class RecordingDataSource: DataSource, Sendable {
  public let upstream: any DataSource
  public let recorder: SessionRecorder
  private let exchange = Locked<(id: Int, ended: Bool)?>(nil)

  public init(upstream: any DataSource, recorder: SessionRecorder) {
    self.upstream = upstream
    self.recorder = recorder
  }

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    closeExchange()
    let id = recorder.beginExchange()
    var fields: [OrderedJSON.Field] = [
      .init("type", .string("open")), .init("id", .integer(Int64(id))),
      .init("at", .integer(recorder.now)),
      .init("url", .string(recorder.recorded(request.url).absoluteString)),
      .init("range", request.range.map { .string($0.description) } ?? .null),
      .init("purpose", .string(request.purpose.rawValue)),
    ]
    if !request.headers.isEmpty {
      fields.append(.init("headers", Self.json(recorder.recorded(request.headers))))
    }
    if !request.flags.isEmpty {
      fields.append(.init("flags", .integer(Int64(request.flags.rawValue))))
    }
    if let body = request.body {
      fields.append(.init("body", .string(body.base64EncodedString())))
    }
    recorder.write(fields)
    let head: DataResponseHead
    do {
      head = try upstream.open(request)
    } catch {
      recorder.write(errorLine(error, id: id))
      throw error
    }
    recorder.write([
      .init("type", .string("head")), .init("id", .integer(Int64(id))),
      .init("at", .integer(recorder.now)),
      .init("url", .string(recorder.recorded(head.url).absoluteString)),
      .init("status", head.statusCode.map { .integer(Int64($0)) } ?? .null),
      .init("headers", Self.json(recorder.recorded(head.headers))),
      .init("length", head.length.map { .integer($0) } ?? .null),
      .init("total", head.totalLength.map { .integer($0) } ?? .null),
      .init("cached", .bool(head.isFromCache)),
    ])
    exchange.withLock { $0 = (id, false) }
    return head
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    let current = exchange.withLock { $0 }
    let count: Int
    do {
      count = try upstream.read(into: buffer)
    } catch {
      if let current, !current.ended, error.code != .cancelled {
        recorder.write(errorLine(error, id: current.id))
        exchange.withLock { $0?.ended = true }
      }
      throw error
    }
    guard let current, !current.ended, buffer.count > 0 else { return count }
    if count > 0 {
      let bytes = Data(bytes: buffer.baseAddress!, count: count)
      recorder.write([
        .init("type", .string("data")), .init("id", .integer(Int64(current.id))),
        .init("at", .integer(recorder.now)), .init("bytes", .string(bytes.base64EncodedString())),
      ])
    } else {
      recorder.write([
        .init("type", .string("end")), .init("id", .integer(Int64(current.id))),
        .init("at", .integer(recorder.now)),
      ])
      exchange.withLock { $0?.ended = true }
    }
    return count
  }

  public func close() {
    closeExchange()
    upstream.close()
  }

  public func cancel() { upstream.cancel() }

  public var bufferState: DataBufferState? { upstream.bufferState }

  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    upstream.setBufferChangeHandler(handler)
  }

  /// Records that an exchange not read to its end was closed.
  private func closeExchange() {
    let open = exchange.withLock { current in
      defer { current = nil }
      return current
    }
    guard let open, !open.ended else { return }
    recorder.write([
      .init("type", .string("close")), .init("id", .integer(Int64(open.id))),
      .init("at", .integer(recorder.now)),
    ])
  }

  /// The line for a failed open or read; the message names URLs as they are recorded.
  private func errorLine(_ error: PlayheadError, id: Int) -> [OrderedJSON.Field] {
    var message = error.message
    if let url = error.url {
      message = message.replacingOccurrences(
        of: url.absoluteString, with: recorder.recorded(url).absoluteString)
    }
    return [
      .init("type", .string("error")), .init("id", .integer(Int64(id))),
      .init("at", .integer(recorder.now)), .init("code", .string(error.code.rawValue)),
      .init("status", error.httpStatusCode.map { .integer(Int64($0)) } ?? .null),
      .init("message", .string(message)),
    ]
  }

  static func json(_ headers: [String: String]) -> OrderedJSON {
    .object(headers.keys.sorted().map { .init($0, .string(headers[$0] ?? "")) })
  }
}
