import Foundation
import PlayheadCore

/// Why a Playback API request failed.
///
/// Every failure is one of these; the service never traps on a response, whatever its
/// status or body.
public enum PlaybackServiceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Why the network failed.
  public enum NetworkReason: String, Sendable, Equatable, Hashable {
    /// No answer (headers or body bytes) within the timeout.
    case timedOut
    /// The connection was refused, reset or closed early.
    case connectionFailed
    /// The task was cancelled.
    case cancelled
    /// Anything else the data source reported (unsupported scheme, I/O error).
    case other
  }

  /// The request cannot be made: no asset ID or reference ID, no account, a negative limit
  /// or offset, or parts that do not form a URL. Nothing was sent.
  case invalidRequest(message: String)
  /// The API answered with a status outside 200…299. `errors` is the API's error list
  /// (empty when the body is not one); `rawBody` is the body as received.
  case api(statusCode: Int, errors: [PlaybackAPIError], rawBody: Data)
  /// A success status whose body is not the JSON of a video or playlist. `message` names
  /// the offending field where there is one; `rawData` is the body as received.
  case deserialization(message: String, rawData: Data)
  /// The request did not complete: `underlying` is the data source's error.
  case network(reason: NetworkReason, underlying: PlayheadError)

  /// One line saying what went wrong.
  public var message: String {
    switch self {
    case .invalidRequest(let message):
      return "invalid request: \(message)"
    case .api(let status, let errors, let body):
      if errors.isEmpty {
        let excerpt = String(decoding: body.prefix(120), as: UTF8.self)
          .split(whereSeparator: \.isNewline).joined(separator: " ")
        return excerpt.isEmpty
          ? "Playback API error: HTTP \(status)"
          : "Playback API error: HTTP \(status): \(excerpt)"
      }
      return "Playback API error: HTTP \(status): "
        + errors.map(\.summary).joined(separator: "; ")
    case .deserialization(let message, let data):
      return "cannot read the Playback API response (\(data.count) bytes): \(message)"
    case .network(_, let underlying):
      return underlying.message
    }
  }

  public var description: String { message }

  /// The HTTP status of an `.api` error.
  public var httpStatusCode: Int? {
    if case .api(let status, _, _) = self { return status }
    return nil
  }

  /// The API's error list of an `.api` error; empty otherwise.
  public var apiErrors: [PlaybackAPIError] {
    if case .api(_, let errors, _) = self { return errors }
    return []
  }

  /// The response body of an `.api` or `.deserialization` error.
  public var rawData: Data? {
    switch self {
    case .api(_, _, let body): return body
    case .deserialization(_, let data): return data
    case .invalidRequest, .network: return nil
    }
  }

  /// The same failure as a `PlayheadError`, for layers that report only that type: an
  /// invalid request is `.invalidArgument`, an API error `.httpStatus` (with the status),
  /// a deserialisation error `.ioError` (an unreadable answer; all three are source errors,
  /// exit status 3 on the command line), a network error its underlying error.
  public var playheadError: PlayheadError {
    switch self {
    case .invalidRequest: return PlayheadError(.invalidArgument, message)
    case .api(let status, _, _):
      return PlayheadError(.httpStatus, message, httpStatusCode: status)
    case .deserialization: return PlayheadError(.ioError, message)
    case .network(_, let underlying): return underlying
    }
  }

  /// The network error for a data source's `error`.
  static func network(_ error: PlayheadError) -> PlaybackServiceError {
    let reason: NetworkReason
    switch error.code {
    case .timedOut: reason = .timedOut
    case .connectionFailed: reason = .connectionFailed
    case .cancelled: reason = .cancelled
    default: reason = .other
    }
    return .network(reason: reason, underlying: error)
  }
}
