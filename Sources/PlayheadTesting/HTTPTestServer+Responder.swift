import Foundation

extension HTTPTestServer {
  /// A dynamic answer for one request: what a responder (`setResponder(for:_:)`) returns.
  ///
  /// `Content-Length` and `Connection` are always the server's; a `Content-Type` in
  /// `headers` replaces the default `application/octet-stream`.
  public struct Response: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields to send, besides `Content-Length` and `Connection`.
    public var headers: [String: String]
    /// The body (sent for every method but HEAD).
    public var body: Data

    /// Creates an answer; by default an empty 200.
    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
      self.status = status
      self.headers = headers
      self.body = body
    }
  }

  /// Makes the answer to one request for a path (a licence server, an API), on the
  /// connection's thread.
  public typealias Responder = @Sendable (LoggedRequest) -> Response

  /// The most request-body bytes the server reads; a request that announces more is
  /// logged without its body and answered 413, and the connection closes.
  public static let maxRequestBodyBytes = 16 << 20

  /// The head's lines for `response`: the status line, the responder's fields (a
  /// `Content-Type` of its own replaces the default), the length and `connection`.
  static func headLines(for response: Response, connection: String) -> [String] {
    var lines = ["HTTP/1.1 \(response.status) \(reason(response.status))"]
    lines.append("Content-Length: \(response.body.count)")
    let reserved: Set<String> = ["content-length", "connection"]
    let fields = response.headers.filter { !reserved.contains($0.key.lowercased()) }
    if !fields.keys.contains(where: { $0.lowercased() == "content-type" }) {
      lines.append("Content-Type: application/octet-stream")
    }
    for name in fields.keys.sorted() {
      lines.append("\(name): \(fields[name] ?? "")")
    }
    lines.append("Connection: \(connection)")
    return lines
  }
}
