import Foundation

extension MPDUTCTiming {
  /// The largest response body read as a time (a date-time is about 30 bytes).
  public static let maxBodyBytes = 1024

  /// The server's time from the response to this source's request: the body of an
  /// `http-xsdate` or `http-iso` GET, the `Date` header of an `http-head` HEAD; a
  /// `.direct` source gives its own time without a response.
  ///
  /// The body may have white space around the date-time; `http-iso` also takes a comma as
  /// the decimal mark. A missing header, a body that is not UTF-8, longer than
  /// `maxBodyBytes`, or not a date-time, and an `.unsupported` source, throw an `MPDError`
  /// whose path is `UTCTiming`.
  public func serverTime(body: Data = Data(), dateHeader: String? = nil) throws(MPDError) -> Date {
    switch self {
    case .direct(let date):
      return date
    case .unsupported(let descriptor, let reason):
      throw MPDError(path: "UTCTiming", "\(descriptor.schemeIDURI): \(reason)")
    case .httpHead:
      guard let dateHeader else {
        throw MPDError(path: "UTCTiming", "the HEAD response has no Date header")
      }
      guard let date = HTTPDate.parse(dateHeader) else {
        throw MPDError(path: "UTCTiming", "Date header '\(dateHeader)' is not an HTTP date")
      }
      return date
    case .httpXSDate, .httpISO:
      guard body.count <= Self.maxBodyBytes else {
        throw MPDError(
          path: "UTCTiming", "the response body (\(body.count) bytes) is not a date-time")
      }
      guard let text = String(data: body, encoding: .utf8) else {
        throw MPDError(path: "UTCTiming", "the response body is not UTF-8")
      }
      var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if case .httpISO = self { trimmed = trimmed.replacingOccurrences(of: ",", with: ".") }
      guard let date = XSDateTime.parse(trimmed) else {
        throw MPDError(path: "UTCTiming", "the response body '\(trimmed)' is not a date-time")
      }
      return date
    }
  }

  /// How far the server's clock is ahead of the local one, in seconds: `serverTime` minus
  /// the midpoint of the request's round trip (`requestSentAt` to `responseReceivedAt`, on
  /// the local wall clock). Add it to the local clock to get the `now` that availability
  /// is worked out with.
  ///
  /// For a `.direct` source, pass the time the MPD's request was sent and its response
  /// arrived. A round trip that ends before it starts counts as an instant.
  public static func clockOffsetSeconds(
    serverTime: Date, requestSentAt: Date, responseReceivedAt: Date
  ) -> TimeInterval {
    let roundTrip = max(0, responseReceivedAt.timeIntervalSince(requestSentAt))
    let midpoint = requestSentAt.addingTimeInterval(roundTrip / 2)
    return serverTime.timeIntervalSince(midpoint)
  }
}
