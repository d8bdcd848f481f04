import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The URLSession that the HTTP sources of one stack share: one connection pool, one
/// delegate queue, the stack's request configuration.
///
/// Sources hold the client; the session goes (its tasks finished) when the last source and
/// the factory have let it go.
final class HTTPClient: Sendable {
  let configuration: RequestConfiguration
  let session: URLSession
  let delegate: HTTPClientDelegate
  /// URLSession on Linux truncates its timeout to whole seconds (0.5 would mean "now"),
  /// so its own timer is set later than the sources' and only backs them up.
  let sessionTimeoutSeconds: Double

  init(configuration: RequestConfiguration) {
    self.configuration = configuration
    sessionTimeoutSeconds = (Double(configuration.effectiveTimeoutMs) / 1000).rounded(.up) + 1
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.timeoutIntervalForRequest = sessionTimeoutSeconds
    sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
    sessionConfiguration.urlCache = nil
    let delegateQueue = OperationQueue()
    delegateQueue.maxConcurrentOperationCount = 1
    delegateQueue.name = "playhead.http"
    delegate = HTTPClientDelegate()
    session = URLSession(
      configuration: sessionConfiguration, delegate: delegate, delegateQueue: delegateQueue)
  }

  deinit {
    // No task is cancelled here: every source has cancelled or finished its own.
    session.finishTasksAndInvalidate()
  }

  /// The request for `request`'s bytes from `offset` (to the range's end), with the
  /// configuration's headers and the request's own, which win.
  ///
  /// A request with a body is a POST of that body without `Range` (typed
  /// `application/octet-stream` unless a header says otherwise): the whole answer comes
  /// with 200, and the transfer skips the bytes before `offset` as for a server that
  /// ignores `Range`.
  func urlRequest(for request: DataRequest, from offset: Int64, to end: Int64?) -> URLRequest {
    var urlRequest = URLRequest(
      url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: sessionTimeoutSeconds)
    for (name, value) in configuration.headerFields {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    if let body = request.body {
      urlRequest.httpMethod = "POST"
      urlRequest.httpBody = body
      // Without a type of its own, a body is not a form (what libcurl would say).
      if urlRequest.value(forHTTPHeaderField: "Content-Type") == nil {
        urlRequest.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
      }
      return urlRequest
    }
    if offset > 0 || end != nil {
      let range = ByteRange(offset: offset, length: end.map { $0 - offset })
      urlRequest.setValue(range.httpHeaderValue, forHTTPHeaderField: "Range")
    }
    return urlRequest
  }
}

/// Makes `HTTPDataSource`s that share one URLSession (one connection pool) and one
/// request configuration.
///
/// The session is made with the first source: a stack that only ever reads local files
/// never starts FoundationNetworking (libcurl, TLS).
public struct HTTPDataSourceFactory: DataSourceFactory {
  /// The settings every request uses.
  public let configuration: RequestConfiguration
  private let client: LazyHTTPClient

  public init(configuration: RequestConfiguration = .init()) {
    self.configuration = configuration
    client = LazyHTTPClient(configuration: configuration)
  }

  public func makeDataSource() -> any DataSource { HTTPDataSource(client: client.value) }

  /// A concrete source (for callers that use its speed or buffer directly).
  public func makeHTTPDataSource() -> HTTPDataSource { HTTPDataSource(client: client.value) }
}

/// The client of a factory, made on first use and then shared by its copies.
final class LazyHTTPClient: Sendable {
  private let configuration: RequestConfiguration
  private let made = Locked<HTTPClient?>(nil)

  init(configuration: RequestConfiguration) {
    self.configuration = configuration
  }

  var value: HTTPClient {
    let configuration = configuration
    return made.withLock { made in
      if let made { return made }
      let client = HTTPClient(configuration: configuration)
      made = client
      return client
    }
  }
}
