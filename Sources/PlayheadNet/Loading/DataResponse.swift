import Foundation
import PlayheadCore

/// A finished whole-resource load: the bytes, the answer's head, and when, on the loader's
/// clock, the transfer ran.
public struct DataResponse: Sendable {
  public var data: Data
  /// The URL that answered (after redirects).
  public var url: URL
  /// The HTTP status, for HTTP sources.
  public var statusCode: Int?
  /// The response header fields as sent.
  public var headers: [String: String]
  /// The clock when the request was sent.
  public var startClock: MediaTime
  /// The clock when the last byte arrived.
  public var endClock: MediaTime
  /// The whole resource's length in bytes, when the source learned it; nil when unknown.
  public var totalLength: Int64?

  public init(
    data: Data, url: URL, statusCode: Int? = nil, headers: [String: String] = [:],
    startClock: MediaTime, endClock: MediaTime, totalLength: Int64? = nil
  ) {
    self.data = data
    self.url = url
    self.statusCode = statusCode
    self.headers = headers
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
  /// Clock time from the request to the answer's head, once it came.
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
