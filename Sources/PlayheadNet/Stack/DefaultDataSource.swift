import Foundation
import PlayheadCore

/// Opens each request with the source its URL's scheme calls for: `file:` with a
/// `FileDataSource`, `http:` and `https:` with an `HTTPDataSource` (Media3's
/// `DefaultDataSource`).
///
/// Any other scheme throws `.unsupportedScheme` ("unsupported URL scheme 'ftp' in
/// ftp://host/a"), a URL without one "URL has no scheme: …".
public final class DefaultDataSource: DataSource, Sendable {
  private let http: HTTPDataSourceFactory
  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var inner: (any DataSource)?
    var innerIsHTTP = false
    var bufferChangeHandler: (@Sendable () -> Void)?
  }

  /// A source whose HTTP requests go through `http`'s shared session.
  public init(http: HTTPDataSourceFactory) {
    self.http = http
  }

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    let url = request.url
    let isHTTP: Bool
    switch url.scheme?.lowercased() {
    case "file": isHTTP = false
    case "http", "https": isHTTP = true
    case let scheme?:
      throw PlayheadError(
        .unsupportedScheme, "unsupported URL scheme '\(scheme)' in \(url.absoluteString)",
        url: url)
    case nil:
      throw PlayheadError(.unsupportedScheme, "URL has no scheme: \(url.absoluteString)", url: url)
    }
    let inner = try state.withLock { (state) throws(PlayheadError) -> any DataSource in
      if state.cancelled { throw PlayheadError.sourceCancelled(url) }
      if let inner = state.inner, state.innerIsHTTP == isHTTP { return inner }
      state.inner?.close()
      let made: any DataSource = isHTTP ? http.makeDataSource() : FileDataSource()
      made.setBufferChangeHandler(state.bufferChangeHandler)
      state.inner = made
      state.innerIsHTTP = isHTTP
      return made
    }
    return try inner.open(request)
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    guard let inner = state.withLock({ $0.inner }) else {
      if state.withLock({ $0.cancelled }) { throw PlayheadError.sourceCancelled(nil) }
      throw PlayheadError.notOpen(nil)
    }
    return try inner.read(into: buffer)
  }

  public func close() {
    state.withLock { $0.inner }?.close()
  }

  public func cancel() {
    let inner = state.withLock { state in
      state.cancelled = true
      return state.inner
    }
    inner?.cancel()
  }

  public var bufferState: DataBufferState? { state.withLock { $0.inner }?.bufferState }

  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    let inner = state.withLock { state in
      state.bufferChangeHandler = handler
      return state.inner
    }
    inner?.setBufferChangeHandler(handler)
  }
}

/// Makes `DefaultDataSource`s: local files, and HTTP(S) through one shared session with
/// `configuration`.
public struct DefaultDataSourceFactory: DataSourceFactory {
  public let http: HTTPDataSourceFactory

  public init(configuration: RequestConfiguration = .init()) {
    http = HTTPDataSourceFactory(configuration: configuration)
  }

  public func makeDataSource() -> any DataSource { DefaultDataSource(http: http) }
}
