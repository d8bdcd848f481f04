import Foundation
import PlayheadCore

/// What a load is for; policies and logs treat playlists, segments and keys differently.
public enum DataPurpose: String, Sendable, Hashable, Codable {
  case playlist, segment, initializationSection, key, media, text, thumbnail, api, other
}

/// One request for a resource, or a byte range of it: what a `DataSource` opens.
///
/// `headers` are for this request only; they replace configuration headers of the same
/// name. Sources that do not speak HTTP ignore `headers` and the HTTP-only flags.
///
/// A request with a `body` is an HTTP POST (a licence request, an API call): caches pass it
/// to their upstream and keep nothing, a session recording keeps the body and a replay
/// matches on it, and a `file:` source refuses it (see `body`).
public struct DataRequest: Sendable, Hashable {
  /// How a request is to be served.
  public struct Flags: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// An HTTP source answers a non-2xx status with the response (its body and
    /// `statusCode`) instead of throwing `.httpStatus`, so that an API client can read an
    /// error body. The range is not applied to such a response.
    public static let deliversErrorResponses = Flags(rawValue: 1 << 0)
    /// A cache passes the request to its upstream and keeps nothing (API calls, live
    /// resources).
    public static let bypassesCache = Flags(rawValue: 1 << 1)
  }

  public var url: URL
  /// The bytes wanted; nil for the whole resource.
  public var range: ByteRange?
  public var purpose: DataPurpose
  /// Header fields for this request only; they replace configuration headers of the same
  /// name.
  public var headers: [String: String]
  public var flags: Flags
  /// The bytes to send: nil sends a GET, a value (even empty) a POST with this body.
  ///
  /// An HTTP source sends a POST without `Range`, and sends it again whole when it has to
  /// resume or continue the transfer (a retry after a broken read, a full read-ahead
  /// buffer), skipping the bytes already delivered: only idempotent POSTs (a licence
  /// request) belong here. The body's media type goes in `headers` (`Content-Type`). A
  /// cache never stores or serves a request with a body; `FileDataSource` refuses one with
  /// `.invalidArgument`; `MemoryDataSource` ignores it.
  public var body: Data?

  public init(
    url: URL, range: ByteRange? = nil, purpose: DataPurpose = .other,
    headers: [String: String] = [:], flags: Flags = [], body: Data? = nil
  ) {
    self.url = url
    self.range = range
    self.purpose = purpose
    self.headers = headers
    self.flags = flags
    self.body = body
  }

  /// Creates a request that reads error responses (see `Flags.deliversErrorResponses`).
  public init(
    url: URL, range: ByteRange? = nil, purpose: DataPurpose = .other,
    headers: [String: String] = [:], deliversErrorResponses: Bool, body: Data? = nil
  ) {
    self.init(
      url: url, range: range, purpose: purpose, headers: headers,
      flags: deliversErrorResponses ? [.deliversErrorResponses] : [], body: body)
  }

  /// The HTTP method the request is sent with: `POST` with a body, `GET` without.
  public var method: String { body == nil ? "GET" : "POST" }

  /// Whether an HTTP source returns error statuses as responses; see `Flags`.
  public var deliversErrorResponses: Bool {
    get { flags.contains(.deliversErrorResponses) }
    set {
      if newValue {
        flags.insert(.deliversErrorResponses)
      } else {
        flags.remove(.deliversErrorResponses)
      }
    }
  }

  /// The same request for the bytes from `offset` on (relative to the resource), keeping
  /// the end of the original range: how a decorator resumes a transfer that broke.
  public func resuming(at offset: Int64) -> DataRequest {
    var copy = self
    let end = range?.end
    copy.range = ByteRange(offset: offset, length: end.map { max(0, $0 - offset) })
    return copy
  }
}

/// What opening a request learned: the answer's status line and headers, and how many
/// bytes the open will deliver.
public struct DataResponseHead: Sendable, Equatable {
  /// The URL that answered (after redirects).
  public var url: URL
  /// The HTTP status, for HTTP sources (and sources that stand in for them).
  public var statusCode: Int?
  /// The response header fields as sent; look them up with `header(_:)`.
  public var headers: [String: String]
  /// How many bytes reads of this open deliver in all, when known (the range's length,
  /// cut at the end of the resource); nil when unknown.
  public var length: Int64?
  /// The whole resource's length in bytes, when the source learned it (an HTTP
  /// `Content-Range` total or the `Content-Length` of a whole answer, a file's size).
  public var totalLength: Int64?
  /// Whether every byte of the open comes from a local cache, not the network: a
  /// bandwidth meter does not time such a transfer.
  public var isFromCache: Bool

  public init(
    url: URL, statusCode: Int? = nil, headers: [String: String] = [:], length: Int64? = nil,
    totalLength: Int64? = nil, isFromCache: Bool = false
  ) {
    self.url = url
    self.statusCode = statusCode
    self.headers = headers
    self.length = length
    self.totalLength = totalLength
    self.isFromCache = isFromCache
  }

  /// The value of the header field `name`, whatever its case; nil when absent.
  public func header(_ name: String) -> String? {
    if let exact = headers[name] { return exact }
    let wanted = name.lowercased()
    return headers.first { $0.key.lowercased() == wanted }?.value
  }
}

/// What a source holds of its resource without waiting on the network, as the player's
/// loaded time ranges count it for progressive media.
public struct DataBufferState: Sendable, Equatable {
  /// Every byte is at hand at once (a local file): the whole resource counts as loaded.
  public var isLocal: Bool
  /// Bytes downloaded ahead of the reader's position and not yet read.
  public var bytesAhead: Int64
  /// Whether loading waits for the reader to consume what is buffered (a read-ahead limit
  /// reached, or nothing left to fetch), so that no more bytes come until it reads.
  public var isHoldingBack: Bool
  /// Whether every byte from the reader's position to the end of the open is held.
  public var reachesEnd: Bool
  /// Byte ranges of the resource kept on disk (a cache), in order; empty without one.
  public var cachedRanges: [ByteRange]
  /// The speed of the last measured stretch of download, in bits per second (SPEC S9);
  /// nil before one was measured or for sources that do not measure.
  public var downloadSpeedBitsPerSecond: Double?

  /// Creates a state; every field defaults to "nothing held".
  public init(
    isLocal: Bool = false, bytesAhead: Int64 = 0, isHoldingBack: Bool = false,
    reachesEnd: Bool = false, cachedRanges: [ByteRange] = [],
    downloadSpeedBitsPerSecond: Double? = nil
  ) {
    self.isLocal = isLocal
    self.bytesAhead = max(0, bytesAhead)
    self.isHoldingBack = isHoldingBack
    self.reachesEnd = reachesEnd
    self.cachedRanges = cachedRanges
    self.downloadSpeedBitsPerSecond = downloadSpeedBitsPerSecond
  }

  /// The state of a local resource: everything held.
  public static let local = DataBufferState(isLocal: true, isHoldingBack: true, reachesEnd: true)
}

/// The one way bytes reach Playhead: opens a request and streams its bytes (Media3's
/// `DataSource`, mpv's `stream_t`).
///
/// A source serves one request at a time: `open`, then `read` until it returns 0 (the end
/// of the open) or the caller has what it wants, then `close`; it may then be opened again.
/// Whole-resource loads are `DataLoader`'s; random access (a demuxer) is
/// `DataSourceReader`'s; both sit on this protocol, as do the decorators (retries, expired
/// URLs, the disk cache, decryption, accounting, recording). Every implementation passes
/// `DataSourceContract` (PlayheadTesting).
///
/// Threads: `open`, `read` and `close` are called by one thread at a time; `cancel()` may
/// be called from any thread at any moment, and makes a blocked `open` or `read` (and every
/// later one) throw `.cancelled` promptly. A cancelled source stays cancelled.
///
/// Errors are `PlayheadError`s: `.httpStatus` (with `httpStatusCode`), `.timedOut`,
/// `.connectionFailed`, `.fileNotFound`, … for the resource; `.cancelled` after `cancel()`;
/// `.invalidState` for a read with nothing open.
public protocol DataSource: AnyObject, Sendable {
  /// Opens `request`, blocking until the answer's head is there (or the request fails).
  ///
  /// A range of length 0 opens with `length` 0. A range that starts at or past the end of
  /// the resource throws (HTTP 416, or `.invalidArgument` for a file). An earlier open is
  /// closed first.
  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead

  /// Reads up to `buffer.count` bytes of the open request into `buffer`, blocking until at
  /// least one byte is there; returns how many, and 0 at the end of the open (or for an
  /// empty buffer).
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int

  /// Ends the open request and lets its connection go; safe to call when nothing is open.
  func close()

  /// Makes a blocked `open` or `read`, and every later one, throw `.cancelled`. Safe from
  /// any thread; calling it again has no effect.
  func cancel()

  /// What the source holds downloaded ahead of its reader, when it says (nil otherwise).
  var bufferState: DataBufferState? { get }

  /// Sets what to call, on a network or loading thread, whenever the bytes held grow or
  /// loading stops at its limit (nil: nothing). Replaces an earlier handler.
  func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?)
}

extension DataSource {
  /// A source that does not read ahead says nothing.
  public var bufferState: DataBufferState? { nil }

  /// A source that does not read ahead never calls the handler.
  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {}
}

/// Makes data sources: one per transfer (Media3's `DataSource.Factory`).
///
/// A player builds one stack (`DataSourceStack`) and every part of it — progressive
/// media, HLS playlists, segments and keys, sidecar text, thumbnails, preload, offline
/// downloads, the catalog — opens its transfers through it. An application plugs a network
/// of its own (a simulated one, a recording being replayed) in as the stack's upstream.
public protocol DataSourceFactory: Sendable {
  /// A fresh source, nothing open.
  func makeDataSource() -> any DataSource
}

/// A factory made of a closure.
///
/// ```swift
/// let factory = DataSourceFactories.make { MySource() }
/// ```
public struct ClosureDataSourceFactory: DataSourceFactory {
  private let make: @Sendable () -> any DataSource

  /// Creates a factory that calls `make` for each source.
  public init(_ make: @escaping @Sendable () -> any DataSource) {
    self.make = make
  }

  public func makeDataSource() -> any DataSource { make() }
}

/// Shorthands for factories.
public enum DataSourceFactories {
  /// A factory that calls `make` for each source.
  public static func make(_ make: @escaping @Sendable () -> any DataSource)
    -> ClosureDataSourceFactory
  {
    ClosureDataSourceFactory(make)
  }

  /// A factory whose sources are `decorate` applied to a source of `upstream`: how a
  /// decorator (retries, cache, decryption, recording) is put on a stack.
  public static func decorating(
    _ upstream: any DataSourceFactory,
    with decorate: @escaping @Sendable (any DataSource) -> any DataSource
  ) -> ClosureDataSourceFactory {
    ClosureDataSourceFactory { decorate(upstream.makeDataSource()) }
  }
}

extension PlayheadError {
  /// The `.cancelled` error of a source, naming the resource.
  public static func sourceCancelled(_ url: URL?) -> PlayheadError {
    PlayheadError(
      .cancelled, "cancelled" + (url.map { ": \($0.absoluteString)" } ?? ""), url: url)
  }

  /// The `.invalidState` error for a read with nothing open.
  public static func notOpen(_ url: URL?) -> PlayheadError {
    PlayheadError(.invalidState, "read with nothing open", url: url)
  }
}
