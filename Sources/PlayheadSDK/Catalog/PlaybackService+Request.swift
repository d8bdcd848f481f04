import Foundation
import PlayheadCore
import PlayheadNet

extension PlaybackService {
  /// The request URL; throws `.invalidRequest` for a request that cannot be made.
  func url(
    for request: PlaybackServiceRequest, collection: PlaybackServiceURL.Collection,
    queryParameters: [String: String]
  ) throws(PlaybackServiceError) -> URL {
    guard let identifier = request.pathIdentifier else {
      throw .invalidRequest(message: "no asset ID or reference ID")
    }
    var query = queryParameters
    if collection == .playlists {
      if let limit = request.limit {
        guard limit >= 1 else { throw .invalidRequest(message: "limit \(limit) is below 1") }
        query["limit"] = String(limit)
      }
      if let offset = request.offset {
        guard offset >= 0 else { throw .invalidRequest(message: "offset \(offset) is negative") }
        query["offset"] = String(offset)
      }
    }
    if let ad = request.adConfigID, !ad.isEmpty { query["ad_config_id"] = ad }
    if let config = request.deliveryConfigID, !config.isEmpty { query["config_id"] = config }
    return try url(collection: collection, identifier: identifier, query: query)
  }

  /// The URL of `identifier` (already a path segment) in `collection`.
  func url(
    collection: PlaybackServiceURL.Collection, identifier: String, query: [String: String]
  ) throws(PlaybackServiceError) -> URL {
    let account = accountID.trimmingCharacters(in: .whitespaces)
    guard !account.isEmpty else { throw .invalidRequest(message: "no account ID") }
    guard
      let url = PlaybackServiceURL.make(
        base: baseURL, account: account, collection: collection, identifier: identifier,
        query: query)
    else {
      throw .invalidRequest(message: "base URL \(baseURL.absoluteString) gives no valid URL")
    }
    return url
  }

  /// The header fields of a request: the service's, the request's, then `Accept` with the
  /// policy key and `Authorization` with the token (names compared without case).
  func headerFields(authToken: String?, extra: [String: String]) -> [String: String] {
    var fields: [String: String] = [:]
    func set(_ name: String, _ value: String) {
      for key in fields.keys where key.lowercased() == name.lowercased() {
        fields[key] = nil
      }
      fields[name] = value
    }
    for (name, value) in headers { set(name, value) }
    for (name, value) in extra { set(name, value) }
    if let policyKey, !policyKey.isEmpty {
      set("Accept", "application/json;pk=\(policyKey)")
    } else {
      set("Accept", "application/json")
    }
    if let authToken, !authToken.isEmpty { set("Authorization", "Bearer \(authToken)") }
    return fields
  }

  /// Sends the request and parses a success body as JSON.
  ///
  /// Throws `.api` for a status outside 200…299 (with the error list, when the body is
  /// one), `.deserialization` for a success body that is not JSON, `.network` otherwise.
  func fetchJSON(
    _ url: URL, request: PlaybackServiceRequest
  ) async throws(PlaybackServiceError) -> (JSONValue, Data) {
    let dataRequest = DataRequest(
      url: url, purpose: .api,
      headers: headerFields(authToken: request.authToken, extra: request.headers),
      flags: [.deliversErrorResponses, .bypassesCache])
    let outcome = await PlaybackServiceLoad.run(dataRequest, loader: stack.loader())
    let response: DataResponse
    switch outcome {
    case .success(let value):
      response = value
    case .failure(.network(_, let underlying)) where underlying.code == .httpStatus:
      // A data source that does not deliver error responses still reports the status.
      throw .api(statusCode: underlying.httpStatusCode ?? 0, errors: [], rawBody: Data())
    case .failure(let error):
      throw error
    }
    let status = response.statusCode ?? 200
    guard (200..<300).contains(status) else {
      throw .api(
        statusCode: status, errors: PlaybackAPIError.list(from: response.data),
        rawBody: response.data)
    }
    return (try Self.parseBody(response.data), response.data)
  }
}
