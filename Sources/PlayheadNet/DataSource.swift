import Foundation
import PlayheadCore

/// What a load is for; policies and logs treat playlists, segments and keys differently.
public enum DataPurpose: String, Sendable, Hashable, Codable {
  case playlist, segment, initializationSection, key, media, other
}

/// One request for a resource, or a byte range of it.
///
/// `headers` and `deliversErrorResponses` are for API clients (such as the catalog client);
/// sources that do not speak HTTP ignore them.
public struct DataRequest: Sendable, Hashable {
  public var url: URL
  public var range: ByteRange?
  public var purpose: DataPurpose
  /// Header fields for this request only; they replace configuration headers of the same
  /// name.
  public var headers: [String: String]
  /// When true, an HTTP source answers a non-2xx status with the response (its body and
  /// `statusCode`) instead of throwing `.httpStatus`, so that the caller can read an API's
  /// error body. Ranges are not applied to such a response.
  public var deliversErrorResponses: Bool

  public init(
    url: URL, range: ByteRange? = nil, purpose: DataPurpose = .other,
    headers: [String: String] = [:], deliversErrorResponses: Bool = false
  ) {
    self.url = url
    self.range = range
    self.purpose = purpose
    self.headers = headers
    self.deliversErrorResponses = deliversErrorResponses
  }
}

/// A finished load: the bytes and when, on the source's clock, the transfer ran.
public struct DataResponse: Sendable {
  public var data: Data
  /// The URL that answered (after redirects).
  public var url: URL
  /// The HTTP status, for HTTP sources.
  public var statusCode: Int?
  /// The source's clock when the request was sent.
  public var startClock: MediaTime
  /// The source's clock when the last byte arrived.
  public var endClock: MediaTime
  /// The whole resource's length in bytes, when the source learned it (an HTTP
  /// `Content-Range` total or the `Content-Length` of a whole answer, a file's size);
  /// nil when unknown. A cache uses it to know where a resource ends.
  public var totalLength: Int64?

  public init(
    data: Data, url: URL, statusCode: Int? = nil, startClock: MediaTime, endClock: MediaTime,
    totalLength: Int64? = nil
  ) {
    self.data = data
    self.url = url
    self.statusCode = statusCode
    self.startClock = startClock
    self.endClock = endClock
    self.totalLength = totalLength
  }

  /// How long the transfer took.
  public var duration: MediaTime { endClock - startClock }
}

/// How far a transfer has come; handed to a progress callback during a load.
public struct TransferProgress: Sendable {
  public var request: DataRequest
  public var bytesLoaded: Int
  /// The expected total, when known.
  public var bytesExpected: Int?
  /// Clock time since the request was sent.
  public var elapsed: MediaTime
  /// Clock time from the request to the start of the answer, when the source knows it; nil
  /// otherwise (a reader then takes the elapsed time of the first report with bytes).
  public var timeToFirstByte: MediaTime?

  public init(
    request: DataRequest, bytesLoaded: Int, bytesExpected: Int?, elapsed: MediaTime,
    timeToFirstByte: MediaTime? = nil
  ) {
    self.request = request
    self.bytesLoaded = bytesLoaded
    self.bytesExpected = bytesExpected
    self.elapsed = elapsed
    self.timeToFirstByte = timeToFirstByte
  }
}

/// Told about every finished transfer; the bandwidth meter is one.
public protocol TransferListener: AnyObject, Sendable {
  /// `bytes` arrived over `duration` of clock time for `request`.
  func transferEnded(request: DataRequest, bytes: Int, duration: MediaTime)
}

/// Loads whole resources (or byte ranges of them): HTTP, files, or a simulated network.
///
/// `load` blocks the calling thread until the bytes are there, the request fails, or
/// `cancelAll()` is called. The progress callback runs on the loading thread; returning
/// `false` abandons the transfer, which then throws `.cancelled`.
public protocol DataSource: AnyObject, Sendable {
  func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse

  /// Makes every blocked and future load throw `.cancelled`.
  func cancelAll()
}

extension DataSource {
  /// Loads without progress reports.
  public func load(_ request: DataRequest) throws(PlayheadError) -> DataResponse {
    try load(request, progress: nil)
  }
}
