import Foundation
import Playhead

/// The Playback API options shared by `catalog` and `play catalog:ACCOUNT/VIDEO_ID`:
/// credentials, the base URL, the bumper and the parameters passed through.
struct CatalogOptions: OptionGroup, Sendable {
  /// The option names this type reads (`--account` only for `catalog`).
  static let names: Set<String> = [
    "--account", "--policy-key", "--auth-token", "--base-url", "--bumper-id", "--bumper-ref",
    "--ad-config-id", "--config-id", "--param",
  ]

  var account: String?
  var policyKey: String?
  var authToken: String?
  var baseURL: URL?
  var bumperID: String?
  var bumperReferenceID: String?
  var adConfigID: String?
  var deliveryConfigID: String?
  /// `--param NAME=VALUE`, repeatable; a later one with the same name wins.
  var parameters: [String: String] = [:]

  /// Whether any option was given (for `play`, where they need a `catalog:` input).
  var isEmpty: Bool {
    account == nil && policyKey == nil && authToken == nil && baseURL == nil && bumperID == nil
      && bumperReferenceID == nil && adConfigID == nil && deliveryConfigID == nil
      && parameters.isEmpty
  }

  /// Reads the value of `name` (one of `names`) from `cursor`.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try ArgumentValue.singleLine(cursor.value(for: name, inline: inline), option: name)
    switch name {
    case "--account": account = text
    case "--policy-key": policyKey = text
    case "--auth-token": authToken = text
    case "--base-url":
      guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https", url.host != nil
      else {
        throw UsageError("option '--base-url' needs an http(s) URL, not '\(text)'")
      }
      baseURL = url
    case "--bumper-id": bumperID = text
    case "--bumper-ref": bumperReferenceID = text
    case "--ad-config-id": adConfigID = text
    case "--config-id": deliveryConfigID = text
    default:
      guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
        throw UsageError("option '--param' needs NAME=VALUE, not '\(text)'")
      }
      parameters[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
  }

  /// Checks that the API can be asked: a policy key or a token.
  func validateCredentials() throws(UsageError) {
    if policyKey == nil && authToken == nil {
      throw UsageError("the Playback API needs '--policy-key K' (or '--auth-token T')")
    }
  }

  /// The service for `account`, sending `headers` and failing after `timeoutMs`.
  func service(
    account: String, headers: [String: String] = [:], timeoutMs: Int?
  ) -> PlaybackService {
    PlaybackService(
      accountID: account, policyKey: policyKey,
      baseURL: baseURL ?? PlaybackService.defaultBaseURL, headers: headers,
      request: RequestConfiguration(timeoutMs: timeoutMs ?? 10_000, retryCount: 0))
  }

  /// The request for `identifier` (`ID` or `ref:REF`) with these options.
  func request(identifier: String, limit: Int? = nil, offset: Int? = nil)
    -> PlaybackServiceRequest
  {
    var request = PlaybackServiceRequest(identifier: identifier, authToken: authToken)
    request.bumperID = bumperID
    request.bumperReferenceID = bumperReferenceID
    request.adConfigID = adConfigID
    request.deliveryConfigID = deliveryConfigID
    request.limit = limit
    request.offset = offset
    return request
  }
}

/// Runs a catalog call on the concurrency pool and blocks until it ends.
///
/// For the synchronous command-line flow; never call it from the concurrency pool itself.
func waitForCatalog<T: Sendable>(
  _ operation: @escaping @Sendable () async throws(PlaybackServiceError) -> T
) -> Result<T, PlaybackServiceError> {
  let box = CatalogResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    do throws(PlaybackServiceError) {
      box.set(.success(try await operation()))
    } catch {
      box.set(.failure(error))
    }
    done.signal()
  }
  done.wait()
  return box.get() ?? .failure(.invalidRequest(message: "the request ended without a result"))
}

/// Prints a catalog failure and returns the exit status: 2 for a request that cannot be
/// made, 3 for everything else. An API error prints each `error_code` and message.
func reportCatalogFailure(_ error: PlaybackServiceError, console: Console) -> ExitCode {
  switch error {
  case .invalidRequest(let message):
    console.error(message)
    return .usage
  case .api(let status, let errors, _) where !errors.isEmpty:
    for entry in errors {
      console.error("\(entry.summary) (HTTP \(status))")
    }
    return .source
  default:
    console.error(error.message)
    return .source
  }
}

/// Prints a result's warnings and bumper failures on standard error; they do not change
/// the exit status.
func reportCatalogWarnings(
  _ warnings: [String], _ bumperErrors: [String: PlaybackServiceError], console: Console
) {
  for warning in warnings { console.error("warning: \(warning)") }
  for (key, error) in bumperErrors.sorted(by: { $0.key < $1.key }) {
    console.error("warning: bumper \(key) not fetched: \(error.message)")
  }
}

/// A result handed from a task to the waiting thread.
private final class CatalogResultBox<T: Sendable>: Sendable {
  private let value = Locked<Result<T, PlaybackServiceError>?>(nil)

  func set(_ result: Result<T, PlaybackServiceError>) {
    value.withLock { $0 = result }
  }

  func get() -> Result<T, PlaybackServiceError>? {
    value.value
  }
}
